import { createHash } from 'node:crypto';
import type { CacheRule } from '../cost/caching.js';
import type { Usage } from '../model/session.js';

/** One piece of a request in prompt order: a block (Anthropic) or a message, and its tokens. */
export interface Segment {
  /** The piece's content, breakpoint markers left out: equal keys, equal bytes. */
  key: string;
  tokens: number;
  /** Carries a `cache_control` breakpoint (explicit caching only). */
  breakpoint: boolean;
}

/**
 * A provider's prompt cache, replayed: which prefixes of earlier requests are still cached at a
 * given time, and what a new request reads, writes and pays in full. Explicit caching (Anthropic)
 * writes the prefix ending at each breakpoint and reads the longest cached one found at a
 * breakpoint or up to `lookbackBlocks` before it; automatic caching (OpenAI, Gemini) caches every
 * request's prefix and reads the longest match, in `step`-token increments from `minTokens`.
 * An entry lives `ttlMs` past its last use.
 */
export class PromptCache {
  private readonly expires = new Map<string, number>();

  constructor(private readonly rule: CacheRule) {}

  /** The usage the provider would report for `segments` sent at `now` (output left to the caller). */
  request(segments: readonly Segment[], now: number): Usage {
    const chain = chainKeys(segments);
    const upTo: number[] = [];
    let sum = 0;
    for (const s of segments) {
      sum += s.tokens;
      upTo.push(sum);
    }
    const total = sum;
    const live = (i: number) => (this.expires.get(chain[i]!) ?? Number.NEGATIVE_INFINITY) >= now;
    const hit = this.rule.kind === 'explicit' ? this.explicitHit(segments, live) : lastWhere(chain, live);
    let read = hit < 0 ? 0 : upTo[hit]!;
    if (this.rule.kind === 'automatic') read = steps(read, this.rule);
    if (hit >= 0) this.expires.set(chain[hit]!, now + this.rule.ttlMs);
    let written = read;
    segments.forEach((s, i) => {
      const cacheable = this.rule.kind === 'automatic' || s.breakpoint;
      if (!cacheable || upTo[i]! < this.rule.minTokens) return;
      this.expires.set(chain[i]!, now + this.rule.ttlMs);
      if (this.rule.kind === 'explicit') written = Math.max(written, upTo[i]!);
    });
    // Automatic caches charge no write: the tokens are billed as plain input.
    const cacheWrite = this.rule.kind === 'explicit' ? written - read : 0;
    return { inputTotal: total, cacheRead: read, cacheWrite, output: 0, reasoning: 0 };
  }

  private explicitHit(segments: readonly Segment[], live: (i: number) => boolean): number {
    let best = -1;
    segments.forEach((s, i) => {
      if (!s.breakpoint) return;
      const from = Math.max(0, i - this.rule.lookbackBlocks + 1);
      for (let j = i; j >= from && j > best; j--) {
        if (live(j)) {
          best = j;
          break;
        }
      }
    });
    return best;
  }
}

/** Each position's key names the whole prefix up to it. */
function chainKeys(segments: readonly Segment[]): string[] {
  const out: string[] = [];
  let previous = '';
  for (const s of segments) {
    previous = createHash('sha1').update(previous).update('\0').update(s.key).digest('hex');
    out.push(previous);
  }
  return out;
}

function lastWhere(keys: readonly string[], live: (i: number) => boolean): number {
  for (let i = keys.length - 1; i >= 0; i--) if (live(i)) return i;
  return -1;
}

/** OpenAI caches from 1,024 tokens in 128-token steps: what of a matched prefix is billed as cached. */
function steps(tokens: number, rule: CacheRule): number {
  if (tokens < rule.minTokens) return 0;
  return rule.minTokens + Math.floor((tokens - rule.minTokens) / rule.step) * rule.step;
}
