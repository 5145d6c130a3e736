import type { SUMMARY_LAYOUTS } from '../model/entry.js';
import type { Message } from '../model/message.js';

/**
 * Where the pivot's summary goes in the view. `user` is condense's default (a
 * clearly delimited user-role message); `assistant` is Qwery; `question+assistant` is opencode
 * (the marker's question, then the summary); `system` is Nexus and Pegasus; `user-plain` is Mistral Vibe
 * (the summary text alone as the user message).
 */
export type SummaryLayout = (typeof SUMMARY_LAYOUTS)[number];

export const DEFAULT_MARKER_QUESTION = 'What did we do so far?';

export const SUMMARY_OPEN = '<conversation-summary>';
export const SUMMARY_CLOSE = '</conversation-summary>';
export const SUMMARY_LEAD =
  'This summarizes the earlier part of this conversation, which is no longer shown.';

/** The user-role summary text: delimited so the model cannot take it for a new request. */
export function delimitedSummary(summary: string): string {
  return `${SUMMARY_OPEN}\n${SUMMARY_LEAD}\n\n${summary}\n${SUMMARY_CLOSE}`;
}

/** The message(s) that stand for everything the pivot summarized, in the chosen layout. */
export function summaryMessages(summary: string, layout: SummaryLayout, markerQuestion: string): Message[] {
  const metadata = { summary: true, synthetic: true };
  switch (layout) {
    case 'user':
      return [
        {
          role: 'user',
          parts: [{ type: 'text', text: delimitedSummary(summary), synthetic: true }],
          metadata,
        },
      ];
    case 'user-plain':
      return [{ role: 'user', parts: [{ type: 'text', text: summary, synthetic: true }], metadata }];
    case 'assistant':
      return [{ role: 'assistant', parts: [{ type: 'text', text: summary }], metadata }];
    case 'system':
      return [{ role: 'system', parts: [{ type: 'text', text: summary }], metadata }];
    case 'question+assistant':
      return [
        {
          role: 'user',
          parts: [{ type: 'text', text: markerQuestion, synthetic: true }],
          metadata: { synthetic: true },
        },
        { role: 'assistant', parts: [{ type: 'text', text: summary }], metadata },
      ];
  }
}
