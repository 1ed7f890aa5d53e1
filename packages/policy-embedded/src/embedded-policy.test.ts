import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InvalidInputError } from "@hs/spec";
import { afterAll, describe, expect, it } from "vitest";
import { createToyGrammar, toyView } from "./__fixtures__/toy-grammar.js";
import { tf } from "./backend.js";
import { createEmbeddedPolicy, type EmbeddedTrace } from "./embedded-policy.js";

const grammar = createToyGrammar();
const view = toyView("please add 3 or 7 or 11 to the pile of words here");
const directories: string[] = [];
afterAll(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

describe("EmbeddedPolicy", () => {
  it("runs on the wasm backend", async () => {
    await createEmbeddedPolicy({ grammar, seed: 1 });
    expect(tf.getBackend()).toBe("wasm");
  });

  it("samples the same action for the same seed and view, and varies across seeds", async () => {
    const policy = await createEmbeddedPolicy({ grammar, seed: 1 });
    const first = await policy.act(view, { seed: 42 });
    const again = await policy.act(view, { seed: 42 });
    expect(again).toEqual(first);
    const contents = new Set<string>();
    for (let seed = 0; seed < 40; seed++) contents.add((await policy.act(view, { seed })).content);
    expect(contents.size).toBeGreaterThan(3);
    policy.dispose();
  });

  it("draws the same numbers under a view that differs only where the grammar does not look", async () => {
    const policy = await createEmbeddedPolicy({ grammar, seed: 5 });
    const other = {
      ...view,
      messages: [{ role: "system" as const, content: "a sibling's system text" }, ...view.messages.slice(1)],
    };
    for (let seed = 0; seed < 20; seed++)
      expect((await policy.act(other, { seed })).content).toBe((await policy.act(view, { seed })).content);
    policy.dispose();
  });

  it("scores a repeated view from its cache only while the weights are unchanged", async () => {
    const policy = await createEmbeddedPolicy({ grammar, seed: 7 });
    const copy = toyView("please add 3 or 7 or 11 to the pile of words here");
    const first = await policy.act(view, { seed: 3, mode: "greedy" });
    expect(await policy.act(copy, { seed: 3, mode: "greedy" })).toEqual(first);
    const parameters = policy.network.read();
    const linear = parameters["linear.kernel"];
    if (linear === undefined) throw new Error("no linear term");
    linear.values = linear.values.map((value, index) => value + (index % 3) - 1);
    policy.network.write(parameters);
    const fresh = await createEmbeddedPolicy({ grammar, seed: 7 });
    fresh.network.write(parameters);
    const changed = await policy.act(copy, { seed: 3, mode: "greedy" });
    expect(changed).toEqual(await fresh.act(copy, { seed: 3, mode: "greedy" }));
    expect(changed.tokens).not.toEqual(first.tokens);
    policy.dispose();
    fresh.dispose();
  });

  it("sums decision log-probabilities into the action log-probability", async () => {
    const policy = await createEmbeddedPolicy({ grammar, seed: 2 });
    const action = await policy.act(view, { seed: 5 });
    const tokens = action.tokens ?? [];
    expect(tokens.length).toBe((action.trace as EmbeddedTrace).labels.length);
    const sum = tokens.reduce((total, token) => total + token.logprob, 0);
    expect(action.logprob).toBeCloseTo(sum, 10);
    for (const token of tokens) expect(token.logprob).toBeLessThanOrEqual(0);
    policy.dispose();
  });

  it("gives a proper distribution: empirical frequencies match exp(logprob)", async () => {
    const policy = await createEmbeddedPolicy({ grammar, seed: 3 });
    const counts = new Map<string, { count: number; logprob: number }>();
    const draws = 3000;
    for (let seed = 0; seed < draws; seed++) {
      const action = await policy.act(view, { seed });
      const key = (action.trace as EmbeddedTrace).labels.join("|");
      const entry = counts.get(key) ?? { count: 0, logprob: action.logprob ?? 0 };
      entry.count++;
      counts.set(key, entry);
    }
    let total = 0;
    for (const { count, logprob } of counts.values()) {
      total += Math.exp(logprob);
      expect(Math.abs(count / draws - Math.exp(logprob))).toBeLessThan(0.03);
    }
    expect(total).toBeGreaterThan(0.97);
    policy.dispose();
  });

  it("takes the most likely option at every decision in greedy mode", async () => {
    const policy = await createEmbeddedPolicy({ grammar, seed: 4 });
    const greedy = await policy.act(view, { seed: 1, mode: "greedy" });
    const greedyAgain = await policy.act(view, { seed: 999, mode: "greedy" });
    expect(greedyAgain).toEqual(greedy);
    const { decisions, chosen } = policy.replay(view, greedy.trace);
    for (const [index, decision] of decisions.entries()) {
      const table = tf.tidy(() => policy.network.logSoftmax(policy.rows([decision], [-1])).dataSync());
      const best = Math.max(...Array.from(table.slice(0, decision.options.length)));
      expect(table[chosen[index] ?? -1]).toBe(best);
    }
    policy.dispose();
  });

  it("scales the prior by priorScale: the same greedy action, sharper sampling", async () => {
    const withPrior = {
      ...grammar,
      prior: Array.from({ length: grammar.featureCount }, (_, index) => (index % 3) - 1),
    };
    const soft = await createEmbeddedPolicy({ grammar: withPrior, seed: 2, priorScale: 1 });
    const sharp = await createEmbeddedPolicy({ grammar: withPrior, seed: 2, priorScale: 3 });
    const softGreedy = await soft.act(view, { seed: 1, mode: "greedy" });
    const sharpGreedy = await sharp.act(view, { seed: 1, mode: "greedy" });
    expect(sharpGreedy.content).toBe(softGreedy.content);
    expect(sharpGreedy.logprob ?? 0).toBeGreaterThan(softGreedy.logprob ?? 0);
    soft.dispose();
    sharp.dispose();
  });

  it("returns tool calls only for the native tool-call format", async () => {
    const policy = await createEmbeddedPolicy({ grammar, seed: 5 });
    const text = await policy.act(view, { seed: 1 });
    expect(text.toolCalls).toBeUndefined();
    const native = await policy.act({ ...view, actionFormat: "tool-calls" }, { seed: 1 });
    expect(native.content).toBe(text.content);
    if (native.content !== "stop") expect(native.toolCalls?.length).toBe(1);
    policy.dispose();
  });

  it("replays a trace to the same decisions and rejects a foreign trace", async () => {
    const policy = await createEmbeddedPolicy({ grammar, seed: 6 });
    const action = await policy.act(view, { seed: 3 });
    const replayed = policy.replay(view, action.trace);
    const logprobs = tf.tidy(() =>
      Array.from(policy.network.chosenLogprobs(policy.rows(replayed.decisions, replayed.chosen)).dataSync()),
    );
    expect(logprobs).toEqual((action.tokens ?? []).map((token) => Math.fround(token.logprob)));
    expect(() => policy.replay(view, { kind: "embedded-decisions", labels: ["fly"] })).toThrow(
      InvalidInputError,
    );
    expect(() => policy.replay(view, { something: 1 })).toThrow(InvalidInputError);
    policy.dispose();
  });

  it("saves and loads parameters with their version", async () => {
    const directory = await mkdtemp(join(tmpdir(), "hs-policy-"));
    directories.push(directory);
    const policy = await createEmbeddedPolicy({ grammar, seed: 7 });
    policy.updates = 12;
    await policy.save(directory);
    const other = await createEmbeddedPolicy({ grammar, seed: 8 });
    expect(other.network.read()).not.toEqual(policy.network.read());
    await other.load(directory);
    expect(other.network.read()).toEqual(policy.network.read());
    expect(other.version).toBe("seed7-u12");
    for (let seed = 0; seed < 5; seed++)
      expect(await other.act(view, { seed })).toEqual(await policy.act(view, { seed }));
    const wide = await createEmbeddedPolicy({ grammar, seed: 7, hiddenSizes: [8] });
    await expect(wide.load(directory)).rejects.toThrow(/the saved network has .* this policy has/);
    await writeFile(join(directory, "policy.json"), '{"format":"other"}');
    await expect(other.load(directory)).rejects.toThrow(/policy\.json/);
    for (const item of [policy, other, wide]) item.dispose();
  });

  it("does not leak tensors over many actions", async () => {
    const policy = await createEmbeddedPolicy({ grammar, seed: 9 });
    await policy.act(view, { seed: 0 });
    const before = tf.memory().numTensors;
    for (let seed = 0; seed < 300; seed++) {
      await policy.act(toyView(`add ${seed} and ${seed + 1} words`), { seed });
    }
    expect(tf.memory().numTensors).toBe(before);
    policy.dispose();
  });
});
