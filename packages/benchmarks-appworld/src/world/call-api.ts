import { type ApiDefinition, ApiFailure, type WorldSession } from "./api-definition.js";
import { findApi } from "./apps/registry.js";
import type { WorldDatabase } from "./database.js";
import { validateArguments } from "./validate-arguments.js";

/** The outcome of one API call, as the agent's `apis` object receives it. */
export type ApiOutcome = { ok: true; response: unknown } | { ok: false; status: number; message: string };

function authenticate(api: ApiDefinition, session: WorldSession, given: Record<string, unknown>): string {
  const token = given.access_token;
  if (typeof token !== "string")
    throw new ApiFailure(401, `${api.app}.${api.name} needs an access_token from ${api.app}.login.`);
  const owner = session.tokens.get(token);
  if (owner === undefined || owner.app !== api.app)
    throw new ApiFailure(401, "Invalid or expired access token.");
  return owner.email;
}

/** Calls an API of the world: finds it, authenticates, validates arguments, runs its handler. */
export function callApi(
  database: WorldDatabase,
  session: WorldSession,
  app: string,
  name: string,
  given: Record<string, unknown>,
): ApiOutcome {
  session.apiCalls += 1;
  try {
    const api = findApi(app, name);
    let user = database.people[0]?.email ?? "";
    const { access_token: _token, ...rest } = given;
    if (api.auth) user = authenticate(api, session, given);
    const values = validateArguments(api.parameters, rest);
    return {
      ok: true,
      response: structuredClone(api.handle({ database, arguments: values, user, session })),
    };
  } catch (error) {
    if (error instanceof ApiFailure) return { ok: false, status: error.status, message: error.message };
    return {
      ok: false,
      status: 500,
      message: `Internal error: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** A fresh session: no tokens, not completed. */
export function newSession(): WorldSession {
  return { tokens: new Map(), tokensIssued: 0, completed: false, answer: null, apiCalls: 0 };
}

/**
 * Calls an API as the supervisor without a token (for building a task's expected state); throws when
 * the API refuses, since a reference effect that fails is a bug of the scenario.
 */
export function actAsSupervisor(database: WorldDatabase, session: WorldSession) {
  return (app: string, name: string, given: Record<string, unknown> = {}): unknown => {
    const api = findApi(app, name);
    const values = validateArguments(api.parameters, given);
    const user = database.people[0]?.email ?? "";
    return api.handle({ database, arguments: values, user, session });
  };
}
