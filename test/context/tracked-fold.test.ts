/**
 * TrackedFold.replace against a fold of every fragment from the start, on a toy format whose fold
 * does what the real ones do: merges neighbours of one role, lets the content of the last item
 * decide what happens to the next turn (as an Anthropic prefill's trimmed text does), and makes
 * call ids unique.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Assembler, FoldStart } from '../../src/context/serialize/assembler.js';
import { CallIds } from '../../src/context/serialize/common.js';
import { TrackedFold } from '../../src/context/tracked-fold.js';

interface Turn {
  role: 'a' | 'b';
  text: string;
  call?: string;
}

/**
 * Same-role neighbours merged into a new object, and any turn into an item ending in '+'; a
 * call's id made unique in the request.
 */
function toyFold(start?: FoldStart<Turn>) {
  const items = start?.items ?? [];
  const ids = start?.ids ?? new CallIds();
  return {
    items,
    add(fragment: readonly Turn[]) {
      for (const turn of fragment) {
        const text = turn.call === undefined ? turn.text : `${turn.text}[${ids.take(turn.call)}]`;
        const last = items.at(-1);
        if (last !== undefined && (last.role === turn.role || last.text.endsWith('+')))
          items[items.length - 1] = { role: last.role, text: last.text + text };
        else items.push({ role: turn.role, text });
      }
    },
  };
}

const toy = {
  hoistSystem: false,
  leadingUser: false,
  fragment: () => [],
  fold: toyFold,
  finish: (_: string[], items: Turn[]) => items,
} as unknown as Assembler<unknown, unknown, unknown>;

const turnArb: fc.Arbitrary<Turn> = fc.record(
  {
    role: fc.constantFrom('a' as const, 'b' as const),
    text: fc.constantFrom('', 'p', 'q+', '+r'),
    call: fc.constantFrom('x', 'y', 'z'),
  },
  { requiredKeys: ['role', 'text'] },
);
const fragmentArb = fc.array(turnArb, { maxLength: 3 });

/** An edit of a fragment: any new one, or one that keeps its ends but has more turns in between. */
type Edit = { pick: number } & ({ kind: 'any'; fragment: Turn[] } | { kind: 'longer' });
const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ pick: fc.nat(), kind: fc.constant('any' as const), fragment: fragmentArb }),
  fc.record({ pick: fc.nat(), kind: fc.constant('longer' as const) }),
);

function edited(fragment: readonly Turn[], edit: Edit): Turn[] {
  if (edit.kind === 'any') return edit.fragment;
  const last = fragment.at(-1);
  if (last === undefined) return [];
  const other = last.role === 'a' ? 'b' : 'a';
  return [...fragment, { role: other, text: 'p' }, { role: last.role, text: last.text }];
}

function foldAll(fragments: readonly (readonly Turn[])[]): Turn[] {
  const fold = toyFold();
  for (const f of fragments) fold.add(f);
  return fold.items;
}

describe('TrackedFold.replace', () => {
  it('gives what a fold from the start gives, or says it cannot, round after round', () => {
    let replaced = 0;
    fc.assert(
      fc.property(
        fc.array(fragmentArb, { minLength: 1, maxLength: 12 }),
        fc.array(fc.array(editArb, { minLength: 1, maxLength: 4 }), {
          minLength: 1,
          maxLength: 3,
        }),
        (fragments, rounds) => {
          let tracked = new TrackedFold(toy);
          for (const f of fragments) tracked.add(f);
          const now = [...fragments];
          for (const edits of rounds) {
            const changes = new Map<number, unknown>();
            for (const edit of edits) {
              const at = edit.pick % now.length;
              now[at] = edited(now[at]!, edit);
              changes.set(at, now[at]);
            }
            if (tracked.replace(changes)) {
              replaced++;
              expect(tracked.items).toEqual(foldAll(now));
            } else {
              // What the incremental request does then: starts over.
              tracked = new TrackedFold(toy);
              for (const f of now) tracked.add(f);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
    expect(replaced).toBeGreaterThan(25);
  });

  it('does not splice a stretch whose next fragment now merges into it', () => {
    // b used to begin an item of its own after 'p'; after 'q+' it merges, and the item it makes
    // takes the next a too.
    const fragments: Turn[][] = [
      [{ role: 'a', text: 'p' }],
      [{ role: 'b', text: 'p' }],
      [{ role: 'a', text: 'p' }],
    ];
    const tracked = new TrackedFold(toy);
    for (const f of fragments) tracked.add(f);
    const now = [[{ role: 'a' as const, text: 'q+' }], ...fragments.slice(1)];
    if (tracked.replace(new Map([[0, now[0]]]))) expect(tracked.items).toEqual(foldAll(now));
    expect(foldAll(now)).toEqual([{ role: 'a', text: 'q+pp' }]);
  });

  it('always can when only texts change (what a prune does), however turns merged', () => {
    fc.assert(
      fc.property(
        fc.array(fragmentArb, { minLength: 1, maxLength: 12 }),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom('p', 's')), { minLength: 1, maxLength: 4 }),
        (fragments, edits) => {
          const tracked = new TrackedFold(toy);
          for (const f of fragments) tracked.add(f);
          const items = tracked.items;
          const now = [...fragments];
          const replaced = new Map<number, unknown>();
          for (const [pick, text] of edits) {
            const at = pick % now.length;
            // Texts whose ending ('+', another or none) stays: what the fold reads does not change.
            now[at] = now[at]!.map((turn) => {
              if (turn.text === '') return turn;
              return { ...turn, text: turn.text.endsWith('+') ? `${text}+` : text };
            });
            replaced.set(at, now[at]);
          }
          expect(tracked.replace(replaced)).toBe(true);
          expect(tracked.items).toEqual(foldAll(now));
          // The same list, extended in place after a replace as before it.
          expect(tracked.items).toBe(items);
          tracked.add([{ role: 'a', text: '!', call: 'x' }]);
          expect(tracked.items).toEqual(foldAll([...now, [{ role: 'a', text: '!', call: 'x' }]]));
        },
      ),
      { numRuns: 500 },
    );
  });
});
