import { InvalidInputError, type Task } from "@hs/spec";
import type { z } from "zod";
import { statementTerms } from "../statement/statement-terms.js";
import { type SweInstance, sweInstanceSchema } from "./swe-instance.js";

/** An instance and the task the policy sees for it. */
export interface LoadedInstance {
  /** The task (problem statement and public metadata only). */
  task: Task;
  /** The full instance, for the grader. */
  instance: SweInstance;
}

/** Instances that loaded and one error per bad line. */
export interface ParsedInstances {
  /** Instances in file order. */
  instances: LoadedInstance[];
  /** One error per bad line, naming file, line and field. */
  problems: InvalidInputError[];
}

function firstIssue(error: z.ZodError): { field: string; message: string } {
  const issue = error.issues[0];
  if (issue === undefined) return { field: "", message: "invalid" };
  return { field: issue.path.map(String).join("."), message: issue.message };
}

/**
 * The task for an instance: the problem statement is the instruction; metadata holds only what the
 * agent would see in the repository anyway (repo, version, creation date), the hints text, which a
 * preset shows only when it asks for `{metadata.hints_text}`, and `statementCalls`: the calls the
 * problem statement writes (`statementTerms`, read from the statement's text alone), which harness calls
 * run as `{metadata.statementCalls}` (a JSON list, also a Python list literal).
 */
export function instanceToTask(instance: SweInstance, split: string): Task {
  return {
    id: `swegym/${split}/${instance.instance_id}`,
    benchmark: "swegym",
    split,
    category: instance.repo,
    instruction: instance.problem_statement,
    metadata: {
      instanceId: instance.instance_id,
      repo: instance.repo,
      version: instance.version,
      createdAt: instance.created_at,
      hints_text: instance.hints_text,
      statementCalls: statementTerms(instance.problem_statement).expressions,
    },
  };
}

/**
 * Why an instance that parsed cannot be graded fairly, or undefined: with no FAIL_TO_PASS test
 * SWE-bench's f2p share is 1, so the empty patch (any empty answer) resolves it.
 */
function ungradableProblem(instance: SweInstance): { field: string; message: string } | undefined {
  if (instance.FAIL_TO_PASS.length > 0) return undefined;
  return {
    field: "FAIL_TO_PASS",
    message:
      "expected at least one test that fails before the fix; with none the empty patch resolves the instance (f2p counts as 1), so any empty answer would pass",
  };
}

/**
 * Parses SWE-bench / SWE-Gym JSONL: one instance per non-empty line (a UTF-8 byte order mark at the
 * start is not part of the first line). A bad line becomes an `InvalidInputError` with file, line
 * and field; the other lines still load. A repeated instance id is an error on the later line; an
 * instance with an empty FAIL_TO_PASS is refused.
 */
export function parseInstances(text: string, file: string, split: string): ParsedInstances {
  const instances: LoadedInstance[] = [];
  const problems: InvalidInputError[] = [];
  const seen = new Set<string>();
  const lines = (text.startsWith("\uFEFF") ? text.slice(1) : text).split("\n");
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    if (raw.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      problems.push(new InvalidInputError(`not JSON: ${(error as Error).message}`, { file, line }));
      continue;
    }
    const parsed = sweInstanceSchema.safeParse(value);
    if (!parsed.success) {
      const { field, message } = firstIssue(parsed.error);
      problems.push(new InvalidInputError(`expected ${message}`, { file, line, field }));
      continue;
    }
    const ungradable = ungradableProblem(parsed.data);
    if (ungradable !== undefined) {
      problems.push(new InvalidInputError(ungradable.message, { file, line, field: ungradable.field }));
      continue;
    }
    if (seen.has(parsed.data.instance_id)) {
      problems.push(
        new InvalidInputError(`instance "${parsed.data.instance_id}" appears twice`, {
          file,
          line,
          field: "instance_id",
        }),
      );
      continue;
    }
    seen.add(parsed.data.instance_id);
    instances.push({ task: instanceToTask(parsed.data, split), instance: parsed.data });
  }
  return { instances, problems };
}
