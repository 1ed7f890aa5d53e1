import { rerollControlId } from "@hs/spec";
import type { TopLevelSpec } from "vega-lite";
import type { Experiment } from "./experiment.js";

/** A chart to render: its file stem, title and Vega-Lite spec. */
export interface ChartSpec {
  /** File stem. */
  name: string;
  /** Title. */
  title: string;
  /** Vega-Lite spec with inline data. */
  spec: TopLevelSpec;
}

const size = { width: 520, height: 260 };

function runRows(experiments: readonly Experiment[]) {
  return experiments.flatMap((experiment) =>
    experiment.runs.flatMap((run) =>
      run.metrics.map((row) => ({
        method: run.method,
        run: `${run.method} seed ${run.seed}`,
        seed: run.seed,
        step: row.step,
        rollouts: row.rolloutsTotal,
        success: row.success,
        signalShare: row.signalShare,
        routerHitRate:
          (row.rescue.routerQueries ?? 0) > 0
            ? (row.rescue.routerHits ?? 0) / (row.rescue.routerQueries ?? 1)
            : null,
      })),
    ),
  );
}

function lineChart(
  name: string,
  title: string,
  values: object[],
  x: string,
  xTitle: string,
  y: string,
  yTitle: string,
): ChartSpec {
  return {
    name,
    title,
    spec: {
      ...size,
      data: { values },
      transform: [
        {
          window: [{ op: "mean", field: y, as: "smoothed" }],
          frame: [-4, 0],
          groupby: ["run"],
          sort: [{ field: x }],
        },
      ],
      mark: { type: "line", opacity: 0.8 },
      encoding: {
        x: { field: x, type: "quantitative", title: xTitle },
        y: { field: "smoothed", type: "quantitative", title: `${yTitle} (mean of last 5 steps)` },
        color: { field: "method", type: "nominal" },
        detail: { field: "run", type: "nominal" },
      },
    },
  };
}

/** Learning curves, signal share and (when a router ran) its hit rate, over every run's steps. */
function trainingCharts(experiments: readonly Experiment[]): ChartSpec[] {
  const rows = runRows(experiments);
  if (rows.length === 0) return [];
  const charts = [
    lineChart(
      "learning-curves",
      "Training success under the base harness, every seed",
      rows,
      "rollouts",
      "rollouts spent",
      "success",
      "success",
    ),
    lineChart(
      "signal-share",
      "Share of base groups with signal",
      rows,
      "step",
      "step",
      "signalShare",
      "signal share",
    ),
  ];
  const routed = rows.filter((row) => row.routerHitRate !== null);
  if (routed.length > 0) {
    charts.push(
      lineChart(
        "router-hit-rate",
        "Router hit rate (top-1 sibling rescued the group)",
        routed,
        "step",
        "step",
        "routerHitRate",
        "hit rate",
      ),
    );
  }
  return charts;
}

/** Held-out success per method, each seed a dot and the mean a bar. */
function heldoutChart(experiments: readonly Experiment[]): ChartSpec[] {
  const heldout = experiments.flatMap((experiment) =>
    Object.entries(experiment.results?.heldout ?? {}).flatMap(([method, values]) =>
      values.map((success, index) => ({
        method,
        success,
        seed: experiment.results?.seeds?.[index] ?? index,
      })),
    ),
  );
  if (heldout.length === 0) return [];
  return [
    {
      name: "heldout-success",
      title: "Held-out success under the base harness (each dot a seed, bar the mean)",
      spec: {
        ...size,
        data: { values: heldout },
        layer: [
          {
            mark: { type: "bar", opacity: 0.35 },
            encoding: {
              x: { field: "method", type: "nominal" },
              y: { aggregate: "mean", field: "success", type: "quantitative", title: "success" },
            },
          },
          {
            mark: { type: "point", filled: true },
            encoding: {
              x: { field: "method", type: "nominal" },
              y: { field: "success", type: "quantitative" },
              color: { field: "method", type: "nominal" },
            },
          },
        ],
      },
    },
  ];
}

/** The rescue matrix of evolution, beside the re-roll control's rescues. */
function rescueMatrixChart(experiments: readonly Experiment[]): ChartSpec[] {
  const matrix = experiments.flatMap((experiment) => rescueMatrixCells(experiment.evolution));
  if (matrix.length === 0) return [];
  return [
    {
      name: "rescue-matrix",
      title: `Rescue matrix: share of base failures of each mode a sibling solved (label: rescued/tried vs the ${rerollControlId} control's rescues, same failures and seeds)`,
      spec: {
        width: 520,
        height: { step: 22 },
        data: { values: matrix },
        layer: [
          {
            mark: "rect",
            encoding: {
              x: { field: "mode", type: "nominal", title: "failure mode of the base harness" },
              y: { field: "sibling", type: "nominal" },
              color: {
                field: "rate",
                type: "quantitative",
                scale: { domain: [0, 1], scheme: "blues" },
                title: "rescued",
              },
            },
          },
          {
            mark: { type: "text", fontSize: 9 },
            encoding: {
              x: { field: "mode", type: "nominal" },
              y: { field: "sibling", type: "nominal" },
              text: { field: "label", type: "nominal" },
            },
          },
        ],
      },
    },
  ];
}

/** Base-failed tasks rescued by the best sibling and by all siblings together. */
function complementarityChart(experiments: readonly Experiment[]): ChartSpec[] {
  const complementarity = experiments.flatMap((experiment) => complementarityBars(experiment.evolution));
  if (complementarity.length === 0) return [];
  return [
    {
      name: "complementarity",
      title: "Complementarity: base-failed tasks rescued by the best sibling and by all siblings together",
      spec: {
        ...size,
        data: { values: complementarity },
        mark: "bar",
        encoding: {
          y: { field: "name", type: "nominal", sort: "-x", title: null },
          x: { field: "rescued", type: "quantitative", title: "tasks rescued" },
          color: { field: "kind", type: "nominal" },
        },
      },
    },
  ];
}

/** Each harness's probe success as the policy trains (before training and per run). */
function profileDriftChart(experiments: readonly Experiment[]): ChartSpec[] {
  const drift = experiments.flatMap((experiment) => {
    const sources = [
      { label: "before training", profiles: experiment.profiles },
      ...experiment.runs.map((run) => ({ label: `${run.method} seed ${run.seed}`, profiles: run.profiles })),
    ];
    return sources.flatMap(({ label, profiles }) =>
      (profiles?.history ?? []).flatMap((entry) =>
        Object.values(entry.profiles).map((profile) => ({
          step: entry.step,
          harness: profile.harnessId,
          run: `${profile.harnessId} (${label})`,
          success: profile.successRate,
        })),
      ),
    );
  });
  if (drift.length === 0) return [];
  return [
    {
      name: "profile-drift",
      title: "Profile drift: success of each harness on the probe set as the policy trains",
      spec: {
        ...size,
        data: { values: drift },
        mark: { type: "line", point: true },
        encoding: {
          x: { field: "step", type: "quantitative", title: "training step of re-anchoring" },
          y: { field: "success", type: "quantitative", title: "probe success" },
          color: { field: "harness", type: "nominal" },
          detail: { field: "run", type: "nominal" },
        },
      },
    },
  ];
}

/** The charts the data of these experiments supports (a chart without data is left out). */
export function buildCharts(experiments: readonly Experiment[]): ChartSpec[] {
  return [
    ...trainingCharts(experiments),
    ...heldoutChart(experiments),
    ...rescueMatrixChart(experiments),
    ...complementarityChart(experiments),
    ...profileDriftChart(experiments),
  ];
}

/**
 * Cells of `evolution.rescueMatrix` (sibling -> mode -> {attempts, rescued}). Where the matrix has the
 * re-roll control's row, each sibling's label puts the control's rescues of that mode beside its own.
 */
export function rescueMatrixCells(
  evolution: Record<string, unknown> | null,
): { sibling: string; mode: string; rate: number; label: string }[] {
  const matrix = evolution?.rescueMatrix;
  if (matrix === null || typeof matrix !== "object") return [];
  const rows = matrix as Record<string, Record<string, { attempts?: number; rescued?: number }>>;
  const control = rows[rerollControlId];
  return Object.entries(rows).flatMap(([sibling, modes]) =>
    Object.entries(modes ?? {})
      .filter(([, cell]) => (cell?.attempts ?? 0) > 0)
      .map(([mode, cell]) => {
        const rate = (cell.rescued ?? 0) / (cell.attempts ?? 1);
        const own = `${cell.rescued ?? 0}/${cell.attempts}`;
        const versus = control?.[mode];
        const label =
          sibling === rerollControlId || versus === undefined ? own : `${own} vs ${versus.rescued ?? 0}`;
        return { sibling, mode, rate, label };
      }),
  );
}

/** Bars of `evolution.complementarity`: tasks rescued by the best single sibling, by the union, and failed at base. */
export function complementarityBars(
  evolution: Record<string, unknown> | null,
): { name: string; rescued: number; kind: string }[] {
  const complementarity = evolution?.complementarity as
    | { unionTasks?: number; bestSingle?: { harnessId: string | null; tasks: number }; failedTasks?: number }
    | undefined;
  if (complementarity?.unionTasks === undefined || complementarity.bestSingle === undefined) return [];
  return [
    {
      name: `best single sibling (${complementarity.bestSingle.harnessId ?? "none"})`,
      rescued: complementarity.bestSingle.tasks,
      kind: "one sibling",
    },
    { name: "union of all siblings", rescued: complementarity.unionTasks, kind: "union" },
    { name: "base-failed tasks", rescued: complementarity.failedTasks ?? 0, kind: "failed at base" },
  ];
}
