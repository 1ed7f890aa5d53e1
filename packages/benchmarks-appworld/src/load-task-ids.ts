import { InvalidInputError } from "@hs/harness";

/** One task id of a dataset file, with its line. */
export interface TaskIdLine {
  /** Task id. */
  taskId: string;
  /** 1-based line. */
  line: number;
}

const taskIdPattern = /^[A-Za-z0-9]+_[0-9]+$/;

/**
 * Reads a dataset file as AppWorld writes them (data/datasets/<split>.txt: one task id per line; see
 * `load_task_ids` in ace-agent/ace-appworld src/appworld/task.py). Blank lines and `#` comments are
 * skipped; a malformed id is a problem naming file and line, and the rest still load.
 */
export function parseTaskIds(
  text: string,
  file: string,
): { ids: TaskIdLine[]; problems: InvalidInputError[] } {
  const ids: TaskIdLine[] = [];
  const problems: InvalidInputError[] = [];
  const seen = new Set<string>();
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const taskId = raw.trim();
    if (taskId === "" || taskId.startsWith("#")) continue;
    const line = index + 1;
    if (!taskIdPattern.test(taskId)) {
      problems.push(
        new InvalidInputError(`expected a task id "<scenario>_<n>", got "${taskId}"`, {
          file,
          line,
          field: "task_id",
        }),
      );
    } else if (seen.has(taskId)) {
      problems.push(
        new InvalidInputError(`task id "${taskId}" is listed twice`, { file, line, field: "task_id" }),
      );
    } else {
      seen.add(taskId);
      ids.push({ taskId, line });
    }
  }
  return { ids, problems };
}
