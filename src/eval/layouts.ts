import { parseTranscript } from '../import/index.js';
import type { Message } from '../model/message.js';
import type { LocomoConversation } from './locomo.js';

/**
 * The same conversation as different applications store it, so that no measured gain rests on one
 * layout: the bare words with the speaker's name in metadata; chat-log lines `[date] speaker: text`
 * with nothing in metadata; and an OpenAI Chat Completions JSON file whose messages start with the
 * speaker's name, read through condense's own importer.
 */
export const LOCOMO_LAYOUTS = ['names', 'dated', 'openai-json'] as const;
export type LocomoLayout = (typeof LOCOMO_LAYOUTS)[number];

export const LAYOUT_LABEL: Record<LocomoLayout, string> = {
  names: 'bare text, names in metadata',
  dated: '[date] speaker: text',
  'openai-json': 'OpenAI chat JSON, speaker: text',
};

/** The conversation's messages in a layout, with the time each was written where the layout has one. */
export function layoutMessages(
  conv: LocomoConversation,
  layout: LocomoLayout,
): Array<{ message: Message; createdAt?: number }> {
  switch (layout) {
    case 'names':
      return conv.turns.map((t) => ({
        message: { role: t.role, parts: [{ type: 'text', text: t.text }], metadata: { name: t.speaker } },
        createdAt: t.at,
      }));
    case 'dated':
      return conv.turns.map((t) => ({
        message: { role: t.role, parts: [{ type: 'text', text: `[${t.date}] ${t.speaker}: ${t.text}` }] },
      }));
    case 'openai-json': {
      const file = JSON.stringify({
        messages: conv.turns.map((t) => ({ role: t.role, content: `${t.speaker}: ${t.text}` })),
      });
      const parsed = parseTranscript(file, { file: `${conv.id}.json` });
      const session = Array.isArray(parsed) ? parsed[0]! : parsed;
      return session.messages.map((m) => ({ message: m.message }));
    }
  }
}
