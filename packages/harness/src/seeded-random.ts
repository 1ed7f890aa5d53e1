import { createHash } from "node:crypto";

/**
 * The one seeded random generator, shuffle and seed mixers of the project. Every package that needs
 * reproducible randomness (prompt order, random rescue, operator draws, initial weights, episode and
 * step seeds, router tie-breaks) takes it from here, so one seed means the same numbers everywhere.
 */

/** A seeded source of uniform numbers in [0, 1). */
export type Random = () => number;

/** A seeded uniform generator in [0, 1) (mulberry32: 32-bit state, period 2^32). */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** A shuffled copy (Fisher-Yates from the last position down, one draw per position). */
export function shuffle<T>(items: readonly T[], random: Random): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

/** Mixes integers into one 32-bit seed (murmur3 body and finaliser); for numeric seed parts. */
export function mixSeed(...parts: number[]): number {
  let hash = 0x9e3779b9;
  for (const part of parts) {
    let value = Math.imul(part | 0, 0xcc9e2d51);
    value = (value << 15) | (value >>> 17);
    hash ^= Math.imul(value, 0x1b873593);
    hash = (hash << 13) | (hash >>> 19);
    hash = (Math.imul(hash, 5) + 0xe6546b64) | 0;
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/**
 * A 32-bit seed from a text key (the first four bytes of its SHA-256, big-endian); for seeds keyed by
 * ids such as `${seed}:${taskId}:${rollout}`. The key's spelling is the caller's: each caller keeps
 * the one its recorded runs were made with, so the seeds (and the weights trained on them) do not move.
 */
export function textSeed(key: string): number {
  return createHash("sha256").update(key).digest().readUInt32BE(0);
}

/** A 32-bit FNV-1a hash of a string (a feature hash, not a seed: no avalanche on short keys). */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
