import { harnessHash, observedTrajectory, shuffle } from "@hs/harness";
import type { FixDirection, HarnessConfig, Trajectory } from "@hs/spec";
import { type Candidate, scoreOf } from "./candidate-admission.js";
import type { EvolutionRun } from "./evolution-run.js";
import type { CandidateRecord, EvolutionReport } from "./evolve.js";
import { applyOperator, editNameOf, everySingleEdit, type MutationOperator, pick } from "./operators.js";

/** A parent of the next generation: its config and where it came from. */
interface Parent {
  config: HarnessConfig;
  id: string;
  lineage: string[];
  edits: string[];
}

/** A config grown from a parent, with the edit that made it. */
interface Child {
  config: HarnessConfig;
  parent: Parent;
  edit: string;
}

/** What one direction's search works on. */
interface DirectionSearch {
  direction: FixDirection;
  failures: readonly Trajectory[];
  operators: readonly MutationOperator[];
  /** Hashes of every config tried so far (the base included): a config is validated once. */
  seen: Set<string>;
}

/** Up to `perParent` new configs from the direction's operators (three tries each). */
function operatorChildren(run: EvolutionRun, search: DirectionSearch, parent: Parent): Child[] {
  const { random, library, toolNames } = run;
  const { perParent } = run.search;
  const children: Child[] = [];
  for (let attempt = 0; attempt < perParent * 3 && children.length < perParent; attempt++) {
    const operator = pick(search.operators, random);
    if (operator === undefined) break;
    const config = applyOperator(operator, parent.config, { random, library, toolNames });
    if (config === null) continue;
    const hash = harnessHash(config);
    if (search.seen.has(hash)) continue;
    search.seen.add(hash);
    children.push({
      config,
      parent,
      edit: editNameOf(operator, parent.config, config, { library, toolNames }),
    });
  }
  return children;
}

/**
 * The first generation's operator children when it tries every entry: every distinct single edit of
 * the base (every operator of the direction with every option that applies, in a fixed order); when
 * there are more than the cap, a seeded sample of that many, kept in that order.
 */
function everyEntryChildren(run: EvolutionRun, search: DirectionSearch, parent: Parent): Child[] {
  const { random, library, toolNames } = run;
  const edits = everySingleEdit(search.operators, parent.config, { random, library, toolNames }).filter(
    (entry) => !search.seen.has(harnessHash(entry.config)),
  );
  const { firstGenerationCap } = run.search;
  const kept =
    edits.length <= firstGenerationCap
      ? edits
      : shuffle(
          edits.map((_, index) => index),
          random,
        )
          .slice(0, firstGenerationCap)
          .sort((a, b) => a - b)
          .map((index) => edits[index] as (typeof edits)[number]);
  if (kept.length < edits.length) {
    run.progress(`${search.direction}: ${edits.length} single edits, a seeded ${kept.length} of them tried`);
  }
  for (const entry of kept) search.seen.add(harnessHash(entry.config));
  return kept.map((entry) => ({ config: entry.config, parent, edit: entry.edit }));
}

/** The proposer's config for a parent, logged whether accepted or not; null when there is none new. */
async function proposedChild(
  run: EvolutionRun,
  search: DirectionSearch,
  parent: Parent,
): Promise<Child | null> {
  const { options, random } = run;
  const proposer = options.proposer;
  if (proposer === undefined) return null;
  const { direction } = search;
  const proposal = await proposer.propose({
    direction,
    config: parent.config,
    failures: search.failures.map((failure) =>
      observedTrajectory(options.benchmark, failure, run.taskOf(failure)),
    ),
    seed: Math.floor(random() * 2 ** 31),
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  run.proposals.push({
    proposerId: proposer.id,
    direction,
    accepted: proposal.accepted,
    detail: proposal.accepted ? proposal.rationale : proposal.reason,
  });
  if (!proposal.accepted || search.seen.has(harnessHash(proposal.config))) return null;
  search.seen.add(harnessHash(proposal.config));
  return { config: proposal.config, parent, edit: proposer.id };
}

function ranked(candidates: readonly Candidate[]): Candidate[] {
  return [...candidates].sort(
    (a, b) => b.record.score - a.record.score || a.record.id.localeCompare(b.record.id),
  );
}

/** A candidate's validation in a progress line: rescues against the re-roll control, and regressions. */
function validationLine(validation: CandidateRecord["validation"]): string {
  const control =
    validation.control === undefined
      ? ""
      : `, control ${validation.control.controlRescued} (p ${validation.control.pValue.toFixed(3)})`;
  return `rescued ${validation.rescued}/${validation.failuresTried}${control}, regressions ${validation.regressions}/${validation.successesTried}`;
}

/** Validates each child as a candidate of this generation. */
async function validateChildren(
  run: EvolutionRun,
  search: DirectionSearch,
  children: readonly Child[],
  generation: number,
  firstNumber: number,
): Promise<Candidate[]> {
  const candidates: Candidate[] = [];
  for (const [offset, child] of children.entries()) {
    const id = `${search.direction}-g${generation}-c${firstNumber + offset}`;
    const config = { ...child.config, id };
    const validation = await run.validate(config, search.failures);
    const record: CandidateRecord = {
      id,
      generation,
      parent: child.parent.id,
      lineage: [...child.parent.lineage, child.parent.id],
      edits: [...child.parent.edits, child.edit],
      hash: harnessHash(config),
      validation,
      score: scoreOf(validation),
    };
    candidates.push({ config, record });
    run.progress(
      `${search.direction}: candidate ${offset + 1}/${children.length} (${child.edit}): ${validationLine(validation)}`,
    );
  }
  return candidates;
}

/**
 * Grows and validates candidates of one direction over the generations, keeping the best `beamWidth`
 * as the next parents; records every candidate on the entry and returns the best, if any was made.
 */
export async function searchDirection(
  run: EvolutionRun,
  direction: FixDirection,
  failures: readonly Trajectory[],
  entry: EvolutionReport["directions"][number],
): Promise<Candidate | undefined> {
  const { options } = run;
  const { generations, beamWidth } = run.search;
  const search: DirectionSearch = {
    direction,
    failures,
    operators: run.operators.filter((operator) => operator.direction === direction),
    seen: new Set([harnessHash(options.base)]),
  };
  const all: Candidate[] = [];
  let parents: Parent[] = [{ config: options.base, id: options.base.id, lineage: [], edits: [] }];
  for (let generation = 1; generation <= generations; generation++) {
    const children: Child[] = [];
    const everyEntry = generation === 1 && run.search.firstGeneration === "every-entry";
    for (const parent of parents) {
      children.push(
        ...(everyEntry ? everyEntryChildren(run, search, parent) : operatorChildren(run, search, parent)),
      );
      const proposed = await proposedChild(run, search, parent);
      if (proposed !== null) children.push(proposed);
    }
    if (children.length === 0) break;
    const candidates = await validateChildren(run, search, children, generation, all.length);
    all.push(...candidates);
    entry.candidates.push(...candidates.map((candidate) => candidate.record));
    const best = ranked(all);
    parents = best.slice(0, beamWidth).map(({ config, record }) => ({
      config,
      id: record.id,
      lineage: record.lineage,
      edits: record.edits,
    }));
    run.progress(
      `${direction}: generation ${generation}: ${children.length} candidates, best score ${best[0]?.record.score ?? "-"}`,
    );
  }
  return ranked(all)[0];
}
