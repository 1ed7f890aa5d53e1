/** A JSON value written as a Python literal (True/False/None, lists, dicts, escaped strings). */
export function pythonLiteral(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${pythonLiteral(item)}`).join(", ")}}`;
}

/** Keyword arguments as Python source, e.g. `title="x", pinned=True`. */
export function pythonKeywords(values: Record<string, unknown>): string {
  return Object.entries(values)
    .map(([key, item]) => `${key}=${pythonLiteral(item)}`)
    .join(", ");
}
