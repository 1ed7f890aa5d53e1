import type { WorldDatabase } from "./database.js";

/** Parameter types, written as AppWorld's docs write them. */
export type ParameterType =
  | "string"
  | "integer"
  | "number"
  | "boolean"
  | "list[string]"
  | "list[integer]"
  | "string | number";

/** One declared parameter of an API. */
export interface ParameterDefinition {
  /** Name. */
  name: string;
  /** Type. */
  type: ParameterType;
  /** What it is. */
  description: string;
  /** Whether it must be given (default false). */
  required?: boolean;
  /** Value when not given. */
  default?: unknown;
  /** Smallest allowed number. */
  minimum?: number;
  /** Largest allowed number. */
  maximum?: number;
  /** Allowed values of a string. */
  choices?: readonly string[];
  /** Whether an empty string is refused. */
  nonEmpty?: boolean;
}

/** What a handler gets. */
export interface ApiCallContext {
  /** The world's state. */
  database: WorldDatabase;
  /** Validated arguments, defaults filled in. */
  arguments: Record<string, unknown>;
  /** Email of the logged-in user (for APIs that take an access token). */
  user: string;
  /** The world's session state (tokens, completion). */
  session: WorldSession;
}

/** State of one world beside its tables. */
export interface WorldSession {
  /** Access token -> app and user. */
  tokens: Map<string, { app: string; email: string }>;
  /** Tokens issued so far (for deterministic token text). */
  tokensIssued: number;
  /** Whether `supervisor.complete_task` was called. */
  completed: boolean;
  /** The answer given to `complete_task` (null when none). */
  answer: unknown;
  /** API calls made, for the episode's log. */
  apiCalls: number;
}

/** A declared API of an app: its doc and its behaviour. */
export interface ApiDefinition {
  /** App name. */
  app: string;
  /** API name. */
  name: string;
  /** HTTP method of the documented path. */
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Documented path. */
  path: string;
  /** What it does. */
  description: string;
  /** Parameters, `access_token` excluded (added when `auth`). */
  parameters: ParameterDefinition[];
  /** Whether the API needs an access token of its app. */
  auth: boolean;
  /** Shape of a successful reply, for the doc. */
  response: unknown;
  /** Runs the API; throws `ApiFailure` for a client error. */
  handle(context: ApiCallContext): unknown;
}

/** An API refused a call (the status and message the agent sees). */
export class ApiFailure extends Error {
  /** HTTP-like status: 401, 404, 409, 422... */
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

/** The two paging parameters of every list API (AppWorld: page_index from 0, page_limit 5 up to 20). */
export const pageParameters: ParameterDefinition[] = [
  {
    name: "page_index",
    type: "integer",
    description: "The index of the page to return.",
    default: 0,
    minimum: 0,
  },
  {
    name: "page_limit",
    type: "integer",
    description: "The maximum number of results per page.",
    default: 5,
    minimum: 1,
    maximum: 20,
  },
];

/** One page of a list. */
export function pageOf<Item>(items: readonly Item[], parameters: Record<string, unknown>): Item[] {
  const index = Number(parameters.page_index ?? 0);
  const limit = Number(parameters.page_limit ?? 5);
  return items.slice(index * limit, index * limit + limit);
}

/** Declared constraints in words, as the api docs show them. */
export function constraintsOf(parameter: ParameterDefinition): string[] {
  const constraints: string[] = [];
  if (parameter.minimum !== undefined) constraints.push(`value >= ${parameter.minimum}`);
  if (parameter.maximum !== undefined) constraints.push(`value <= ${parameter.maximum}`);
  if (parameter.choices !== undefined)
    constraints.push(`value in [${parameter.choices.map((choice) => `'${choice}'`).join(", ")}]`);
  if (parameter.nonEmpty === true) constraints.push("length >= 1");
  return constraints;
}
