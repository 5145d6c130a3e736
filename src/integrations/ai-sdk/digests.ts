import { createHash, type Hash } from 'node:crypto';
import type { LanguageModelV3Prompt } from '@ai-sdk/provider';
import { canonical } from './cursor.js';
import type { V3Message } from './prompt-in.js';

export type ConversationMessage = Exclude<V3Message, { role: 'system' }>;

/** Messages by position, as an array gives them: what the digests read, without a copy of the prompt. */
export interface MessageList<M extends V3Message = V3Message> {
  readonly length: number;
  at(index: number): M | undefined;
}

/**
 * The prompt's messages from `offset` on, in place: a call costs what is new in the prompt, not a
 * copy of the whole conversation.
 */
class Tail implements MessageList<ConversationMessage> {
  constructor(
    private readonly prompt: LanguageModelV3Prompt,
    private readonly offset: number,
  ) {}

  get length(): number {
    return this.prompt.length - this.offset;
  }

  at(index: number): ConversationMessage | undefined {
    return this.prompt[this.offset + index] as ConversationMessage | undefined;
  }
}

export interface SplitPrompt {
  system: string[];
  conversation: MessageList<ConversationMessage>;
}

const digestOf = (text: string) => createHash('sha256').update(text).digest('base64url');

/** How far back from the end of the stored prefix its messages are checked on each call. */
const RECENT = 64;

/**
 * Positions of the stored prefix checked on each call: n - 1, n - 2, n - 4, ... n - 64 (its last
 * message and some of the 63 before it) and 0, as many whatever the history's length. An app that
 * regenerates or edits a message drops what followed it, so the end of the prefix moves; an edit
 * that keeps every later message in place is caught at these positions (near the end, where apps
 * edit), and in full whenever the prefix is hashed again (a restart, another instance). Positions
 * further back would catch an edit at a few of thousands of messages, at the price of hashing
 * more of a longer history on every call.
 */
function* samples(n: number): Generator<number> {
  if (n === 0) return;
  for (let back = 1; back <= Math.min(n, RECENT); back *= 2) yield n - back;
  yield 0;
}

/**
 * The cursor's hash chain over the app's messages, kept from call to call so that a call hashes
 * only the messages new since the last one (and a few samples of the prefix) instead of the whole
 * conversation: chain[i] is the cursor hash of the first i messages, own[i] message i's digest.
 */
export class PromptDigests {
  private chain: string[] = [''];
  private own: string[] = [];
  private running: Hash = createHash('sha256');
  /** How many system messages led the last prompt split exactly, when none came later (else null). */
  private lead: number | null = null;

  /**
   * The prompt's system texts and its conversation. `known` messages of the conversation are
   * taken to stand where they stood (follow() checks that): only the system messages leading the
   * prompt and the messages after those are looked at, as long as the last prompt had its system
   * messages only at the start. Otherwise, or when not `quick`, every message is.
   */
  split(prompt: LanguageModelV3Prompt, known: number, quick: boolean): SplitPrompt {
    const lead = this.lead;
    if (quick && lead !== null && lead + known <= prompt.length) {
      let fits = lead === prompt.length || prompt[lead]!.role !== 'system';
      for (let i = 0; fits && i < lead; i++) fits = prompt[i]!.role === 'system';
      for (let i = lead + known; fits && i < prompt.length; i++) fits = prompt[i]!.role !== 'system';
      if (fits) {
        const system = (prompt.slice(0, lead) as { content: string }[]).map((m) => m.content);
        return { system, conversation: new Tail(prompt, lead) };
      }
    }
    const system: string[] = [];
    const conversation: ConversationMessage[] = [];
    for (const m of prompt) {
      if (m.role === 'system') system.push(m.content);
      else conversation.push(m);
    }
    this.lead = prompt.slice(0, system.length).every((m) => m.role === 'system') ? system.length : null;
    return { system, conversation };
  }

  /**
   * Makes the chain cover `messages`; false when its first `n` are not the ones whose chain is
   * `hash` (the app rewrote its history).
   */
  follow(messages: MessageList, n: number, hash: string): boolean {
    if (!this.sampled(messages, n, hash)) {
      // Not known here (a first call, a restart, another instance took them): hashed in full.
      this.restart(messages, n);
      if (this.chain[n] !== hash) return false;
    }
    // Digests past the prefix from an earlier prompt must be this prompt's, else start over.
    const known = Math.min(this.own.length, messages.length);
    for (let i = n; i < known; i++) {
      if (digestOf(canonical(messages.at(i)!)) === this.own[i]) continue;
      this.restart(messages, messages.length);
      return this.chain[n] === hash;
    }
    this.extend(messages, messages.length);
    return true;
  }

  /** The cursor hash of the first `n` messages (covered by the last `follow`). */
  at(n: number): string {
    return this.chain[n]!;
  }

  private sampled(messages: MessageList, n: number, hash: string): boolean {
    if (n > this.own.length || this.chain[n] !== hash) return false;
    for (const i of samples(n)) if (digestOf(canonical(messages.at(i)!)) !== this.own[i]) return false;
    return true;
  }

  private restart(messages: MessageList, to: number): void {
    this.chain = [''];
    this.own = [];
    this.running = createHash('sha256');
    this.extend(messages, to);
  }

  private extend(messages: MessageList, to: number): void {
    for (let i = this.own.length; i < to; i++) {
      const text = canonical(messages.at(i)!);
      this.running.update(text).update('\n');
      this.chain.push(this.running.copy().digest('base64url'));
      this.own.push(digestOf(text));
    }
  }
}

const bySession = new WeakMap<object, PromptDigests>();

/** The digests kept for one session object (a middleware's). */
export function digestsOf(session: object): PromptDigests {
  let digests = bySession.get(session);
  if (digests === undefined) {
    digests = new PromptDigests();
    bySession.set(session, digests);
  }
  return digests;
}
