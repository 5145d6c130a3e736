/**
 * fast-check arbitraries for condense's data: random but schema-valid messages, histories and
 * entry logs (with pivots). Shared by every area's property tests, so they deliberately produce the
 * awkward cases too: empty and whitespace texts, reasoning with and without signatures, files by
 * data and by URL, parallel / interrupted / failed / pruned tool calls, repeated call ids (tau-bench
 * reuses them), consecutive same-role messages, system and summary messages.
 */
export * from './arbitraries/log.js';
export * from './arbitraries/messages.js';
export * from './arbitraries/parts.js';
