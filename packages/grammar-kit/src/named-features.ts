/**
 * The feature vectors of an action grammar whose features have names: one of them is `bias` (always 1),
 * the rest are 0 unless an option sets them.
 */
export interface NamedFeatures<Name extends string> {
  /** Position of each feature in the vector. */
  readonly index: ReadonlyMap<string, number>;
  /** A vector of the named values (the others 0, the bias 1). */
  vector(values: Partial<Record<Name, number>>): number[];
  /** `base` (a full vector) with the named values written over it; the bias stays 1. */
  over(base: readonly number[], values: Partial<Record<Name, number>>): number[];
  /** Weights given by name (e.g. a grammar's prior) as a vector in feature order. */
  weights(weights: Partial<Record<Name, number>>): number[];
}

/** Vectors over `names`, which must include `bias`. */
export function namedFeatures<Name extends string>(names: readonly Name[]): NamedFeatures<Name> {
  const index = new Map<string, number>(names.map((name, position) => [name, position]));
  const bias = index.get("bias");
  if (bias === undefined) throw new Error('namedFeatures: the names must include "bias"');
  const over = (base: readonly number[], values: Partial<Record<Name, number>>) => {
    const vector = base.slice();
    for (const name in values) {
      const position = index.get(name);
      const value = values[name];
      if (position !== undefined && value !== undefined) vector[position] = value;
    }
    vector[bias] = 1;
    return vector;
  };
  return {
    index,
    vector: (values) => over(new Array<number>(names.length).fill(0), values),
    over,
    weights: (weights) => names.map((name) => weights[name] ?? 0),
  };
}
