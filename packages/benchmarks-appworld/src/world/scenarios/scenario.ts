import type { WorldDatabase } from "../database.js";
import type { Random } from "../random.js";

/** Calls an API of the world as the supervisor (no token needed); throws when the API refuses. */
export type Actor = (app: string, api: string, args?: Record<string, unknown>) => unknown;

/** One task of a scenario, built on its seeded database. */
export interface ScenarioTask {
  /** The instruction shown to the agent. */
  instruction: string;
  /** The reference solution: Python run in the task's shell. */
  solution: string;
  /** The intended changes, applied through the APIs to a copy of the start state (the checks' target). */
  effect: (act: Actor, database: WorldDatabase) => void;
  /** The expected answer for a question, null when the task asks none. */
  answer: string | number | null;
}

/** A scenario: three tasks `<id>_1..3` of one intent with different values and worlds. */
export interface ScenarioDefinition {
  /** Scenario id: lowercase letters and digits (no underscore: task ids have exactly one). */
  id: string;
  /** Difficulty 1 (one app, a question) to 3 (several apps, several changes). */
  difficulty: 1 | 2 | 3;
  /** Apps the scenario needs. */
  apps: readonly string[];
  /**
   * Builds variant 1, 2 or 3 on the seeded database: may add rows (the task's starting state) and
   * returns the task. Must leave at least one row the task must not touch.
   */
  build(database: WorldDatabase, variant: 1 | 2 | 3, random: Random): ScenarioTask;
}

/** Python every reference solution starts with: the user's passwords, a login and a pager. */
export const solutionPrelude = `me = apis.supervisor.show_profile()
passwords = {account['account_name']: account['password'] for account in apis.supervisor.show_account_passwords()}
def login(app):
    return getattr(apis, app).login(username=me['email'], password=passwords[app])['access_token']
def every_page(api, **arguments):
    items, page = [], 0
    while True:
        batch = api(page_index=page, page_limit=20, **arguments)
        if not batch:
            return items
        items.extend(batch)
        page += 1
`;
