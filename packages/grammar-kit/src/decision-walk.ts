/**
 * A walk over the labels an action grammar's caller has chosen so far: each decision of a grammar's
 * `next` takes its label in turn, and the first decision without one is the one to ask for.
 */
export class DecisionWalk {
  private position = 0;
  constructor(private readonly labels: readonly string[]) {}

  /** The next chosen label, or null when the walk reaches the decision to ask for. */
  take(): string | null {
    const label = this.labels[this.position];
    if (label === undefined) return null;
    this.position++;
    return label;
  }
}

/** What follows the first `prefix:` of an option label (`column:Name` -> `Name`). */
export function labelValue(label: string): string {
  return label.slice(label.indexOf(":") + 1);
}
