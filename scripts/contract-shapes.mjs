// Writes docs/contracts.md, the shape of every contract of @hs/spec, from the package itself so that
// it cannot drift: the data contracts from the zod schemas the built package exports (zod's own
// `z.toJSONSchema`: fields, types, optionality, defaults), the plugin-facing interfaces from their
// TypeScript declarations, and each field's JSDoc from the sources (a schema's `.describe()` text where a
// field has none). Run it after `pnpm build`:
//   node scripts/contract-shapes.mjs            writes docs/contracts.md
//   node scripts/contract-shapes.mjs --check    exits 1, naming the first differing line, when the file differs
//   --out=FILE                                  another file (the test checks a changed copy)
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

const root = resolve(import.meta.dirname, "..");
const contractPackage = join(root, "packages", "spec");
// The contract version documented; a later version gets a folder of its own beside it.
const specDirectory = join(contractPackage, "src", "v1");
const defaultOutput = join(root, "docs", "contracts.md");
const requireFromPackage = createRequire(join(contractPackage, "package.json"));
const { z } = await import(requireFromPackage.resolve("zod"));
const spec = await import(join(contractPackage, "dist", "index.js"));

const largestSafe = Number.MAX_SAFE_INTEGER;

/** Every zod schema the package's entry exports, by export name. */
function exportedSchemas() {
  return new Map(
    Object.entries(spec)
      .filter(([, value]) => value instanceof z.ZodType)
      .sort(([left], [right]) => left.localeCompare(right)),
  );
}

/** JSON Schemas of all exported schemas at once, so that one refers to another by `#name`. */
function jsonSchemas(schemas) {
  const registry = z.registry();
  for (const [name, schema] of schemas) registry.add(schema, { id: name });
  return z.toJSONSchema(registry, { io: "input", unrepresentable: "any", uri: (id) => `#${id}` }).schemas;
}

function jsDocText(node) {
  const parts = ts
    .getJSDocCommentsAndTags(node)
    .filter((part) => ts.isJSDoc(part))
    .map((part) => ts.getTextOfJSDocComment(part.comment) ?? "");
  return parts.join(" ").replace(/\s+/g, " ").trim();
}

/**
 * The shapes of a schema expression in source order: object literals passed as the first argument of a
 * call (`z.object({...})`, `strictSection({...})`), through the file's unexported schemas (which
 * `z.toJSONSchema` inlines), never inside a callback (a refinement's issue objects are not shapes).
 */
function objectLiterals(expression, locals, seen = new Set()) {
  const found = [];
  const visit = (node) => {
    if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return;
    if (ts.isObjectLiteralExpression(node)) {
      if (ts.isCallExpression(node.parent) && node.parent.arguments[0] === node) found.push(node);
      return;
    }
    if (ts.isIdentifier(node) && locals.has(node.text) && !seen.has(node.text)) {
      seen.add(node.text);
      visit(locals.get(node.text));
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(expression);
  return found;
}

/** Per shape of the expression, its fields' JSDoc and the shapes nested in each field. */
function documentation(expression, locals) {
  return objectLiterals(expression, locals).map((literal) => {
    const fields = new Map();
    for (const property of literal.properties) {
      if (!ts.isPropertyAssignment(property)) continue;
      const name = property.name.getText().replace(/^["']|["']$/g, "");
      fields.set(name, { doc: jsDocText(property), nested: documentation(property.initializer, locals) });
    }
    return fields;
  });
}

/** The file's unexported schema constants, which a schema may use without `z.toJSONSchema` naming them. */
function localSchemas(source) {
  const locals = new Map();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement) || isExported(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (declaration.initializer !== undefined && ts.isIdentifier(declaration.name))
        locals.set(declaration.name.text, declaration.initializer);
    }
  }
  return locals;
}

const printer = ts.createPrinter({ removeComments: true, newLine: ts.NewLineKind.LineFeed });

/** A type node as one line of TypeScript, without its comments. */
function typeNodeText(node, source) {
  return printer.printNode(ts.EmitHint.Unspecified, node, source).replace(/\s+/g, " ");
}

/** The declarations of the spec sources, file by file, in source order. */
function specDeclarations() {
  const files = readdirSync(specDirectory)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts") && name !== "index.ts")
    .sort();
  return files.map((name) => {
    const path = join(specDirectory, name);
    const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
    return { file: relative(root, path), declarations: exportedDeclarations(source) };
  });
}

function isExported(statement) {
  return (statement.modifiers ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
}

function exportedDeclarations(source) {
  const locals = localSchemas(source);
  const declarations = [];
  for (const statement of source.statements) {
    if (!isExported(statement)) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (declaration.initializer === undefined) continue;
        const { text } = declaration.name;
        const doc = jsDocText(statement);
        const fields = documentation(declaration.initializer, locals);
        declarations.push({ kind: "value", name: text, doc, fields });
      }
    } else if (ts.isInterfaceDeclaration(statement)) {
      declarations.push({
        kind: "interface",
        name: statement.name.text,
        doc: jsDocText(statement),
        statement,
        source,
      });
    } else if (ts.isTypeAliasDeclaration(statement)) {
      const inferred = /^z\.(infer|input|output)<typeof (\w+)>$/.exec(statement.type.getText());
      declarations.push({
        kind: inferred === null ? "type" : "inferred",
        name: statement.name.text,
        doc: jsDocText(statement),
        schema: inferred?.[2],
        text: typeNodeText(statement.type, source),
      });
    }
  }
  return declarations;
}

function escapeCell(text) {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

function anchor(name) {
  return name.toLowerCase();
}

function numberText(schema) {
  const base = schema.type === "integer" ? "integer" : "number";
  const lower =
    schema.exclusiveMinimum !== undefined
      ? `> ${schema.exclusiveMinimum}`
      : schema.minimum !== undefined && schema.minimum > -largestSafe
        ? `≥ ${schema.minimum}`
        : undefined;
  const upper =
    schema.exclusiveMaximum !== undefined
      ? `< ${schema.exclusiveMaximum}`
      : schema.maximum !== undefined && schema.maximum < largestSafe
        ? `≤ ${schema.maximum}`
        : undefined;
  if (lower?.startsWith("≥") && upper?.startsWith("≤"))
    return `${base} in [${schema.minimum}, ${schema.maximum}]`;
  return [base, lower, upper].filter((part) => part !== undefined).join(" ");
}

function stringText(schema) {
  const parts = ["string"];
  if (schema.minLength === 1) parts.push("(non-empty)");
  else if (schema.minLength !== undefined) parts.push(`(at least ${schema.minLength} characters)`);
  if (schema.pattern !== undefined) parts.push(`matching \`/${schema.pattern}/\``);
  return parts.join(" ");
}

function literalText(value) {
  return `\`${JSON.stringify(value)}\``;
}

/** A one-line type of a JSON Schema node; an inline object is `object` (its fields get rows of their own). */
function typeText(schema) {
  if (schema.$ref !== undefined) {
    const name = schema.$ref.slice(1);
    return `[\`${name}\`](#${anchor(name)})`;
  }
  if (schema.const !== undefined) return literalText(schema.const);
  if (schema.enum !== undefined) return schema.enum.map(literalText).join(" \\| ");
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants !== undefined) return variants.map(typeText).join(" \\| ");
  if (Array.isArray(schema.type)) return schema.type.map((type) => typeText({ type })).join(" \\| ");
  switch (schema.type) {
    case "string":
      return stringText(schema);
    case "number":
    case "integer":
      return numberText(schema);
    case "boolean":
    case "null":
      return schema.type;
    case "array": {
      const items = schema.items === undefined ? "unknown" : typeText(schema.items);
      const least = schema.minItems === undefined ? "" : ` (at least ${schema.minItems})`;
      return `array of ${items}${least}`;
    }
    case "object":
      if (schema.properties !== undefined) return "object";
      return `record of ${typeText(schema.additionalProperties ?? {})}`;
    default:
      return "unknown";
  }
}

/** The inline objects under a field (itself, its array items, its union variants), with their paths. */
function inlineObjects(schema, path) {
  if (schema.type === "object" && schema.properties !== undefined) return [{ schema, path }];
  if (schema.type === "array" && schema.items !== undefined) return inlineObjects(schema.items, `${path}[]`);
  const variants = (schema.anyOf ?? schema.oneOf ?? []).filter((variant) => variant.type === "object");
  if (variants.length === 1) return inlineObjects(variants[0], path);
  return variants.map((variant, index) => ({ schema: variant, path: `${path}<${index + 1}>` }));
}

function describeField(schema, doc) {
  const text = doc !== "" ? doc : (schema.description ?? "");
  const withDefault =
    schema.default === undefined ? text : `${text} Default: \`${JSON.stringify(schema.default)}\`.`.trim();
  return withDefault === "" ? "(no description)" : withDefault;
}

/** Table rows of an object schema: one per field, and the fields of its inline objects after it. */
function fieldRows(schema, docs, prefix) {
  const rows = [];
  const required = new Set(schema.required ?? []);
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    const documented = docs?.get(name);
    const path = `${prefix}${name}`;
    rows.push(
      `| \`${path}\` | ${typeText(field)} | ${required.has(name) ? "yes" : "no"} | ${escapeCell(describeField(field, documented?.doc ?? ""))} |`,
    );
    inlineObjects(field, path).forEach((inline, index) => {
      rows.push(...fieldRows(inline.schema, documented?.nested[index], `${inline.path}.`));
    });
  }
  return rows;
}

const tableHead = ["| field | type | required | description |", "| --- | --- | --- | --- |"];

function strictness(schema) {
  if (schema.additionalProperties === false) return "Unknown keys are refused.";
  return "Unknown keys are dropped.";
}

/** The Markdown of one exported schema: its doc, then a table per object variant or its type. */
function schemaSection(name, json, declaration, inferredType) {
  const title = inferredType === undefined ? `\`${name}\`` : `\`${name}\` (type \`${inferredType}\`)`;
  const lines = [`<a id="${anchor(name)}"></a>`, "", `### ${title}`, ""];
  const doc = declaration?.doc || json.description;
  if (doc) lines.push(doc, "");
  const objects = inlineObjects(json, "");
  if (objects.length === 0) {
    lines.push(`A ${typeText(json)}.`, "");
    return lines;
  }
  objects.forEach((object, index) => {
    if (objects.length > 1) {
      lines.push(`One of ${objects.length} shapes; shape ${index + 1}: ${strictness(object.schema)}`, "");
    } else lines.push(strictness(object.schema), "");
    lines.push(...tableHead, ...fieldRows(object.schema, declaration?.fields[index], ""), "");
  });
  return lines;
}

function memberType(member, source) {
  if (ts.isMethodSignature(member)) {
    const parameters = member.parameters.map((parameter) => typeNodeText(parameter, source)).join(", ");
    return `(${parameters}) => ${member.type === undefined ? "void" : typeNodeText(member.type, source)}`;
  }
  return member.type === undefined ? "unknown" : typeNodeText(member.type, source);
}

/** The Markdown of one exported interface: one row per member, methods as their signatures. */
function interfaceSection(declaration) {
  const name = declaration.name;
  const lines = [`<a id="${anchor(name)}"></a>`, "", `### \`${name}\` (interface)`, ""];
  if (declaration.doc !== "") lines.push(declaration.doc, "");
  lines.push("| member | type | required | description |", "| --- | --- | --- | --- |");
  for (const member of declaration.statement.members) {
    const memberName = member.name?.getText() ?? "(index)";
    const type = `\`${memberType(member, declaration.source)}\``;
    const required = member.questionToken === undefined ? "yes" : "no";
    const doc = jsDocText(member) || "(no description)";
    lines.push(`| \`${memberName}\` | ${escapeCell(type)} | ${required} | ${escapeCell(doc)} |`);
  }
  lines.push("");
  return lines;
}

function typeSection(declaration) {
  const lines = [`<a id="${anchor(declaration.name)}"></a>`, "", `### \`${declaration.name}\` (type)`, ""];
  if (declaration.doc !== "") lines.push(declaration.doc, "");
  lines.push("```ts", `type ${declaration.name} = ${declaration.text};`, "```", "");
  return lines;
}

/** The sections of one spec file, in source order. */
function fileSections(entry, schemas, json, placed) {
  const inferred = new Map(
    entry.declarations.filter((item) => item.kind === "inferred").map((item) => [item.schema, item.name]),
  );
  const lines = [];
  for (const declaration of entry.declarations) {
    if (declaration.kind === "value" && schemas.has(declaration.name)) {
      placed.add(declaration.name);
      lines.push(
        ...schemaSection(
          declaration.name,
          json[declaration.name],
          declaration,
          inferred.get(declaration.name),
        ),
      );
    } else if (declaration.kind === "interface") lines.push(...interfaceSection(declaration));
    else if (declaration.kind === "type") lines.push(...typeSection(declaration));
  }
  return lines.length === 0
    ? []
    : [
        `## ${entry.file.split("/").at(-1).replace(/\.ts$/, "")}`,
        "",
        `Source: \`${entry.file}\`.`,
        "",
        ...lines,
      ];
}

/** One line per spec file naming its contracts, each linked to its section. */
function contents(entries, schemas) {
  return entries.flatMap((entry) => {
    const names = entry.declarations
      .filter((item) => item.kind === "interface" || item.kind === "type" || schemas.has(item.name))
      .map((item) => `[\`${item.name}\`](#${anchor(item.name)})`);
    return names.length === 0 ? [] : [`- ${sectionName(entry)}: ${names.join(", ")}`];
  });
}

function sectionName(entry) {
  return entry.file.split("/").at(-1).replace(/\.ts$/, "");
}

const preamble = [
  "# Contracts of `@hs/spec`",
  "",
  "<!-- Generated by scripts/contract-shapes.mjs from the built package and its sources; do not edit. -->",
  "",
  "Every contract `@hs/spec` exports, as the package checks it. Data that crosses a package or process",
  "boundary (tasks, trajectories, harness configs, pools, profiles, routing decisions) has a zod schema:",
  "its table is what the schema accepts as input (`required: no` is an optional field or one with a",
  "default), from zod's `z.toJSONSchema`. Objects and functions a plugin implements (`BenchmarkV1`,",
  "`EnvironmentV1`, `PolicyV1`, `RouterV1`, the plugin interfaces) are TypeScript interfaces: their",
  "tables are the declarations. A nested object's fields follow it as `field.sub` (`field[].sub` for an",
  "array's items, `field<2>.sub` for the second shape of a union). Regenerate with",
  "`node scripts/contract-shapes.mjs` after `pnpm build`; a test fails while this file differs.",
  "",
];

function render() {
  const schemas = exportedSchemas();
  const json = jsonSchemas(schemas);
  const placed = new Set();
  const entries = specDeclarations();
  const lines = [...preamble, ...contents(entries, schemas), ""];
  for (const entry of entries) lines.push(...fileSections(entry, schemas, json, placed));
  const others = [...schemas.keys()].filter((name) => !placed.has(name));
  if (others.length > 0) {
    lines.push("## Other exported schemas", "");
    for (const name of others) lines.push(...schemaSection(name, json[name], undefined, undefined));
  }
  return formatted(`${lines.join("\n").trimEnd()}\n`);
}

/** The Markdown as the repository's formatter writes it (biome aligns the tables), so lint passes. */
function formatted(markdown) {
  const biome = join(root, "node_modules", ".bin", "biome");
  return execFileSync(biome, ["format", `--stdin-file-path=${relative(root, defaultOutput)}`], {
    cwd: root,
    input: markdown,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
}

function firstDifference(expected, actual) {
  const expectedLines = expected.split("\n");
  const actualLines = actual.split("\n");
  const index = expectedLines.findIndex((line, position) => line !== actualLines[position]);
  const line = index === -1 ? expectedLines.length : index;
  return `line ${line + 1}: expected ${JSON.stringify(expectedLines[line] ?? "(end of file)")}, found ${JSON.stringify(actualLines[line] ?? "(end of file)")}`;
}

const argumentsGiven = process.argv.slice(2);
const outArgument = argumentsGiven.find((argument) => argument.startsWith("--out="));
const output = outArgument === undefined ? defaultOutput : resolve(outArgument.slice("--out=".length));
const generated = render();
if (argumentsGiven.includes("--check")) {
  let committed = "";
  try {
    committed = readFileSync(output, "utf8");
  } catch {
    committed = "";
  }
  if (committed !== generated) {
    console.error(
      `contract-shapes: ${relative(root, output)} differs from the contracts (${firstDifference(generated, committed)}); run node scripts/contract-shapes.mjs after pnpm build`,
    );
    process.exit(1);
  }
  console.log(`contract-shapes: ${relative(root, output)} is up to date`);
} else {
  writeFileSync(output, generated);
  console.log(`contract-shapes: wrote ${relative(root, output)}`);
}
