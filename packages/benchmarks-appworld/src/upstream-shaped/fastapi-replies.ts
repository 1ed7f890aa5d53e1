import type { ServerResponse } from "node:http";

/**
 * How FastAPI answers, as `appworld serve environment` inherits it (ace-agent/ace-appworld
 * src/appworld/serve/environment.py): an `HTTPException` is its status with `{"detail": "..."}`
 * (environment.py:65-75, status 400), a body that fails validation is 422 with a `detail` list of
 * `{type, loc, msg, input}`, an unknown route 404 `{"detail": "Not Found"}`, and any other exception
 * 500 with the plain text `Internal Server Error`.
 */
export class HttpDetail extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
  ) {
    super(typeof detail === "string" ? detail : JSON.stringify(detail));
  }
}

/** One entry of a 422 `detail` list: a body field that is missing or has the wrong type. */
export interface ValidationProblem {
  type: "missing" | "string_type" | "bool_type" | "list_type" | "int_type" | "model_attributes_type";
  loc: Array<string | number>;
  msg: string;
  input: unknown;
}

/** Writes a 200 JSON reply. */
export function replyJson(response: ServerResponse, value: unknown): void {
  response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));
}

/** Writes the reply FastAPI gives for a thrown error. */
export function replyError(response: ServerResponse, error: unknown): void {
  if (error instanceof HttpDetail) {
    response
      .writeHead(error.status, { "content-type": "application/json" })
      .end(JSON.stringify({ detail: error.detail }));
    return;
  }
  response.writeHead(500, { "content-type": "text/plain; charset=utf-8" }).end("Internal Server Error");
}

type FieldKind = "string" | "boolean" | "string-list" | "integer";

const typeOfKind: Record<FieldKind, ValidationProblem["type"]> = {
  string: "string_type",
  boolean: "bool_type",
  "string-list": "list_type",
  integer: "int_type",
};

const messageOfKind: Record<FieldKind, string> = {
  string: "Input should be a valid string",
  boolean: "Input should be a valid boolean",
  "string-list": "Input should be a valid list",
  integer: "Input should be a valid integer",
};

function fits(kind: FieldKind, value: unknown): boolean {
  if (kind === "string") return typeof value === "string";
  if (kind === "boolean") return typeof value === "boolean";
  if (kind === "integer") return Number.isInteger(value);
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

/**
 * Checks a JSON body against the `Body(...)` fields of a route: `required` fields must be present,
 * every given field must have its kind. Throws the 422 FastAPI would give, listing every problem.
 */
export function validateBody(
  body: unknown,
  fields: Record<string, { kind: FieldKind; required: boolean }>,
): Record<string, unknown> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpDetail(422, [
      {
        type: "model_attributes_type",
        loc: ["body"],
        msg: "Input should be a valid dictionary",
        input: body,
      },
    ]);
  }
  const record = body as Record<string, unknown>;
  const problems: ValidationProblem[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const value = record[name];
    if (value === undefined || value === null) {
      if (field.required)
        problems.push({ type: "missing", loc: ["body", name], msg: "Field required", input: null });
    } else if (!fits(field.kind, value)) {
      problems.push({
        type: typeOfKind[field.kind],
        loc: ["body", name],
        msg: messageOfKind[field.kind],
        input: value,
      });
    }
  }
  if (problems.length > 0) throw new HttpDetail(422, problems);
  return record;
}
