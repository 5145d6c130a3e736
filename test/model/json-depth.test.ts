import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/model/errors.js';
import { type JsonValue, MAX_JSON_DEPTH, pathTooDeep } from '../../src/model/json.js';
import type { Message } from '../../src/model/message.js';
import { parseMessage } from '../../src/model/validate.js';
import { openSession } from '../../src/session/index.js';
import { memoryStore } from '../../src/store/index.js';

/** `levels` arrays nested in one another around a 0 (built by parsing: no recursion here). */
const nested = (levels: number): JsonValue => JSON.parse(`${'['.repeat(levels)}0${']'.repeat(levels)}`);

const withInput = (input: JsonValue) => ({
  role: 'assistant',
  parts: [{ type: 'tool', callId: 'c', name: 'read', input, state: 'pending' }],
});

describe('JSON nesting depth', () => {
  it('pathTooDeep finds the first branch past the limit, at any depth, without recursion', () => {
    expect(pathTooDeep(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(pathTooDeep(nested(MAX_JSON_DEPTH + 1))).toEqual(Array(MAX_JSON_DEPTH).fill(0));
    expect(pathTooDeep(nested(200_000))).toHaveLength(MAX_JSON_DEPTH);
    // Two deep branches: the first one in document order is named.
    expect(pathTooDeep({ a: 1, b: [nested(3)], c: nested(3) }, 3)).toEqual(['b', 0, 0]);
  });

  it('a message up to the limit is accepted; one past it is bad input naming where, not a stack overflow', () => {
    // The message itself and its parts array, part and input object take 3 levels.
    expect(() => parseMessage(withInput(nested(MAX_JSON_DEPTH - 3)))).not.toThrow();
    const parse = () => parseMessage(withInput(nested(10_000)), { file: 'x.jsonl', line: 7 });
    expect(parse).toThrow(InputError);
    expect(parse).toThrow(
      `x.jsonl:line 7, field parts[0].input[0][0][0][0][0]…: JSON nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
  });

  it('session.append rejects a too-deep message whole', async () => {
    const session = await openSession(memoryStore(), 's');
    const user = { role: 'user', parts: [{ type: 'text', text: 'go' }] };
    // Untyped input, as from a file: validated at run time.
    const input = [user, withInput(nested(10_000))] as unknown as Message[];
    await expect(session.append(input)).rejects.toThrow(
      'field [1].parts[0].input[0][0][0][0][0]…: JSON nested deeper',
    );
    expect(session.activeEntries()).toEqual([]);
  });
});
