import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createEmbeddedPolicy } from "@hs/policy-embedded";
import { afterAll, describe, expect, it } from "vitest";
import { createAppWorldGrammar } from "./appworld-grammar.js";

const directories: string[] = [];
afterAll(async () => {
  for (const directory of directories) await rm(directory, { recursive: true, force: true });
});

describe("weights saved for another feature count", () => {
  it("do not load, with an error naming the saved and the current feature count", async () => {
    const grammar = createAppWorldGrammar();
    // a network saved before the grammar grew by one feature
    const older = {
      ...grammar,
      featureCount: grammar.featureCount - 1,
      prior: (grammar.prior ?? []).slice(1),
    };
    const directory = await mkdtemp(join(tmpdir(), "hs-appworld-weights-"));
    directories.push(directory);
    const saved = await createEmbeddedPolicy({ grammar: older, seed: 1 });
    await saved.save(directory);
    const current = await createEmbeddedPolicy({ grammar, seed: 1 });
    await expect(current.load(directory)).rejects.toThrow(
      new RegExp(
        `saved network has ${grammar.featureCount - 1} features.*this policy has ${grammar.featureCount} features.*the grammar's features changed`,
      ),
    );
    for (const policy of [saved, current]) policy.dispose();
  });
});
