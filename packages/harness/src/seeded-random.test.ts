import { describe, expect, it } from "vitest";
import { createRandom, hashString, mixSeed, shuffle, textSeed } from "./seeded-random.js";

describe("seeded random", () => {
  it("gives the recorded mulberry32 stream for seed 1", () => {
    const random = createRandom(1);
    const first = [random(), random(), random()].map((value) => Math.round(value * 1e9));
    expect(first).toEqual([627073941, 2735721, 527447040]);
  });

  it("shuffles deterministically and keeps every element", () => {
    const items = ["a", "b", "c", "d", "e", "f"];
    const once = shuffle(items, createRandom(5));
    expect(shuffle(items, createRandom(5))).toEqual(once);
    expect([...once].sort()).toEqual(items);
    expect(items).toEqual(["a", "b", "c", "d", "e", "f"]);
  });

  it("mixes seeds: order matters, results are unsigned 32-bit", () => {
    expect(mixSeed(1, 2)).not.toBe(mixSeed(2, 1));
    expect(mixSeed(1, 2)).toBe(mixSeed(1, 2));
    for (const value of [mixSeed(-1), textSeed("0:task:1"), hashString("x")]) {
      expect(Number.isInteger(value) && value >= 0 && value < 2 ** 32).toBe(true);
    }
    expect(textSeed("0:a")).not.toBe(textSeed("0:b"));
  });
});
