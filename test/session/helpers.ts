import type { AssistantMessage, Message, ToolPart, UserMessage } from '../../src/model/index.js';

export const user = (text: string): UserMessage => ({ role: 'user', parts: [{ type: 'text', text }] });

export const say = (text: string): AssistantMessage => ({
  role: 'assistant',
  parts: [{ type: 'text', text }],
});

let n = 0;
export function toolCall(name: string, input: Record<string, string>, output: string): ToolPart {
  n += 1;
  return { type: 'tool', callId: `c${n}`, name, input, state: 'completed', output };
}

export const act = (...tools: ToolPart[]): AssistantMessage => ({ role: 'assistant', parts: tools });

/** A tool step reading `path` whose output is `chars` characters long. */
export const read = (path: string, chars: number): AssistantMessage =>
  act(toolCall('read_file', { path }, `// ${path}\n${'x'.repeat(Math.max(0, chars - path.length - 4))}`));

/** A user turn: the request, `steps` tool steps of `chars` each, and a closing answer. */
export function turn(request: string, steps: number, chars: number, tag = request.slice(0, 8)): Message[] {
  const out: Message[] = [user(request)];
  for (let i = 0; i < steps; i++) out.push(read(`src/${tag.replace(/\W/g, '')}/file${i}.ts`, chars));
  out.push(say(`Finished: ${request}`));
  return out;
}
