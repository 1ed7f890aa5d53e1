import {
  type ApiCallContext,
  type ApiDefinition,
  ApiFailure,
  type ParameterDefinition,
  type ParameterType,
  pageOf,
  pageParameters,
} from "../api-definition.js";
import { insertRow, type Row, rowsOf, type TableName } from "../database.js";

/** One field of a collection's rows. */
export interface FieldDefinition {
  /** Field name. */
  name: string;
  /** Type. */
  type: ParameterType;
  /** What it holds. */
  description: string;
  /** Whether `create_*` requires it (otherwise `default` applies). */
  requiredOnCreate?: boolean;
  /** Default on create. */
  default?: unknown;
  /** Whether `update_*` may change it. */
  editable?: boolean;
  /** Whether the list API filters on it by equality (or membership, for lists). */
  filter?: boolean;
  /** Allowed values. */
  choices?: readonly string[];
  /** Smallest allowed number. */
  minimum?: number;
}

/** A collection of rows an app exposes through generated list/show/create/update/delete APIs. */
export interface CollectionDefinition {
  /** App name. */
  app: string;
  /** Table. */
  table: TableName;
  /** One row, e.g. `note` (ids are `note_id`). */
  singular: string;
  /** Many rows, e.g. `notes`. */
  plural: string;
  /** Fields beside id and owner. */
  fields: FieldDefinition[];
  /** Whether rows belong to the logged-in user (`owner`). */
  owned: boolean;
  /** Generated APIs. */
  operations: ReadonlyArray<"list" | "show" | "create" | "update" | "delete">;
  /** Fields the list API's `query` searches (case-insensitive substring). */
  searchFields?: readonly string[];
  /** Values set on create besides the fields (e.g. `created_at`). */
  onCreate?: (context: ApiCallContext) => Record<string, unknown>;
}

/** A row as an API shows it: `<singular>_id` instead of `id`, no owner. */
export function presentRow(collection: { singular: string }, row: Row): Record<string, unknown> {
  const { id, owner: _owner, ...rest } = row;
  return { [`${collection.singular}_id`]: id, ...rest };
}

function responseShape(collection: CollectionDefinition): Record<string, unknown> {
  const shape: Record<string, unknown> = { [`${collection.singular}_id`]: 1 };
  for (const field of collection.fields) shape[field.name] = field.type;
  return shape;
}

function visibleRows(collection: CollectionDefinition, context: ApiCallContext): Row[] {
  const rows = rowsOf(context.database, collection.table);
  return collection.owned ? rows.filter((row) => row.owner === context.user) : rows;
}

/** The row named by `<singular>_id`, visible to the user, or a 404. */
export function findRow(collection: CollectionDefinition, context: ApiCallContext): Row {
  const id = context.arguments[`${collection.singular}_id`];
  const row = visibleRows(collection, context).find((candidate) => candidate.id === id);
  if (row === undefined)
    throw new ApiFailure(404, `The ${collection.singular} with id ${String(id)} does not exist.`);
  return row;
}

function idParameter(collection: CollectionDefinition): ParameterDefinition {
  return {
    name: `${collection.singular}_id`,
    type: "integer",
    description: `The id of the ${collection.singular}.`,
    required: true,
  };
}

function matchesFilters(
  collection: CollectionDefinition,
  row: Row,
  values: Record<string, unknown>,
): boolean {
  for (const field of collection.fields) {
    const wanted = values[field.name];
    if (field.filter !== true || wanted === null || wanted === undefined) continue;
    const actual = row[field.name];
    if (Array.isArray(actual) ? !actual.includes(wanted) : actual !== wanted) return false;
  }
  const query = values.query;
  if (typeof query !== "string" || query === "") return true;
  const needle = query.toLowerCase();
  return (collection.searchFields ?? []).some((name) =>
    String(row[name] ?? "")
      .toLowerCase()
      .includes(needle),
  );
}

function listApi(collection: CollectionDefinition): ApiDefinition {
  const filters: ParameterDefinition[] = collection.fields
    .filter((field) => field.filter === true)
    .map((field) => ({
      name: field.name,
      type: field.type.startsWith("list[") ? "string" : field.type,
      description: `Only ${collection.plural} whose ${field.name} is${field.type.startsWith("list[") ? " or contains" : ""} this value.`,
      ...(field.choices === undefined ? {} : { choices: field.choices }),
    }));
  const search: ParameterDefinition[] =
    collection.searchFields === undefined
      ? []
      : [
          {
            name: "query",
            type: "string",
            description: `Text searched in ${collection.searchFields.join(", ")}.`,
            default: "",
          },
        ];
  return {
    app: collection.app,
    name: `show_${collection.plural}`,
    method: "GET",
    path: `/${collection.plural}`,
    description: `Get a page of ${collection.owned ? "your " : ""}${collection.plural.replaceAll("_", " ")}.`,
    parameters: [...search, ...filters, ...pageParameters],
    auth: collection.owned,
    response: [responseShape(collection)],
    handle: (context) =>
      pageOf(
        visibleRows(collection, context).filter((row) => matchesFilters(collection, row, context.arguments)),
        context.arguments,
      ).map((row) => presentRow(collection, row)),
  };
}

function showApi(collection: CollectionDefinition): ApiDefinition {
  return {
    app: collection.app,
    name: `show_${collection.singular}`,
    method: "GET",
    path: `/${collection.plural}/{${collection.singular}_id}`,
    description: `Get the details of one ${collection.singular.replaceAll("_", " ")}.`,
    parameters: [idParameter(collection)],
    auth: collection.owned,
    response: responseShape(collection),
    handle: (context) => presentRow(collection, findRow(collection, context)),
  };
}

function fieldParameter(field: FieldDefinition, required: boolean): ParameterDefinition {
  return {
    name: field.name,
    type: field.type,
    description: field.description,
    required,
    ...(required || field.default === undefined ? {} : { default: field.default }),
    ...(field.choices === undefined ? {} : { choices: field.choices }),
    ...(field.minimum === undefined ? {} : { minimum: field.minimum }),
    ...(required && field.type === "string" ? { nonEmpty: true } : {}),
  };
}

function createApi(collection: CollectionDefinition): ApiDefinition {
  return {
    app: collection.app,
    name: `create_${collection.singular}`,
    method: "POST",
    path: `/${collection.plural}`,
    description: `Create a new ${collection.singular.replaceAll("_", " ")}.`,
    parameters: collection.fields.map((field) => fieldParameter(field, field.requiredOnCreate === true)),
    auth: collection.owned,
    response: { message: "string", [`${collection.singular}_id`]: 1 },
    handle: (context) => {
      const values: Record<string, unknown> = collection.owned ? { owner: context.user } : {};
      for (const field of collection.fields)
        values[field.name] = context.arguments[field.name] ?? field.default ?? null;
      const row = insertRow(context.database, collection.table, {
        ...values,
        ...collection.onCreate?.(context),
      });
      return { message: `${collection.singular} created.`, [`${collection.singular}_id`]: row.id };
    },
  };
}

function updateApi(collection: CollectionDefinition): ApiDefinition {
  const editable = collection.fields.filter((field) => field.editable === true);
  return {
    app: collection.app,
    name: `update_${collection.singular}`,
    method: "PATCH",
    path: `/${collection.plural}/{${collection.singular}_id}`,
    description: `Update fields of a ${collection.singular.replaceAll("_", " ")}; fields not given stay as they are.`,
    parameters: [
      idParameter(collection),
      ...editable.map((field) => ({ ...fieldParameter(field, false), default: null })),
    ],
    auth: collection.owned,
    response: { message: "string" },
    handle: (context) => {
      const row = findRow(collection, context);
      for (const field of editable) {
        const value = context.arguments[field.name];
        if (value !== null && value !== undefined) row[field.name] = value;
      }
      return { message: `${collection.singular} updated.` };
    },
  };
}

function deleteApi(collection: CollectionDefinition): ApiDefinition {
  return {
    app: collection.app,
    name: `delete_${collection.singular}`,
    method: "DELETE",
    path: `/${collection.plural}/{${collection.singular}_id}`,
    description: `Delete a ${collection.singular.replaceAll("_", " ")}.`,
    parameters: [idParameter(collection)],
    auth: collection.owned,
    response: { message: "string" },
    handle: (context) => {
      const row = findRow(collection, context);
      const rows = rowsOf(context.database, collection.table);
      rows.splice(rows.indexOf(row), 1);
      return { message: `${collection.singular} deleted.` };
    },
  };
}

/** The APIs generated for a collection, in the order of its operations. */
export function collectionApis(collection: CollectionDefinition): ApiDefinition[] {
  const builders = { list: listApi, show: showApi, create: createApi, update: updateApi, delete: deleteApi };
  return collection.operations.map((operation) => builders[operation](collection));
}
