import { describe, expect, it } from "vitest";
import { formatRescueProperties, measureRescueProperties, type RescueRecord } from "./rescue-properties.js";

const records: RescueRecord[] = [
  {
    taskId: "a",
    seed: 1,
    modes: ["budget-exhausted"],
    rescuedBy: { budget: true, context: false, control: false },
  },
  {
    taskId: "b",
    seed: 1,
    modes: ["context-lost"],
    rescuedBy: { budget: true, context: true, control: false },
  },
  {
    taskId: "c",
    seed: 1,
    modes: ["context-lost", "wrong-target"],
    rescuedBy: { budget: false, context: true, control: true },
  },
  {
    taskId: "c",
    seed: 2,
    modes: ["wrong-target"],
    rescuedBy: { budget: false, context: false, control: false },
  },
];
const harnesses = [
  { id: "budget", direction: "budget" as const },
  { id: "context", direction: "context" as const },
  { id: "control", direction: null },
];

describe("rescue properties", () => {
  const properties = measureRescueProperties(records, harnesses);

  it("fills the rescue matrix per mode", () => {
    expect(properties.modes).toEqual(["budget-exhausted", "context-lost", "wrong-target"]);
    expect(properties.rescueMatrix.context?.["context-lost"]).toEqual({ attempts: 2, rescued: 2, rate: 1 });
    expect(properties.rescueMatrix.budget?.["wrong-target"]).toEqual({ attempts: 2, rescued: 0, rate: 0 });
    expect(properties.overall.control).toEqual({ attempts: 4, rescued: 1, rate: 0.25 });
  });

  it("computes locality against the chance share", () => {
    expect(properties.locality.budget).toEqual({
      direction: "budget",
      rescues: 2,
      local: 1,
      locality: 0.5,
      chance: 0.25,
    });
    expect(properties.locality.context?.locality).toBe(1);
    expect(properties.locality.control).toBeUndefined();
  });

  it("computes complementarity over task sets", () => {
    expect(properties.complementarity.pairs).toEqual([
      { a: "budget", b: "context", shared: 1, overlap: 1 / 3 },
    ]);
    expect(properties.complementarity.unionTasks).toBe(3);
    expect(properties.complementarity.bestSingle).toEqual({ harnessId: "budget", tasks: 2 });
    expect(properties.complementarity.failedTasks).toBe(3);
  });

  it("formats Markdown tables", () => {
    const text = formatRescueProperties(properties);
    expect(text).toContain("| context | 0/1 (0%) | 2/2 (100%) | 1/2 (50%) | 2/4 (50%) |");
    expect(text).toContain("union of rescued tasks 3 of 3 failed tasks");
  });
});
