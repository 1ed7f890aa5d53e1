import { InvalidInputError } from "@hs/spec";

/** One task id of a dataset file, with its line. */
export interface TaskIdLine {
  /** Task id. */
  taskId: string;
  /** 1-based line. */
  line: number;
  /** The `:tag` after the id, when the line had one (AppWorld's `task_id_to_tag`). */
  tag?: string;
}

const taskIdPattern = /^[A-Za-z0-9]+_[0-9]+$/;

/**
 * Reads a dataset file as AppWorld writes them (data/datasets/<split>.txt: one task id per line; see
 * `load_task_ids` in ace-agent/ace-appworld src/appworld/task.py:254-257). A `:tag` after an id is
 * stripped as `remove_tag` (task.py:298) does and kept as `tag`. Blank lines and `#` comments are
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
    const entry = raw.trim();
    if (entry === "" || entry.startsWith("#")) continue;
    const [taskId = "", ...tagParts] = entry.split(":");
    const tag = tagParts.length === 0 ? undefined : (tagParts[0] as string).trim();
    const line = index + 1;
    if (!taskIdPattern.test(taskId)) {
      problems.push(
        new InvalidInputError(`expected a task id "<scenario>_<n>" (optionally ":tag"), got "${entry}"`, {
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
      ids.push(tag === undefined ? { taskId, line } : { taskId, line, tag });
    }
  }
  return { ids, problems };
}
