/** A seeded pseudo-random generator (mulberry32), so every task's world is reproducible. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [low, high]. */
  integer(low: number, high: number): number;
  /** One element of a non-empty list. */
  pick<Item>(items: readonly Item[]): Item;
  /** A shuffled copy. */
  shuffle<Item>(items: readonly Item[]): Item[];
}

/** A seed from a string (FNV-1a). */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** Creates the generator. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
  const integer = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
  return {
    next,
    integer,
    pick: <Item>(items: readonly Item[]) => items[integer(0, items.length - 1)] as Item,
    shuffle: <Item>(items: readonly Item[]) => {
      const copy = [...items];
      for (let index = copy.length - 1; index > 0; index -= 1) {
        const other = integer(0, index);
        [copy[index], copy[other]] = [copy[other] as Item, copy[index] as Item];
      }
      return copy;
    },
  };
}
