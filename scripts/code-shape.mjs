#!/usr/bin/env node
// The shape of the code, read with the TypeScript compiler API: the longest functions (every one over
// the limit) with their nesting depth, and how many names each package entry exports. Reads the
// sources of packages/*/src and apps/*/src, leaving out tests (`*.test.ts`) and their `__fixtures__`.
//
//   node scripts/code-shape.mjs [--limit=80] [--top=20] [--json]
//
// Markdown on stdout; `--json` prints the same figures as one JSON object. Package entries are read
// from each package.json's `exports` (a `dist/X.js` target is read as `src/X.ts`), so re-exports from
// other workspace packages resolve through their built `dist` types: run `pnpm build` first.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function parseArguments(argv) {
  const options = { limit: 80, top: 20, json: false };
  for (const argument of argv) {
    const [key, value] = argument.replace(/^--/, "").split("=");
    if (key === "json") options.json = true;
    else if ((key === "limit" || key === "top") && /^\d+$/.test(value ?? "")) options[key] = Number(value);
    else {
      process.stderr.write(
        `code-shape: unknown or malformed option "${argument}" (expected --limit=N, --top=N or --json)\n`,
      );
      process.exit(2);
    }
  }
  return options;
}

function sourceFiles(directory) {
  const files = [];
  for (const entry of readdirSync(directory)) {
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) {
      if (entry !== "__fixtures__" && entry !== "node_modules") files.push(...sourceFiles(path));
    } else if (/\.tsx?$/.test(entry) && !/\.test(-d)?\.tsx?$/.test(entry) && !entry.endsWith(".d.ts")) {
      files.push(path);
    }
  }
  return files;
}

function workspacePackages() {
  const packages = [];
  for (const group of ["packages", "apps"]) {
    for (const name of readdirSync(join(root, group)).sort()) {
      const directory = join(root, group, name);
      if (existsSync(join(directory, "package.json")) && existsSync(join(directory, "src"))) {
        packages.push({
          directory,
          manifest: JSON.parse(readFileSync(join(directory, "package.json"), "utf8")),
        });
      }
    }
  }
  return packages;
}

const functionKinds = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
]);

// Statements that open a level of nesting; a nested function opens one too.
const nestingKinds = new Set([
  ts.SyntaxKind.IfStatement,
  ts.SyntaxKind.ForStatement,
  ts.SyntaxKind.ForOfStatement,
  ts.SyntaxKind.ForInStatement,
  ts.SyntaxKind.WhileStatement,
  ts.SyntaxKind.DoStatement,
  ts.SyntaxKind.SwitchStatement,
  ts.SyntaxKind.TryStatement,
  ts.SyntaxKind.CatchClause,
]);

function propertyName(name) {
  if (name === undefined) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  return name.getText();
}

/** A readable name for a function node: its declared name, the variable or property it is assigned to, or its call. */
function functionName(node) {
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const own = node.name === undefined ? undefined : propertyName(node.name);
  if (own !== undefined) return own;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return propertyName(parent.name);
  if (ts.isExportAssignment(parent)) return "default";
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText();
    return `${callee.length > 40 ? `${callee.slice(0, 40)}…` : callee}(callback)`;
  }
  return "<anonymous>";
}

/** The owner of a method (class or object-literal variable) and of a nested function, outermost first. */
function qualifiedName(node) {
  const parts = [functionName(node)];
  for (let current = node.parent; current !== undefined; current = current.parent) {
    if (functionKinds.has(current.kind)) parts.unshift(functionName(current));
    else if (ts.isClassLike(current)) parts.unshift(current.name?.text ?? "<class>");
  }
  return parts.join(" > ");
}

/** The deepest nesting of control statements and inner functions inside a function's body. */
function nestingDepth(body) {
  let deepest = 0;
  const visit = (node, depth) => {
    const opens = nestingKinds.has(node.kind) || functionKinds.has(node.kind);
    // `else if` continues the same level rather than opening one
    const elseIf =
      ts.isIfStatement(node) && ts.isIfStatement(node.parent) && node.parent.elseStatement === node;
    const here = opens && !elseIf ? depth + 1 : depth;
    deepest = Math.max(deepest, here);
    ts.forEachChild(node, (child) => visit(child, here));
  };
  if (body !== undefined) ts.forEachChild(body, (child) => visit(child, 0));
  return deepest;
}

function collectFunctions(sourceFile) {
  const found = [];
  const visit = (node) => {
    if (functionKinds.has(node.kind) && node.body !== undefined) {
      const start = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line;
      const end = sourceFile.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({
        name: qualifiedName(node),
        file: relative(root, sourceFile.fileName),
        line: start + 1,
        lines: end - start + 1,
        depth: nestingDepth(node.body),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** `./dist/a/index.js` (or a `{ import, types }` condition object) as the source file it is built from. */
function entrySource(directory, target) {
  const path = typeof target === "string" ? target : (target?.import ?? target?.default ?? target?.types);
  if (typeof path !== "string") return null;
  const source = join(directory, path.replace(/^\.\/dist\//, "src/").replace(/\.(d\.ts|js)$/, ".ts"));
  return existsSync(source) ? source : null;
}

function packageEntries(packages) {
  const entries = [];
  for (const { directory, manifest } of packages) {
    const exportsField = manifest.exports ?? {};
    const map = typeof exportsField === "string" ? { ".": exportsField } : exportsField;
    for (const [subpath, target] of Object.entries(map)) {
      const source = entrySource(directory, target);
      if (source !== null)
        entries.push({
          entry: subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`,
          source,
        });
    }
  }
  return entries;
}

function measure() {
  const packages = workspacePackages();
  const files = packages.flatMap(({ directory }) => sourceFiles(join(directory, "src")));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    allowJs: false,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const inRepository = new Set(files);
  const functions = program
    .getSourceFiles()
    .filter((sourceFile) => inRepository.has(sourceFile.fileName))
    .flatMap(collectFunctions)
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
  const exports = packageEntries(packages).map(({ entry, source }) => {
    const sourceFile = program.getSourceFile(source);
    const symbol = sourceFile === undefined ? undefined : checker.getSymbolAtLocation(sourceFile);
    const names =
      symbol === undefined ? [] : checker.getExportsOfModule(symbol).map((exported) => exported.name);
    return { entry, file: relative(root, source), names: names.length };
  });
  return { files: files.length, functions, exports };
}

function markdown({ files, functions, exports }, { limit, top }) {
  const over = functions.filter((fn) => fn.lines > limit);
  const shown = functions.slice(0, Math.max(top, over.length));
  const lines = [
    `Source files read: ${files} (\`packages/*/src\` and \`apps/*/src\`, tests and \`__fixtures__\` left out)`,
    `Functions: ${functions.length}; over ${limit} lines: ${over.length}; over 100 lines: ${functions.filter((fn) => fn.lines > 100).length}`,
    "",
    `### Longest functions (the top ${top}, and every one over ${limit} lines)`,
    "",
    "| lines | depth | function | file |",
    "| ---: | ---: | --- | --- |",
    ...shown.map((fn) => `| ${fn.lines} | ${fn.depth} | \`${fn.name}\` | ${fn.file}:${fn.line} |`),
    "",
    "### Exported names per package entry",
    "",
    "| names | entry | file |",
    "| ---: | --- | --- |",
    ...exports.map((entry) => `| ${entry.names} | ${entry.entry} | ${entry.file} |`),
    "",
  ];
  return lines.join("\n");
}

const options = parseArguments(process.argv.slice(2));
const shape = measure();
process.stdout.write(options.json ? `${JSON.stringify(shape, null, 2)}\n` : markdown(shape, options));
