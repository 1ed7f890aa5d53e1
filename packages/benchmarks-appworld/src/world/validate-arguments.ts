import { ApiFailure, type ParameterDefinition } from "./api-definition.js";

function typeMatches(type: ParameterDefinition["type"], value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "list[string]":
      return Array.isArray(value) && value.every((item) => typeof item === "string");
    case "string | number":
      return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
    case "list[integer]":
      return (
        Array.isArray(value) && value.every((item) => typeof item === "number" && Number.isInteger(item))
      );
  }
}

function checkValue(parameter: ParameterDefinition, value: unknown): string | null {
  if (!typeMatches(parameter.type, value))
    return `must be of type ${parameter.type}, got ${JSON.stringify(value)}`;
  if (typeof value === "number") {
    if (parameter.minimum !== undefined && value < parameter.minimum)
      return `must be >= ${parameter.minimum}`;
    if (parameter.maximum !== undefined && value > parameter.maximum)
      return `must be <= ${parameter.maximum}`;
  }
  if (typeof value === "string") {
    if (parameter.choices !== undefined && !parameter.choices.includes(value))
      return `must be one of ${parameter.choices.join(", ")}`;
    if (parameter.nonEmpty === true && value.trim() === "") return "must not be empty";
  }
  return null;
}

/**
 * Checks arguments against declared parameters (a 422 names the first bad one, as AppWorld's FastAPI
 * apps answer) and fills in defaults. Unknown arguments are refused.
 */
export function validateArguments(
  parameters: readonly ParameterDefinition[],
  given: Record<string, unknown>,
): Record<string, unknown> {
  const known = new Set(parameters.map((parameter) => parameter.name));
  for (const name of Object.keys(given)) {
    if (!known.has(name)) throw new ApiFailure(422, `Unexpected parameter "${name}".`);
  }
  const values: Record<string, unknown> = {};
  for (const parameter of parameters) {
    const value = given[parameter.name];
    if (value === undefined || value === null) {
      if (parameter.required === true)
        throw new ApiFailure(422, `Missing required parameter "${parameter.name}".`);
      values[parameter.name] = parameter.default ?? null;
      continue;
    }
    const problem = checkValue(parameter, value);
    if (problem !== null) throw new ApiFailure(422, `Parameter "${parameter.name}" ${problem}.`);
    values[parameter.name] = value;
  }
  return values;
}
