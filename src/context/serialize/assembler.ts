import type { Message } from '../../model/message.js';
import { CallIds, prepare } from './common.js';

/**
 * How one request format is put together, in two halves so that a request can also be built
 * incrementally (context/incremental.ts): `fragment` renders one repaired message on its own, so
 * it can be cached per entry, and a `Fold` joins fragments in order, carrying only what crosses
 * message boundaries (merged turns, unique ids). A full build is the same two halves in one go,
 * which keeps both paths byte-identical by construction.
 */
export interface Assembler<Frag, Item, Payload> {
  /** Every system message's text goes to the request's system slot. */
  readonly hoistSystem: boolean;
  /** The first turn is a user turn: a synthetic "(continuing)" one goes first when needed. */
  readonly leadingUser: boolean;
  /** One repaired message (not a hoisted system message) as this format renders it. */
  fragment(message: Message): Frag;
  /** A new fold, onto `start.items` when given (a request rebuilt from the middle on). */
  fold(start?: FoldStart<Item>): Fold<Frag, Item>;
  /** The payload from the hoisted system texts and the folded items (which it may hold as they are). */
  finish(system: string[], items: Item[]): Payload;
}

/**
 * What a fold extends: a list that may already hold the request's first items, and the call ids
 * the request uses (shared, so that a stretch folded again takes the same ones: see CallIds). A
 * fold started on items never changes the ones it was given until a fragment merges into the last.
 */
export interface FoldStart<Item> {
  items: Item[];
  ids: CallIds;
}

/** A fold's start when none is given: nothing folded yet. */
export function freshStart<Item>(start?: FoldStart<Item>): FoldStart<Item> {
  return start ?? { items: [], ids: new CallIds() };
}

/**
 * Joins fragments in order. `items` is always the request's message list so far; `add` only
 * appends to it or replaces its last element by a new object (a merged or trimmed turn), and
 * never changes an item object, which fragments cached per entry share.
 */
export interface Fold<Frag, Item> {
  readonly items: Item[];
  add(fragment: Frag): void;
}

/** A full build: repair, hoist, leading user turn, then every message's fragment folded in order. */
export function assemble<Frag, Item, Payload>(
  messages: Message[],
  assembler: Assembler<Frag, Item, Payload>,
): Payload {
  const { system, messages: rest } = prepare(messages, assembler);
  const fold = assembler.fold();
  for (const message of rest) fold.add(assembler.fragment(message));
  return assembler.finish(system, fold.items);
}

/** A fold that only concatenates: formats whose fragments never interact. */
export function concatFold<Item>(start?: FoldStart<Item>): Fold<readonly Item[], Item> {
  const items = start?.items ?? [];
  return {
    items,
    add(fragment) {
      // A loop, not push(...fragment): no argument-count limit however large a fragment is.
      for (const item of fragment) items.push(item);
    },
  };
}
