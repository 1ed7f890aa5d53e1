import { createHash } from "node:crypto";
import type { HarnessConfig } from "@hs/spec";

/** JSON with object keys sorted at every depth, so equal values serialise identically. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${canonicalJson(entry)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** Stable content hash of a harness config: `sha256:` + the first 16 hex chars of its canonical JSON. */
export function harnessHash(config: HarnessConfig): string {
  return `sha256:${createHash("sha256").update(canonicalJson(config)).digest("hex").slice(0, 16)}`;
}
