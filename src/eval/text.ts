import type { Message } from '../model/message.js';
import { toolOutputText } from '../tokens/estimator.js';

/** Everything of a message the model reads: text, tool calls with their input, outputs and errors. */
export function messageText(message: Message): string {
  const out: string[] = [];
  for (const p of message.parts) {
    if (p.type === 'text' || p.type === 'reasoning') out.push(p.text);
    else if (p.type === 'tool') out.push(`${p.name} ${JSON.stringify(p.input)}`, toolOutputText(p));
  }
  return out.join('\n');
}
