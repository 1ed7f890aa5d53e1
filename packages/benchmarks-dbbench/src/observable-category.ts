import type { Task } from "@hs/spec";

/**
 * What the instruction says of the kind of task, in the words a reader (the agent) sees. The dataset's
 * `type` is never shown to an AgentBench agent (THUDM/AgentBench@v0.2 src/server/tasks/dbbench/
 * __init__.py builds the prompt from `description`, `add_description` and the table alone), so routers
 * and Rank-1 read this instead of `task.category`.
 */
const insertWords =
  /\b(insert\w*|add|added|adding|record|recorded|register\w*|enter|entered|new (entry|record|row))\b/i;
const updateWords = /\b(update\w*|change\w*|modif\w*|correct\w*|alter\w*|replace\w*|revise\w*)\b|\bset\b/i;
const questionStart =
  /^(what|which|who|whom|whose|how|when|where|why|is|are|was|were|did|does|do|can|name|list|tell|give|find|show|count|add up|in which|for which|on which|at which|of the)\b/i;

/** Query categories in the order they are tried: the first whose pattern matches wins. */
const queryCues: [string, RegExp][] = [
  ["aggregation-AVG", /\b(average|mean)\b/i],
  ["counting", /\bhow many\b|\bnumber of\b(?!.*\btotal\b)|\bcount\b/i],
  ["aggregation-SUM", /\b(total|sum|add up|combined|altogether|in all)\b/i],
  [
    "comparison",
    /\b(less|more|greater|fewer|larger|smaller|higher|lower) than\b|\bat (least|most)\b|\b(over|under|above|below)\b/i,
  ],
  [
    "ranking",
    /\b(who|which)\b.*\b(highest|lowest|most|least|best|worst|fastest|slowest|first|last|top|earlier|later|longest|shortest)\b|\b(rank\w*)\b|\bor\b.*\?/i,
  ],
  ["aggregation-MAX", /\b(highest|most|maximum|largest|greatest|biggest|latest|newest|max|longest|best)\b/i],
  ["aggregation-MIN", /\b(lowest|least|minimum|smallest|fewest|earliest|oldest|min|first|shortest|worst)\b/i],
];

/** Whether the text reads as a question (a `?` at the end or a question word first). */
function readsAsQuestion(text: string): boolean {
  return /\?\s*$/.test(text) || questionStart.test(text.trim());
}

/**
 * The task's category as the instruction shows it: INSERT or UPDATE when it asks for a change (a
 * statement that asks nothing records a row, as AgentBench's INSERT descriptions often read), otherwise
 * the query type its wording suggests (`average` for AVG, `how many` for counting, a comparison, a
 * superlative about who or which for ranking, a bare superlative for MAX or MIN), `other` when none.
 */
export function observableCategory(task: Task): string {
  const description =
    typeof task.metadata.description === "string" ? task.metadata.description : task.instruction;
  const text = description.trim();
  const asks = questionStart.test(text);
  if (/\binsert\w*\b/i.test(text)) return "INSERT";
  if (updateWords.test(text) && !asks) return "UPDATE";
  if (!readsAsQuestion(text) || (insertWords.test(text) && !asks)) return "INSERT";
  for (const [category, pattern] of queryCues) if (pattern.test(text)) return category;
  return "other";
}
