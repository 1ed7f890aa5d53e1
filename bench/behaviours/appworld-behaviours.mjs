// The decisions the kept AppWorld siblings induce, as the embedded policy can make them itself under the
// base harness (packages/grammar-appworld/README.md, "Decisions"), read from the policy's own cells only:
// the code of its `execute` calls and the output it saw. Harness-made calls (preludes, follow-ups,
// checks) are not cells of the policy, and no grade, label or reference solution is read.
//
// Each detector answers null when the episode gives the decision no occasion (the denominator), else
// whether the policy made it. The follow-ups and the check they stand for are those of the AppWorld
// evolution library (packages/benchmarks-appworld/src/harness-call-directions.ts).

const appCallPattern = /apis\.(?!api_docs\b|supervisor\b)(\w+)\.(\w+)\(/g;
const filterPattern = /\[item for item in (\w+) if ([^\n]*?)\](?=\)|:|\[)/g;
const pageArgumentsPattern = /apis\.(\w+)\.(show_\w+)\(([^)]*)\)/;
const loopPattern = /^for item in \[item for item in (\w+) if ([^\n]*?)\]:/m;

/** The policy's own cells: code of each `execute` call it made and the output of that call. */
export function policyCells(trajectory) {
  return trajectory.steps.flatMap((step) =>
    (step.parsed ?? [])
      .filter((call) => call.name === "execute" && typeof call.arguments?.code === "string")
      .map((call) => {
        const output = step.executed?.find((entry) => entry.call?.id === call.id)?.result?.content ?? "";
        return { code: call.arguments.code, output, failed: /^Execution failed/.test(output) };
      }),
  );
}

/** The last app API the code calls (not the docs or the supervisor), as [app, api]. */
function lastAppCall(code) {
  const calls = [...code.matchAll(appCallPattern)];
  const last = calls.at(-1);
  return last === undefined ? null : [last[1], last[2]];
}

const isPasswords = (cell) => /show_account_passwords\(/.test(cell.code);
const isDoc = (cell) => /show_api_doc\(/.test(cell.code);
const isPage = (cell) => /\.extend\(/.test(cell.code);
const isComplete = (cell) => /apis\.supervisor\.complete_task\(/.test(cell.code);
const loopOf = (cell) => loopPattern.exec(cell.code);
const printedNothing = (cell) => /^\s*Execution successful\.\s*$/.test(cell.output);
const emptyPage = (cell) => /^\s*(0 items\s*)?\[\s*\]\s*$/.test(cell.output);

/** The arguments a list call passes besides the token and the page, or null when it calls no list API. */
function filterArguments(cell) {
  const call = pageArgumentsPattern.exec(cell.code);
  if (call === null) return null;
  const names = [...call[3].matchAll(/(\w+)=/g)].map((match) => match[1]);
  return {
    app: call[1],
    api: call[2],
    extra: names.filter((name) => !/^(access_token|page_index|page_limit)$/.test(name)),
  };
}

/** The first cell (index) matching, with the cells after it. */
function firstOccasion(cells, occasion) {
  const index = cells.findIndex(occasion);
  return index < 0 ? null : { cell: cells[index], after: cells.slice(index + 1) };
}

/** After a reply that wants a valid token of an app, the next cell (a passwords read aside) logs in to it. */
function loginAfterUnauthorized(cells) {
  const appOf = (cell) =>
    /needs an access_token from (\w+)\.login/.exec(cell.output)?.[1] ??
    (/Invalid or expired access token/.test(cell.output) ? lastAppCall(cell.code)?.[0] : undefined);
  const found = firstOccasion(cells, (cell) => cell.failed && appOf(cell) !== undefined);
  if (found === null) return null;
  const next = found.after.find((cell) => !isPasswords(cell));
  return next !== undefined && new RegExp(`apis\\.${appOf(found.cell)}\\.login\\(`).test(next.code);
}

/** After a call refused as a wrong API or argument (422, no such API), the next cell reads that API's doc. */
function docAfterRefusal(cells) {
  const found = firstOccasion(
    cells,
    (cell) =>
      cell.failed && /status code is 422|No API named/.test(cell.output) && lastAppCall(cell.code) !== null,
  );
  if (found === null) return null;
  const [app, api] = lastAppCall(found.cell.code);
  const next = found.after[0];
  return (
    next !== undefined && isDoc(next) && next.code.includes(`"${app}"`) && next.code.includes(`"${api}"`)
  );
}

/** After a list call with filter arguments came back empty, the next cell pages that API with the token alone. */
function unfilteredAfterEmpty(cells) {
  const found = firstOccasion(
    cells,
    (cell) => emptyPage(cell) && (filterArguments(cell)?.extra.length ?? 0) > 0,
  );
  if (found === null) return null;
  const { app, api } = filterArguments(found.cell);
  const next = found.after[0];
  const again = next === undefined ? null : filterArguments(next);
  return again !== null && isPage(next) && again.app === app && again.api === api && again.extra.length === 0;
}

/** After a call refused for a missing ENTITY_id, the next cell (a doc read aside) lists the entities or loops over them. */
function listAfterMissingId(cells) {
  const entityOf = (cell) => /Missing required parameter \W*([a-z_]+?)_id\b/.exec(cell.output)?.[1];
  const found = firstOccasion(cells, (cell) => cell.failed && entityOf(cell) !== undefined);
  if (found === null) return null;
  const entity = entityOf(found.cell);
  const next = found.after.find((cell) => !isDoc(cell));
  if (next === undefined) return false;
  const lists = isPage(next) && new RegExp(`\\.show_${entity}s\\(`).test(next.code);
  const loops = loopOf(next) !== null && new RegExp(`\\b${entity}_id=item\\[`).test(next.code);
  return lists || loops;
}

/** After a loop over a filtered list ran for no item, the next cell loops again with another filter or pages a list. */
function retryAfterEmptyLoop(cells) {
  const found = firstOccasion(cells, (cell) => loopOf(cell) !== null && printedNothing(cell));
  if (found === null) return null;
  const next = found.after[0];
  if (next === undefined) return false;
  const loop = loopOf(next);
  return isPage(next) || (loop !== null && loop[2] !== loopOf(found.cell)[2]);
}

/** Whether the filter of the last answer or loop kept an item, from what the policy's cell printed. */
function keptItems(cell) {
  // a loop whose API call was refused still ran for an item; any other failure is the filter's own
  if (loopOf(cell) !== null && !isComplete(cell))
    return !printedNothing(cell) && (!cell.failed || /Response status code/.test(cell.output));
  const printed = cell.output.split("\n")[0]?.trim() ?? "";
  return !cell.failed && !/^(0|0\.0|None|\[\]|)$/.test(printed);
}

/**
 * The filter check's counterpart: the last answer or loop over a filtered list before `complete_task`
 * (the one the check re-runs) kept items.
 */
function filterKeepsBeforeComplete(cells) {
  // the completion that ended the episode (a complete_task cell that failed did not)
  const complete = cells.findLastIndex(isComplete);
  if (complete < 0) return null;
  const filtered = cells
    .slice(0, complete + 1)
    .filter((cell) => [...cell.code.matchAll(filterPattern)].length > 0)
    .at(-1);
  if (filtered === undefined) return null;
  return keptItems(filtered);
}

/** The conditions of every filter the policy wrote, one list of field names per condition. */
function filterFields(cells) {
  return cells.flatMap((cell) =>
    [...cell.code.matchAll(filterPattern)].map((match) =>
      match[2]
        .split(/\s+and\s+/)
        .map((condition) => [...condition.matchAll(/item\["(\w+)"\]/g)].map((field) => field[1])),
    ),
  );
}

/** In filters of two or more conditions, no field carries two conditions. */
function oneConditionPerField(cells) {
  const filters = filterFields(cells).filter((conditions) => conditions.length >= 2);
  if (filters.length === 0) return null;
  return filters.every((conditions) => {
    const fields = conditions.flat();
    return new Set(fields).size === fields.length;
  });
}

/** The first paged list call passes the access token alone (filtering is left to Python). */
function pageTokenAlone(cells) {
  const page = cells.find((cell) => isPage(cell) && filterArguments(cell) !== null);
  if (page === undefined) return null;
  return filterArguments(page).extra.length === 0;
}

const detectors = {
  "login-after-unauthorized": loginAfterUnauthorized,
  "doc-after-refusal": docAfterRefusal,
  "unfiltered-after-empty": unfilteredAfterEmpty,
  "list-after-missing-id": listAfterMissingId,
  "retry-after-empty-loop": retryAfterEmptyLoop,
  "filter-keeps-before-complete": filterKeepsBeforeComplete,
  "one-condition-per-field": oneConditionPerField,
  "page-token-alone": pageTokenAlone,
};

/** Each behaviour's verdict on one trajectory: null (no occasion), true or false. */
function verdicts(trajectory) {
  const cells = policyCells(trajectory);
  return Object.fromEntries(Object.entries(detectors).map(([name, detect]) => [name, detect(cells)]));
}

/** The behaviours a follow-up induces, from the reply it answers and the note it shows. */
function followUpBehaviours(followUp) {
  const text = `${followUp.resultPattern} ${followUp.note}`;
  const rules = [
    ["login-after-unauthorized", /access_token from|Invalid or expired access token/],
    ["doc-after-refusal", /status code is 422|No API named/],
    ["unfiltered-after-empty", /gave no items|access token alone/],
    ["list-after-missing-id", /Missing required parameter/],
    ["retry-after-empty-loop", /printed nothing|ran for no item/],
  ];
  return rules.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);
}

/**
 * The behaviours a sibling's harness induces, read from its follow-ups, check calls and hints (none
 * when it induces none of these; a verification sibling's other checks hold complete_task too).
 */
function behavioursOf(sibling) {
  const { config } = sibling;
  const found = new Set((config.errorRecovery?.followUps ?? []).flatMap(followUpBehaviours));
  if (
    config.verification?.enabled &&
    JSON.stringify(config.verification.calls ?? {}).includes("harness check: your filter")
  ) {
    found.add("filter-keeps-before-complete");
    found.add("retry-after-empty-loop");
  }
  for (const hint of config.prompt?.hints ?? []) {
    if (/one condition per field/i.test(hint)) found.add("one-condition-per-field");
    if (/access token alone/i.test(hint)) found.add("page-token-alone");
  }
  if (found.size > 0 || sibling.direction !== "verification") return [...found];
  return ["filter-keeps-before-complete"];
}

/** AppWorld's behaviour set for bench/behaviour-frequency.mjs (held-out split: test). */
export const appworldBehaviours = { split: "test", names: Object.keys(detectors), verdicts, behavioursOf };
