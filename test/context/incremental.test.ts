import type { ModelMessage } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ContextFormat,
  IncrementalContext,
  renderContext,
  splitAiSdkSystem,
} from '../../src/context/index.js';
import { entryLogArb } from '../support/arbitraries.js';
import { SimWindow, viewArb, windowOpArb } from './support/window.js';

const FORMATS: ContextFormat[] = ['ai-sdk', 'openai', 'anthropic', 'gemini'];

/** The message list of any format's payload: what a caller might edit. */
function messagesOf(payload: unknown): unknown[] {
  if (Array.isArray(payload)) return payload;
  const p = payload as { messages?: unknown[]; contents?: unknown[] };
  return (p.messages ?? p.contents)!;
}

describe('the incremental context is byte-identical to a full rebuild', () => {
  for (const format of FORMATS) {
    it(`${format}: after every step of random append / prune / complete / compact / reload sequences`, () => {
      fc.assert(
        fc.property(
          fc.array(windowOpArb, { minLength: 1, maxLength: 25 }),
          viewArb,
          fc.array(fc.boolean(), { minLength: 25, maxLength: 25 }),
          (ops, view, tamper) => {
            const window = new SimWindow();
            const context = new IncrementalContext(format, view);
            ops.forEach((op, i) => {
              window.apply(op);
              const full = renderContext(window.entries, { ...view, format, system: window.system });
              const payload = context.render(window.entries, window.system);
              expect(JSON.stringify(payload)).toBe(JSON.stringify(full));
              // A caller that pushes onto the list it was given must not corrupt the next request.
              if (tamper[i])
                messagesOf(payload).push(messagesOf(payload)[0] ?? { role: 'user', content: 'x' });
            });
          },
        ),
        { numRuns: 200 },
      );
    });
  }

  it('a prune re-renders the entries it marked, without a rebuild', () => {
    const opArb = windowOpArb.filter((op) => op.kind === 'append' || op.kind === 'prune');
    fc.assert(
      fc.property(
        fc.array(opArb, { minLength: 1, maxLength: 25 }),
        viewArb,
        fc.constantFrom(...FORMATS),
        (ops, view, format) => {
          const window = new SimWindow();
          const context = new IncrementalContext(format, view);
          context.render(window.entries, window.system);
          for (const op of ops) {
            window.apply(op);
            const full = renderContext(window.entries, { ...view, format, system: window.system });
            expect(JSON.stringify(context.render(window.entries, window.system))).toBe(JSON.stringify(full));
          }
          expect(context.rebuilds).toBe(1);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('ai-sdk: renderCall splits the system texts off exactly like splitAiSdkSystem', () => {
    fc.assert(
      fc.property(fc.array(windowOpArb, { minLength: 1, maxLength: 15 }), viewArb, (ops, view) => {
        const window = new SimWindow();
        const context = new IncrementalContext('ai-sdk', view);
        for (const op of ops) {
          window.apply(op);
          const full = renderContext(window.entries, { ...view, format: 'ai-sdk', system: window.system });
          const call = context.renderCall(window.entries, window.system);
          expect(JSON.stringify(call)).toBe(JSON.stringify(splitAiSdkSystem(full as ModelMessage[])));
          call.messages.push({ role: 'user', content: 'edited by the caller' });
        }
      }),
      { numRuns: 150 },
    );
  });

  it('random logs with pivots, rendered whole and then grown one entry at a time', () => {
    fc.assert(
      fc.property(entryLogArb(), fc.constantFrom(...FORMATS), fc.nat(), (log, format, split) => {
        const at = log.length === 0 ? 0 : split % log.length;
        const entries = log.slice(0, at);
        const context = new IncrementalContext(format);
        context.render(entries, 'sys');
        for (const entry of log.slice(at)) {
          entries.push(entry);
          expect(JSON.stringify(context.render(entries, 'sys'))).toBe(
            JSON.stringify(renderContext(entries, { format, system: 'sys' })),
          );
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a message or block handed out cannot be edited in place: every later request shares it', () => {
    const window = new SimWindow();
    window.apply({
      kind: 'append',
      messages: [{ role: 'user', parts: [{ type: 'text', text: 'Fix the test' }] }],
    });
    const anthropic = new IncrementalContext('anthropic');
    const block = anthropic.render(window.entries, 'sys').messages.at(-1)!.content.at(-1)!;
    expect(() => Object.assign(block, { cache_control: { type: 'ephemeral' } })).toThrow(TypeError);
    const aiSdk = new IncrementalContext('ai-sdk');
    const message = aiSdk.renderCall(window.entries, 'sys').messages[0]!;
    expect(() => Object.assign(message, { providerOptions: {} })).toThrow(TypeError);
    window.apply({
      kind: 'append',
      messages: [{ role: 'assistant', parts: [{ type: 'text', text: 'On it.' }] }],
    });
    expect(JSON.stringify(anthropic.render(window.entries, 'sys'))).toBe(
      JSON.stringify(renderContext(window.entries, { format: 'anthropic', system: 'sys' })),
    );
  });
});
