import type { Row, TableName, WorldDatabase } from "../database.js";
import { rowsOf } from "../database.js";
import type { Random } from "../random.js";
import { pythonKeywords } from "./python-literal.js";
import { type Actor, type ScenarioDefinition, type ScenarioTask, solutionPrelude } from "./scenario.js";

/** The supervisor's email. */
export function supervisorEmail(database: WorldDatabase): string {
  return database.people[0]?.email ?? "";
}

/** Rows of a table the supervisor owns. */
export function ownRows(database: WorldDatabase, table: TableName): Row[] {
  return rowsOf(database, table).filter((row) => row.owner === supervisorEmail(database));
}

/** What a generic family needs from one variant. */
export interface VariantSetup<Value> {
  /** The variant's value (a tag, a project, a person...). */
  value: Value;
  /** Python keyword arguments for the list API beyond the token (source text, e.g. `tags="work"`). */
  listArguments?: string;
}

/** A selection of the supervisor's items: which list API, which rows, which Python filter. */
export interface Selection<Value> {
  /** App. */
  app: string;
  /** List API (paged). */
  listApi: string;
  /** Table the list reads. */
  table: TableName;
  /** Prepares the variant: picks and plants its value. */
  setup(database: WorldDatabase, variant: 1 | 2 | 3, random: Random): VariantSetup<Value>;
  /** The rows the task is about, in table order. */
  select(database: WorldDatabase, value: Value): Row[];
  /** Python expression on `item` (one listed item) that is true for the selected rows. */
  pythonFilter(value: Value): string;
  /** Python statements run after login and before listing (e.g. finding a project's id). */
  pythonPrepare?(value: Value): string;
}

function listCode<Value>(selection: Selection<Value>, setup: VariantSetup<Value>): string {
  const extra = setup.listArguments === undefined ? "" : `, ${setup.listArguments}`;
  return `token = login(${JSON.stringify(selection.app)})
${selection.pythonPrepare?.(setup.value) ?? ""}items = [item for item in every_page(apis.${selection.app}.${selection.listApi}, access_token=token${extra}) if ${selection.pythonFilter(setup.value)}]
`;
}

/** A question answered by counting the selected items (difficulty 1). */
export function countScenario<Value>(
  id: string,
  selection: Selection<Value>,
  instruction: (value: Value) => string,
): ScenarioDefinition {
  return {
    id,
    difficulty: 1,
    apps: [selection.app],
    build(database, variant, random): ScenarioTask {
      const setup = selection.setup(database, variant, random);
      return {
        instruction: instruction(setup.value),
        solution: `${solutionPrelude}${listCode(selection, setup)}apis.supervisor.complete_task(answer=len(items))\n`,
        effect: () => {},
        answer: selection.select(database, setup.value).length,
      };
    },
  };
}

/** A question answered by the sum of a numeric field of the selected items (difficulty 1). */
export function sumScenario<Value>(
  id: string,
  selection: Selection<Value>,
  field: string,
  instruction: (value: Value) => string,
): ScenarioDefinition {
  return {
    id,
    difficulty: 1,
    apps: [selection.app],
    build(database, variant, random): ScenarioTask {
      const setup = selection.setup(database, variant, random);
      const total = selection.select(database, setup.value).reduce((sum, row) => sum + Number(row[field]), 0);
      return {
        instruction: instruction(setup.value),
        solution: `${solutionPrelude}${listCode(selection, setup)}apis.supervisor.complete_task(answer=round(sum(item[${JSON.stringify(field)}] for item in items), 2))\n`,
        effect: () => {},
        answer: Math.round(total * 100) / 100,
      };
    },
  };
}

/** A question answered by a field of the one selected item (difficulty 1). */
export function lookupScenario<Value>(
  id: string,
  selection: Selection<Value>,
  field: string,
  instruction: (value: Value) => string,
): ScenarioDefinition {
  return {
    id,
    difficulty: 1,
    apps: [selection.app],
    build(database, variant, random): ScenarioTask {
      const setup = selection.setup(database, variant, random);
      const rows = selection.select(database, setup.value);
      if (rows.length !== 1)
        throw new Error(`${id} variant ${variant}: the lookup selects ${rows.length} rows, not 1`);
      return {
        instruction: instruction(setup.value),
        solution: `${solutionPrelude}${listCode(selection, setup)}apis.supervisor.complete_task(answer=items[0][${JSON.stringify(field)}])\n`,
        effect: () => {},
        answer: (rows[0] as Row)[field] as string | number,
      };
    },
  };
}

/** One API call made for every selected item. */
export interface PerItemAction<Value> {
  /** API called. */
  api: string;
  /** Its arguments for a row (beyond the token). */
  arguments(row: Row, value: Value): Record<string, unknown>;
  /** The same as Python keyword source on `item`. */
  pythonArguments(value: Value): string;
}

/** A change applied to every selected item (difficulty 2). */
export function forEachScenario<Value>(
  id: string,
  selection: Selection<Value>,
  action: PerItemAction<Value>,
  instruction: (value: Value) => string,
): ScenarioDefinition {
  return {
    id,
    difficulty: 2,
    apps: [selection.app],
    build(database, variant, random): ScenarioTask {
      const setup = selection.setup(database, variant, random);
      const call = `apis.${selection.app}.${action.api}(access_token=token, ${action.pythonArguments(setup.value)})`;
      return {
        instruction: instruction(setup.value),
        solution: `${solutionPrelude}${listCode(selection, setup)}for item in items:\n    ${call}\napis.supervisor.complete_task()\n`,
        effect: (act: Actor, start) => {
          for (const row of selection.select(start, setup.value))
            act(selection.app, action.api, action.arguments(row, setup.value));
        },
        answer: null,
      };
    },
  };
}

/** One call with fixed arguments, found from the instruction (difficulty 2). */
export function singleCallScenario<Value>(
  id: string,
  app: string,
  api: string,
  setup: (
    database: WorldDatabase,
    variant: 1 | 2 | 3,
    random: Random,
  ) => { value: Value; arguments: Record<string, unknown>; lookup?: string; pythonArguments?: string },
  instruction: (value: Value) => string,
): ScenarioDefinition {
  return {
    id,
    difficulty: 2,
    apps: [app],
    build(database, variant, random): ScenarioTask {
      const prepared = setup(database, variant, random);
      return {
        instruction: instruction(prepared.value),
        solution: `${solutionPrelude}token = login(${JSON.stringify(app)})\n${prepared.lookup ?? ""}apis.${app}.${api}(access_token=token, ${prepared.pythonArguments ?? pythonKeywords(prepared.arguments)})\napis.supervisor.complete_task()\n`,
        effect: (act: Actor) => {
          act(app, api, prepared.arguments);
        },
        answer: null,
      };
    },
  };
}
