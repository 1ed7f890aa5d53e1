import type { PolicyView } from "@hs/spec";

/**
 * A cache of one value per view object: a grammar's `next` is called once per decision on the same view,
 * and what its decisions read from the view is the same each time. Returns the cached value, or the one
 * `compute` makes on the first call for a view.
 */
export function viewCache<Value>(): (view: PolicyView, compute: () => Value) => Value {
  const values = new WeakMap<PolicyView, Value>();
  return (view, compute) => {
    const cached = values.get(view);
    if (cached !== undefined) return cached;
    const value = compute();
    values.set(view, value);
    return value;
  };
}
