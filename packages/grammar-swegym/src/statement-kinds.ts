import type { RewriteKind } from "./line-rewrites.js";

/**
 * Words of an issue report that point at a kind of rewrite. Chosen from general bug vocabulary and
 * the wording of the bundled TRAIN split's statements only (never the held-out splits').
 */
const kindWords: readonly [RewriteKind, RegExp][] = [
  [
    "comparison",
    /\b(inclusive|exclusive|boundary|boundaries|exact(ly)?|equal|limit|at least|at most|smaller|larger|greater|less|last|first|powers?)\b/i,
  ],
  [
    "off-by-one",
    /\b(off[- ]by[- ]one|one (line|item|row|unit|too)|too far|last|first|largest|smallest|next|previous|index|position|dropped|missing|extra)\b/i,
  ],
  ["boolean", /\b(true|false|never|always|not|instead)\b/i],
  [
    "arithmetic",
    /\b(sign|minus|plus|subtract(ion)?|add(ition|s up)?|sum|total|negative|twice|half|score)\b/i,
  ],
  ["swap-operands", /\b(sign|reversed?|backwards|negative|minus|subtraction|order)\b/i],
  ["precedence", /\b(precedence|parenthes[ie]s|convert(ed|s)?|formula)\b/i],
  [
    "normalize",
    /\b(upper[- ]?case|lower[- ]?case|capitals?|case|spaces?|whitespace|spacing|trailing|leading|round(ed|ing)?|truncated?|fraction(al|s)?)\b/i,
  ],
  ["accumulate", /\b(only (their|the|its) last|keep(s)? only|lines?|multi[- ]line|all of)\b/i],
  ["condition", /\b(empty|missing|dropped|ignored|skipped|also|DEFAULT|fallback)\b/i],
];

const cache = new Map<string, Set<RewriteKind>>();

/** The rewrite kinds the statement's wording points at (kept per statement text). */
export function statementRewriteKinds(statement: string): Set<RewriteKind> {
  const cached = cache.get(statement);
  if (cached !== undefined) return cached;
  const kinds = new Set<RewriteKind>();
  for (const [kind, pattern] of kindWords) if (pattern.test(statement)) kinds.add(kind);
  if (cache.size > 256) cache.clear();
  cache.set(statement, kinds);
  return kinds;
}
