import type { MessageEntry } from '../model/entry.js';
import type { FilePart, Part, ToolPart } from '../model/parts.js';
import { toolOutputText } from '../tokens/estimator.js';
import { failureNote, toolExitCode, toolFailed } from './facts.js';

/** What a pruned tool output looks like to the model, here too. */
export const PRUNED_OUTPUT_PLACEHOLDER = '[Old tool result content cleared]';

export interface TranscriptOptions {
  /** Characters of one tool output kept in the transcript, head and tail halves (default 800). */
  toolOutputChars?: number;
  /** Characters of one tool input (JSON) kept (default 600). */
  toolInputChars?: number;
  /** Characters of one text part kept (default 16,000): pasted documents are shortened too. */
  textChars?: number;
}

export const DEFAULT_TRANSCRIPT_OPTIONS: Required<TranscriptOptions> = {
  toolOutputChars: 800,
  toolInputChars: 600,
  textChars: 16_000,
};

/** Keeps the first and last halves of `max` characters with a note of what was left out. */
export function shortenMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = Math.ceil(max / 2);
  const tail = Math.floor(max / 2);
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)} … [${omitted} chars omitted] … ${tail > 0 ? text.slice(-tail) : ''}`;
}

/** `[image: name]` or `[file: name (mime)]`: media never enters a summarizer input. */
export function mediaPlaceholder(file: FilePart): string {
  const fromUrl = file.url?.split(/[?#]/)[0]?.split('/').pop();
  const name = file.filename ?? (fromUrl !== undefined && fromUrl !== '' ? fromUrl : 'unnamed');
  return file.mediaType.startsWith('image/') ? `[image: ${name}]` : `[file: ${name} (${file.mediaType})]`;
}

function toolResult(part: ToolPart, o: Required<TranscriptOptions>): string {
  if (part.state === 'pending' || part.state === 'running') return '(no result: the call was interrupted)';
  if (part.compactedAt !== undefined) return PRUNED_OUTPUT_PLACEHOLDER;
  const media = (part.attachments ?? []).map(mediaPlaceholder);
  const status =
    part.state === 'error'
      ? 'error'
      : toolFailed(part)
        ? failureNote(part)
        : toolExitCode(part) === 0
          ? 'exit 0'
          : '';
  const body = shortenMiddle(part.state === 'error' ? part.error : toolOutputText(part), o.toolOutputChars);
  return [status === '' ? '' : `(${status})`, body, ...media].filter((s) => s !== '').join(' ');
}

/** One readable line for a tool call: `[tool bash] {"command":"npm test"} → (exit 1) …`. */
export function toolLine(part: ToolPart, options: TranscriptOptions = {}): string {
  const o = { ...DEFAULT_TRANSCRIPT_OPTIONS, ...options };
  const input = shortenMiddle(JSON.stringify(part.input) ?? '', o.toolInputChars);
  return `[tool ${part.name}] ${input} → ${toolResult(part, o)}`;
}

function partText(part: Part, o: Required<TranscriptOptions>): string | undefined {
  switch (part.type) {
    case 'text':
      return part.text.trim() === '' ? undefined : shortenMiddle(part.text, o.textChars);
    case 'file':
      return mediaPlaceholder(part);
    case 'tool':
      return toolLine(part, o);
    case 'reasoning':
    case 'compaction':
      // Reasoning is the model's scratch work and markers are requests to us: neither is history.
      return undefined;
  }
}

const ROLE_LABEL = { user: 'User', assistant: 'Assistant', system: 'System' } as const;

/** One block of transcript per entry; entries with nothing to show give ''. */
export function renderEntry(entry: MessageEntry, options: TranscriptOptions = {}): string {
  const o = { ...DEFAULT_TRANSCRIPT_OPTIONS, ...options };
  const { message } = entry;
  const lines = (message.parts as Part[])
    .map((p) => partText(p, o))
    .filter((s): s is string => s !== undefined);
  if (lines.length === 0) return '';
  const label =
    message.metadata?.summary === true ? `${ROLE_LABEL[message.role]} (summary)` : ROLE_LABEL[message.role];
  return `${label}: ${lines.join('\n')}`;
}

/** Transcript blocks of the entries to summarize, empty ones dropped, in order. */
export function renderBlocks(entries: readonly MessageEntry[], options: TranscriptOptions = {}): string[] {
  return entries.map((e) => renderEntry(e, options)).filter((b) => b !== '');
}

/** The plain-text transcript: blocks separated by blank lines. */
export function renderTranscript(entries: readonly MessageEntry[], options: TranscriptOptions = {}): string {
  return renderBlocks(entries, options).join('\n\n');
}
