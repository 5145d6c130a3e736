import type { Estimator } from '../tokens/estimator.js';

const SEPARATOR = '\n\n';

/** Splits text into pieces of at most `budget` tokens, cutting near the middle at a line break. */
export function splitText(text: string, budget: number, estimator: Estimator): string[] {
  if (budget < 1) throw new RangeError(`chunk budget must be at least 1 token, got ${budget}`);
  if (estimator.text(text) <= budget) return [text];
  if (text.length <= 1) return [text];
  const middle = Math.floor(text.length / 2);
  const newline = text.lastIndexOf('\n', middle);
  const at = newline > text.length / 4 ? newline + 1 : middle;
  return [
    ...splitText(text.slice(0, at), budget, estimator),
    ...splitText(text.slice(at), budget, estimator),
  ];
}

/**
 * Packs transcript blocks, in order, into chunks of at most `budget` tokens each; a block larger
 * than the budget is split on its own. Every chunk is re-measured as joined, so no chunk exceeds
 * the budget even when the estimator is not additive.
 */
export function chunkTranscript(blocks: readonly string[], budget: number, estimator: Estimator): string[] {
  if (budget < 1) throw new RangeError(`chunk budget must be at least 1 token, got ${budget}`);
  const separator = estimator.text(SEPARATOR);
  const groups: string[][] = [];
  let current: string[] = [];
  let tokens = 0;
  const flush = () => {
    if (current.length > 0) groups.push(current);
    current = [];
    tokens = 0;
  };
  for (const block of blocks) {
    const size = estimator.text(block);
    if (size > budget) {
      flush();
      for (const piece of splitText(block, budget, estimator)) groups.push([piece]);
      continue;
    }
    const added = current.length === 0 ? size : size + separator;
    if (tokens + added > budget) flush();
    tokens += current.length === 0 ? size : size + separator;
    current.push(block);
  }
  flush();
  return groups.flatMap((g) => fitGroup(g, budget, estimator));
}

function fitGroup(group: string[], budget: number, estimator: Estimator): string[] {
  const joined = group.join(SEPARATOR);
  if (group.length === 1 || estimator.text(joined) <= budget) {
    return group.length === 1 ? splitText(joined, budget, estimator) : [joined];
  }
  const half = Math.ceil(group.length / 2);
  return [
    ...fitGroup(group.slice(0, half), budget, estimator),
    ...fitGroup(group.slice(half), budget, estimator),
  ];
}
