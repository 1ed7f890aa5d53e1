import { readFile } from "node:fs/promises";
import type { FailureConventions } from "@hs/spec";
import { InvalidInputError, type ObservedTrajectory, trajectorySchema } from "@hs/spec";
import { z } from "zod";
import { classifyFailure, type FailureClassifierV1 } from "./failure-classifier.js";
import { createRuleClassifier } from "./rule-classifier.js";

/** A failed trajectory excerpt as the fixtures hold it: no grading details, no dataset category. */
const excerptSchema = z.strictObject({
  /** Fixture id (`taskId@seed`). */
  id: z.string().min(1),
  /** The trajectory as the policy saw it. */
  trajectory: trajectorySchema.omit({ gradeDetails: true, category: true }).strict(),
});

/** One hand label: the primary mode of a failure, by the rules of the fixture's LABELLING.md. */
const handLabelSchema = z.strictObject({
  /** Fixture id of the labelled excerpt. */
  id: z.string().min(1),
  /** The primary failure mode. */
  mode: z.string().min(1),
  /** Why, in a few words. */
  note: z.string(),
});

/** A hand-labelled failure. */
export interface LabelledFailure {
  /** Fixture id. */
  id: string;
  /** The hand label's primary mode. */
  mode: string;
  /** The excerpt the classifier reads. */
  trajectory: ObservedTrajectory;
}

async function readRows<T>(file: URL | string, schema: z.ZodType<T>): Promise<T[]> {
  const lines = (await readFile(file, "utf8")).split("\n");
  const rows: T[] = [];
  for (const [index, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const parsed = schema.safeParse(JSON.parse(line));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InvalidInputError(`${String(file)}:${index + 1}: ${issue?.message ?? "invalid row"}`, {
        field: issue?.path.map(String).join(".") ?? "",
      });
    }
    rows.push(parsed.data);
  }
  return rows;
}

/** Reads excerpts and their hand labels (JSON lines); every excerpt must have exactly one label. */
export async function readLabelledFailures(
  excerpts: URL | string,
  labels: URL | string,
): Promise<LabelledFailure[]> {
  const rows = await readRows(excerpts, excerptSchema);
  const hand = new Map((await readRows(labels, handLabelSchema)).map((label) => [label.id, label.mode]));
  if (hand.size !== rows.length)
    throw new InvalidInputError(`${String(labels)}: ${hand.size} labels for ${rows.length} excerpts`, {
      field: "id",
    });
  return rows.map((row) => {
    const mode = hand.get(row.id);
    if (mode === undefined)
      throw new InvalidInputError(`${String(labels)}: no label for ${row.id}`, { field: "id" });
    return { id: row.id, mode, trajectory: row.trajectory as ObservedTrajectory };
  });
}

/** One mode's counts in an agreement report. */
export interface ModeShare {
  /** Mode name. */
  mode: string;
  /** Failures hand-labelled with it (primary). */
  hand: number;
  /** Their share of the failures. */
  handShare: number;
  /** Failures whose classifier primary label is it. */
  classifier: number;
  /** Their share of the failures. */
  classifierShare: number;
}

/** How far a classifier's primary labels agree with hand labels. */
export interface AgreementReport {
  /** Failures compared. */
  total: number;
  /** Failures whose classifier primary mode equals the hand label. */
  agreed: number;
  /** `agreed / total`. */
  agreement: number;
  /** Every mode seen by hand or by the classifier, most frequent (by hand) first. */
  modes: ModeShare[];
  /** Modes whose classifier share is at least 5%. */
  modesOverFivePercent: number;
  /** The failures where they differ. */
  disagreements: { id: string; hand: string; classifier: string }[];
}

/** Share of failures from which a mode counts as covering them (5%). */
export const coverageThreshold = 0.05;

/**
 * Classifies each labelled failure (through `classifyFailure`, so classifiers get the observed
 * trajectory only) and compares the first label with the hand label.
 */
export async function measureAgreement(
  failures: readonly LabelledFailure[],
  conventions: FailureConventions,
  classifiers: readonly FailureClassifierV1[] = [createRuleClassifier(conventions)],
): Promise<AgreementReport> {
  const hand = new Map<string, number>();
  const found = new Map<string, number>();
  const disagreements: AgreementReport["disagreements"] = [];
  for (const failure of failures) {
    const labels = await classifyFailure(failure.trajectory, classifiers);
    const primary = labels[0]?.mode ?? "(none)";
    hand.set(failure.mode, (hand.get(failure.mode) ?? 0) + 1);
    found.set(primary, (found.get(primary) ?? 0) + 1);
    if (primary !== failure.mode)
      disagreements.push({ id: failure.id, hand: failure.mode, classifier: primary });
  }
  const total = failures.length;
  const share = (count: number) => (total === 0 ? 0 : count / total);
  const modes = [...new Set([...hand.keys(), ...found.keys()])]
    .map((mode) => {
      const handCount = hand.get(mode) ?? 0;
      const classifierCount = found.get(mode) ?? 0;
      return {
        mode,
        hand: handCount,
        handShare: share(handCount),
        classifier: classifierCount,
        classifierShare: share(classifierCount),
      };
    })
    .sort((a, b) => b.hand - a.hand || b.classifier - a.classifier || a.mode.localeCompare(b.mode));
  const agreed = total - disagreements.length;
  return {
    total,
    agreed,
    agreement: share(agreed),
    modes,
    modesOverFivePercent: modes.filter((row) => row.classifierShare >= coverageThreshold).length,
    disagreements,
  };
}
