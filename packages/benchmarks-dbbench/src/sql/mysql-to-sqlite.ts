import { SqlSyntaxError, type SqlToken, tokenizeMysql } from "./mysql-tokens.js";

type SqlNode =
  | { kind: "token"; token: SqlToken }
  | { kind: "group"; children: SqlNode[]; tokenIndex: number };

type Role = "operand" | "arith" | "compare" | "word" | "comma" | "other";

interface Item {
  text: string;
  role: Role;
  /** Upper-case keyword for words and comparison words. */
  keyword?: string;
  /** For operands: a bare name (table or column) that may be wrapped as a table reference. */
  name?: string;
  /** For operands: a lone numeric literal, with its MySQL text. */
  numberText?: string;
}

const comparisonOperators = new Set(["=", "<>", "!=", "<", ">", "<=", ">=", "<=>"]);
const arithmeticOperators = new Set(["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "~"]);
const operandKeywords = new Set([
  "NULL",
  "TRUE",
  "FALSE",
  "CURRENT_DATE",
  "CURRENT_TIME",
  "CURRENT_TIMESTAMP",
]);
const comparisonWords = new Set(["LIKE", "REGEXP", "RLIKE", "IN", "BETWEEN"]);
const clauseEndWords = new Set([
  "WHERE",
  "GROUP",
  "ORDER",
  "LIMIT",
  "HAVING",
  "UNION",
  "EXCEPT",
  "INTERSECT",
  "ON",
  "USING",
  "JOIN",
  "INNER",
  "LEFT",
  "RIGHT",
  "CROSS",
  "NATURAL",
  "FULL",
  "OUTER",
  "STRAIGHT_JOIN",
  "WINDOW",
  "SET",
  "VALUES",
  "SELECT",
]);
const keywords = new Set([
  ...clauseEndWords,
  "ALL",
  "AND",
  "ANY",
  "AS",
  "ASC",
  "BY",
  "CASE",
  "DELETE",
  "DESC",
  "DISTINCT",
  "DISTINCTROW",
  "ELSE",
  "END",
  "ESCAPE",
  "EXISTS",
  "FROM",
  "INSERT",
  "INTO",
  "IS",
  "NOT",
  "OFFSET",
  "OR",
  "RECURSIVE",
  "REPLACE",
  "SOME",
  "THEN",
  "UPDATE",
  "WHEN",
  "WITH",
  "XOR",
  "DIV",
  "MOD",
  "IGNORE",
  "LOW_PRIORITY",
  "HIGH_PRIORITY",
  "DUPLICATE",
  "KEY",
  "LIKE",
  "REGEXP",
  "RLIKE",
  "IN",
  "BETWEEN",
  "COLLATE",
  "BINARY",
  "DROP",
  "TABLE",
  "CREATE",
  "ALTER",
  "INDEX",
  "VIEW",
  "IF",
  "PRIMARY",
  "ADD",
  "COLUMN",
  "RENAME",
  "TO",
  "DEFAULT",
  "TEMPORARY",
  "UNIQUE",
  "CONSTRAINT",
  "REFERENCES",
  "FOREIGN",
  "CHECK",
]);

/** Words MySQL 8 and MariaDB both reserve: a bare one used as a name is a syntax error there. */
const mysqlReservedWords = new Set(
  (
    "ACCESSIBLE ANALYZE BEFORE BOTH CALL CASCADE CHANGE CONDITION CONTINUE CURRENT_USER CURSOR DATABASES DAY_HOUR " +
    "DAY_MICROSECOND DAY_MINUTE DAY_SECOND DECLARE DELAYED DESCRIBE DETERMINISTIC DUAL EACH ELSEIF ENCLOSED ESCAPED EXIT " +
    "EXPLAIN FETCH FOR FORCE FULLTEXT GRANT HOUR_MICROSECOND HOUR_MINUTE HOUR_SECOND INFILE INOUT INSENSITIVE INTERVAL " +
    "ITERATE KEYS KILL LEADING LEAVE LIMIT LINEAR LINES LOAD LOCALTIME LOCALTIMESTAMP LOCK LOOP MASTER_SSL_VERIFY_SERVER_CERT " +
    "MATCH MINUTE_MICROSECOND MINUTE_SECOND MODIFIES NO_WRITE_TO_BINLOG OPTIMIZE OPTION OPTIONALLY OUT OUTFILE PROCEDURE " +
    "PURGE RANGE READ READS READ_WRITE RELEASE REPEAT REQUIRE RESIGNAL RESTRICT RETURN REVOKE SCHEMAS SECOND_MICROSECOND " +
    "SENSITIVE SEPARATOR SHOW SIGNAL SPATIAL SPECIFIC SQL SQLEXCEPTION SQLSTATE SQLWARNING SQL_BIG_RESULT " +
    "SQL_CALC_FOUND_ROWS SQL_SMALL_RESULT SSL STARTING TERMINATED TRAILING TRIGGER UNDO UNLOCK USAGE USE UTC_DATE UTC_TIME " +
    "UTC_TIMESTAMP WHILE WRITE YEAR_MONTH ZEROFILL"
  ).split(" "),
);

/** MySQL function names (when called) and the SQLite/registered functions that implement them. */
const functionNames: Record<string, string> = {
  IF: "hs_if",
  LEFT: "hs_left",
  RIGHT: "hs_right",
  LOCATE: "hs_locate",
  POSITION: "hs_locate",
  INSTR: "hs_instr",
  LENGTH: "hs_octet_length",
  OCTET_LENGTH: "hs_octet_length",
  CHAR_LENGTH: "hs_char_length",
  CHARACTER_LENGTH: "hs_char_length",
  CONCAT: "hs_concat",
  CONCAT_WS: "hs_concat_ws",
  LCASE: "lower",
  UCASE: "upper",
  SUBSTRING_INDEX: "hs_substring_index",
  MID: "substr",
  SUBSTRING: "substr",
  GREATEST: "hs_greatest",
  LEAST: "hs_least",
  ISNULL: "hs_isnull",
  STRCMP: "hs_strcmp",
  TRUNCATE: "hs_truncate",
  REPEAT: "hs_repeat",
  LPAD: "hs_lpad",
  RPAD: "hs_rpad",
  REVERSE: "hs_reverse",
  SPACE: "hs_space",
  FIELD: "hs_field",
  FIND_IN_SET: "hs_find_in_set",
  CEIL: "hs_ceil",
  CEILING: "hs_ceil",
  FLOOR: "hs_floor",
  ROUND: "hs_round",
  ABS: "hs_abs",
  MD5: "hs_md5",
  YEAR: "hs_year",
  SUM: "hs_sum",
  AVG: "hs_avg",
  MIN: "hs_min",
  MAX: "hs_max",
  NOW: "hs_now",
  CURDATE: "hs_curdate",
  VERSION: "hs_version",
  DATABASE: "hs_database",
  SCHEMA: "hs_database",
};

/** What the rewrite produced. */
export interface SqliteStatement {
  /** SQLite SQL. */
  sql: string;
}

interface RenderContext {
  /** CTE names not to wrap in the current body (a recursive reference must stay a bare name). */
  noWrap: ReadonlySet<string>;
}

function buildTree(tokens: readonly SqlToken[], sql: string): SqlNode[] {
  const root: SqlNode[] = [];
  const stack: SqlNode[][] = [root];
  tokens.forEach((token, index) => {
    const current = stack[stack.length - 1] as SqlNode[];
    if (token.type === "punct" && token.text === "(") {
      const group: SqlNode = { kind: "group", children: [], tokenIndex: index };
      current.push(group);
      stack.push(group.children);
    } else if (token.type === "punct" && token.text === ")") {
      if (stack.length === 1) throw new SqlSyntaxError("unbalanced parenthesis", sql);
      stack.pop();
    } else if (token.type !== "space" && token.type !== "comment") {
      current.push({ kind: "token", token });
    }
  });
  if (stack.length !== 1) throw new SqlSyntaxError("unbalanced parenthesis", sql);
  return root;
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function quoteString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** The text MySQL stores when a numeric literal is assigned to a TEXT column. */
export function mysqlNumberText(literal: string, negative: boolean): string {
  const sign = negative ? "-" : "";
  if (/^0x/i.test(literal)) return literal;
  if (/[eE]/.test(literal)) return `${sign}${String(Number(literal))}`;
  if (literal.includes(".")) {
    const [whole = "", fraction = ""] = literal.split(".");
    const integer = whole.replace(/^0+(?=\d)/, "") || "0";
    return `${sign}${integer}${fraction ? `.${fraction}` : ""}`;
  }
  return `${sign}${BigInt(literal).toString()}`;
}

function isGroupSubquery(node: SqlNode): boolean {
  if (node.kind !== "group") return false;
  const first = node.children[0];
  return first?.kind === "token" && /^(SELECT|WITH)$/i.test(first.token.text);
}

function wordOf(node: SqlNode | undefined): string | undefined {
  return node?.kind === "token" && node.token.type === "word" ? node.token.text.toUpperCase() : undefined;
}

function renderCastType(nodes: readonly SqlNode[], context: RenderContext): string {
  const asIndex = nodes.findIndex((node) => wordOf(node) === "AS");
  if (asIndex < 0) return renderSequence(nodes, context);
  const value = renderSequence(nodes.slice(0, asIndex), context);
  const typeWord = wordOf(nodes[asIndex + 1]) ?? "";
  let type = "TEXT";
  if (/^(SIGNED|UNSIGNED|INT|INTEGER|BIGINT)$/.test(typeWord)) type = "INTEGER";
  else if (/^(DECIMAL|DEC|NUMERIC|FLOAT|DOUBLE|REAL)$/.test(typeWord)) type = "REAL";
  return `${value} AS ${type}`;
}

function renderGroupConcat(nodes: readonly SqlNode[], context: RenderContext): string {
  const separatorIndex = nodes.findIndex((node) => wordOf(node) === "SEPARATOR");
  if (separatorIndex < 0) return renderSequence(nodes, context);
  const body = renderSequence(nodes.slice(0, separatorIndex), context);
  const separator = renderSequence(nodes.slice(separatorIndex + 1), context);
  const orderIndex = body.search(/\sORDER\s+BY\s/i);
  return orderIndex < 0
    ? `${body}, ${separator}`
    : `${body.slice(0, orderIndex)}, ${separator}${body.slice(orderIndex)}`;
}

function collectCase(nodes: readonly SqlNode[], start: number): number {
  let depth = 0;
  for (let index = start; index < nodes.length; index += 1) {
    const word = wordOf(nodes[index]);
    if (word === "CASE") depth += 1;
    else if (word === "END") {
      depth -= 1;
      if (depth === 0) return index;
    }
  }
  throw new SqlSyntaxError("CASE without END", "CASE");
}

function operatorItem(text: string): Item {
  if (comparisonOperators.has(text)) return { text, role: "compare", keyword: text };
  if (arithmeticOperators.has(text)) return { text, role: "arith" };
  if (text === "||") return { text: "OR", role: "word", keyword: "OR" };
  if (text === "&&") return { text: "AND", role: "word", keyword: "AND" };
  if (text === "!") return { text: "NOT", role: "word", keyword: "NOT" };
  return { text, role: "other" };
}

/** The part after a `.` of a qualified name (`t.col`, `t.*`, `` t.`col` ``), quoted for SQLite. */
function qualifiedPartText(part: SqlToken): string {
  if (part.type === "quoted-identifier") return quoteIdentifier(part.value);
  return part.text === "*" ? "*" : quoteIdentifier(part.text);
}

/** A name followed by a parenthesised group: a function call, renamed and with its arguments rendered. */
function functionCallItem(word: string, group: SqlNode & { kind: "group" }, context: RenderContext): Item {
  const upper = word.toUpperCase();
  let args: string;
  if (upper === "CAST" || upper === "CONVERT") args = renderCastType(group.children, context);
  else if (upper === "GROUP_CONCAT") args = renderGroupConcat(group.children, context);
  else if (isGroupSubquery(group)) args = renderStatementNodes(group.children, context);
  else args = renderSequence(group.children, context);
  // a name before parentheses that begins with a digit is no function but a table
  // (`INSERT INTO 1952_olympics (...)`): MySQL allows such names unquoted, SQLite does not
  const name =
    upper === "CONVERT"
      ? "CAST"
      : (functionNames[upper] ?? (/^\d/.test(word) ? quoteIdentifier(word) : word));
  return { text: `${name}(${args})`, role: "operand" };
}

/** A word that is a keyword, an operator word (DIV, MOD, LIKE...) or a name (the only kind with `name`). */
function wordItem(word: string, beforeGroup: boolean): Item {
  const upper = word.toUpperCase();
  if (operandKeywords.has(upper)) return { text: upper, role: "operand" };
  if (upper === "DIV") return { text: "/", role: "arith" };
  if (upper === "MOD") return { text: "%", role: "arith" };
  if (comparisonWords.has(upper)) {
    const keyword = upper === "RLIKE" ? "REGEXP" : upper;
    return { text: keyword, role: "compare", keyword };
  }
  if (keywords.has(upper)) return { text: upper, role: "word", keyword: upper };
  if (mysqlReservedWords.has(upper) && !beforeGroup) {
    throw new SqlSyntaxError(`reserved word ${word} used as a name`, `${word}`);
  }
  return { text: quoteIdentifier(word), role: "operand", name: word };
}

/** A parenthesised group as one operand; the body of the CTE `cteName` (when given) leaves that name unwrapped. */
function groupItem(
  group: SqlNode & { kind: "group" },
  context: RenderContext,
  cteName: string | undefined,
): Item {
  let inner: string;
  if (cteName !== undefined) {
    inner = renderStatementNodes(group.children, {
      noWrap: new Set([...context.noWrap, cteName.toLowerCase()]),
    });
  } else {
    inner = isGroupSubquery(group)
      ? renderStatementNodes(group.children, context)
      : renderSequence(group.children, context);
  }
  return { text: `(${inner})`, role: "operand" };
}

/** The string literal at `start` joined with the ones right after it (`'a' 'b'` is `'ab'` in MySQL). */
function adjacentStrings(nodes: readonly SqlNode[], start: number): { value: string; last: number } {
  let index = start;
  let value = (nodes[index] as { token: SqlToken }).token.value;
  while (
    nodes[index + 1]?.kind === "token" &&
    (nodes[index + 1] as { token: SqlToken }).token.type === "string"
  ) {
    index += 1;
    value += (nodes[index] as { token: SqlToken }).token.value;
  }
  return { value, last: index };
}

/** Where the conversion of one node sequence stands: the items so far and the WITH clause being read. */
interface ItemScan {
  items: Item[];
  /** Inside a WITH clause, until its statement begins. */
  cteMode: boolean;
  /** The CTE whose name was read and whose body has not come yet. */
  cteName: string | undefined;
}

function pushGroup(scan: ItemScan, group: SqlNode & { kind: "group" }, context: RenderContext): void {
  const previous = scan.items[scan.items.length - 1];
  const cteBodyOf = scan.cteMode && previous?.keyword === "AS" ? scan.cteName : undefined;
  if (cteBodyOf !== undefined) scan.cteName = undefined;
  scan.items.push(groupItem(group, context, cteBodyOf));
}

/** Adds the item of the token at `index` (not a word); returns the index of the last node it used. */
function pushToken(scan: ItemScan, nodes: readonly SqlNode[], index: number): number {
  const { items } = scan;
  const token = (nodes[index] as { token: SqlToken }).token;
  const next = nodes[index + 1];
  switch (token.type) {
    case "quoted-identifier":
      items.push({ text: quoteIdentifier(token.value), role: "operand", name: token.value });
      if (scan.cteMode && items[items.length - 2]?.keyword !== "AS") scan.cteName ??= token.value;
      return index;
    case "string": {
      const strings = adjacentStrings(nodes, index);
      items.push({ text: quoteString(strings.value), role: "operand" });
      return strings.last;
    }
    case "number":
      items.push({ text: token.text, role: "operand", numberText: token.text });
      return index;
    case "parameter":
      items.push({ text: "?", role: "operand" });
      return index;
    case "operator":
      items.push(operatorItem(token.text));
      return index;
    case "punct":
      if (token.text === ",") {
        items.push({ text: ",", role: "comma" });
        scan.cteName = undefined;
      } else if (token.text === "." && items.length > 0 && next?.kind === "token") {
        const previous = items[items.length - 1] as Item;
        previous.text = `${previous.text}.${qualifiedPartText(next.token)}`;
        delete previous.name;
        return index + 1;
      } else items.push({ text: token.text, role: "other" });
      return index;
    default:
      return index;
  }
}

/**
 * The item of a word followed by a parenthesised group, taking the group: a CTE name with its column
 * list, a function call, or MySQL's LEFT()/RIGHT(); null when the word is none of these.
 */
function wordWithGroupItem(
  scan: ItemScan,
  nodes: readonly SqlNode[],
  index: number,
  context: RenderContext,
): Item | null {
  const token = (nodes[index] as { token: SqlToken }).token;
  const next = nodes[index + 1];
  if (next?.kind !== "group") return null;
  const upper = token.text.toUpperCase();
  if (scan.cteMode && wordOf(nodes[index + 2]) === "AS" && !keywords.has(upper)) {
    scan.cteName = token.text;
    return {
      text: `${quoteIdentifier(token.text)}(${renderSequence(next.children, context)})`,
      role: "operand",
    };
  }
  if (!keywords.has(upper)) return functionCallItem(token.text, next, context);
  if (upper === "LEFT" || upper === "RIGHT")
    return { text: `${functionNames[upper]}(${renderSequence(next.children, context)})`, role: "operand" };
  return null;
}

/** Adds the item of the word at `index`; returns the index of the last node it used. */
function pushWord(scan: ItemScan, nodes: readonly SqlNode[], index: number, context: RenderContext): number {
  const { items } = scan;
  const token = (nodes[index] as { token: SqlToken }).token;
  const withGroup = wordWithGroupItem(scan, nodes, index, context);
  if (withGroup !== null) {
    items.push(withGroup);
    return index + 1;
  }
  const upper = token.text.toUpperCase();
  if (upper === "CASE") {
    const end = collectCase(nodes, index);
    const inner = nodes.slice(index + 1, end);
    items.push({ text: `CASE ${renderSequence(inner, context)} END`, role: "operand" });
    return end;
  }
  if (upper === "WITH") scan.cteMode = true;
  if (scan.cteMode && /^(SELECT|INSERT|UPDATE|DELETE|REPLACE)$/.test(upper) && scan.cteName === undefined) {
    const previous = items[items.length - 1];
    if (previous?.role !== "word" || previous.keyword !== "AS") scan.cteMode = false;
  }
  const item = wordItem(token.text, nodes[index + 1]?.kind === "group");
  items.push(item);
  if (item.name !== undefined && scan.cteMode && scan.cteName === undefined) scan.cteName = token.text;
  return index;
}

function toItems(nodes: readonly SqlNode[], context: RenderContext): Item[] {
  const scan: ItemScan = { items: [], cteMode: false, cteName: undefined };
  for (let index = 0; index < nodes.length; index += 1) {
    const node = nodes[index] as SqlNode;
    if (node.kind === "group") pushGroup(scan, node, context);
    else if (node.token.type === "word") index = pushWord(scan, nodes, index, context);
    else index = pushToken(scan, nodes, index);
  }
  return scan.items;
}

function takeLeftOperand(out: Item[]): Item[] {
  let start = out.length;
  while (start > 0) {
    const item = out[start - 1] as Item;
    if (item.role === "operand" || item.role === "arith") start -= 1;
    else break;
  }
  while (
    start < out.length &&
    (out[start] as Item).role === "arith" &&
    !/^[-+~]$/.test((out[start] as Item).text)
  )
    start += 1;
  return out.splice(start);
}

function takeRightOperand(items: readonly Item[], from: number): { operand: Item[]; next: number } {
  let index = from;
  const operand: Item[] = [];
  while (
    index < items.length &&
    (items[index] as Item).role === "arith" &&
    /^[-+~]$/.test((items[index] as Item).text)
  ) {
    operand.push(items[index] as Item);
    index += 1;
  }
  if (index >= items.length || (items[index] as Item).role !== "operand") return { operand: [], next: from };
  operand.push(items[index] as Item);
  index += 1;
  while (
    index + 1 < items.length &&
    (items[index] as Item).role === "arith" &&
    (items[index + 1] as Item).role === "operand"
  ) {
    operand.push(items[index] as Item, items[index + 1] as Item);
    index += 2;
  }
  return { operand, next: index };
}

function joinItems(items: readonly Item[]): string {
  return items.map((item) => item.text).join(" ");
}

/** After `SET column =`: a (negative) number literal becomes the string MySQL would store; returns the next index. */
function rewriteAssignedNumber(items: readonly Item[], index: number, out: Item[]): number {
  const { operand, next } = takeRightOperand(items, index + 1);
  if (operand.length === 2 && operand[0]?.text === "-" && operand[1]?.numberText !== undefined) {
    out.push({ text: quoteString(mysqlNumberText(operand[1].numberText, true)), role: "operand" });
    return next;
  }
  if (operand.length === 1 && operand[0]?.numberText !== undefined) {
    out.push({ text: quoteString(mysqlNumberText(operand[0].numberText, false)), role: "operand" });
    return next;
  }
  return index + 1;
}

/** A comparison at `items[index]` whose left operand `left` was already taken off `out`. */
interface PendingComparison {
  items: readonly Item[];
  out: Item[];
  index: number;
  item: Item;
  left: Item[];
  negated: boolean;
}

/** Rewrites one comparison into the hs_* function MySQL's semantics need; returns the next index. */
function rewriteComparison({ items, out, index, item, left, negated }: PendingComparison): number {
  const notText = negated ? "NOT " : "";
  const leftText = joinItems(left);
  const keyword = item.keyword ?? "";
  if (keyword === "BETWEEN") {
    const low = takeRightOperand(items, index + 1);
    const andItem = items[low.next];
    const high = takeRightOperand(items, low.next + 1);
    if (low.operand.length === 0 || andItem?.keyword !== "AND" || high.operand.length === 0) {
      out.push(...left, ...(negated ? [{ text: "NOT", role: "word" as const, keyword: "NOT" }] : []), item);
      return index + 1;
    }
    out.push({
      text: `${notText}hs_between(${leftText}, ${joinItems(low.operand)}, ${joinItems(high.operand)})`,
      role: "operand",
    });
    return high.next;
  }
  const next = items[index + 1];
  if (keyword === "IN") {
    if (next?.role === "operand" && next.text.startsWith("(") && !/^\(\s*(SELECT|WITH)\b/i.test(next.text)) {
      out.push({ text: `${notText}hs_in(${leftText}, ${next.text.slice(1, -1)})`, role: "operand" });
      return index + 2;
    }
    out.push({ text: `${leftText} ${notText}IN`, role: "other" });
    return index + 1;
  }
  if (next?.keyword === "ANY" || next?.keyword === "ALL" || next?.keyword === "SOME") {
    out.push(...left, item);
    return index + 1;
  }
  const right = takeRightOperand(items, index + 1);
  if (right.operand.length === 0) {
    out.push(...left, ...(negated ? [{ text: "NOT", role: "word" as const, keyword: "NOT" }] : []), item);
    return index + 1;
  }
  const rightText = joinItems(right.operand);
  const after = right.next;
  if (keyword === "LIKE") {
    if (items[after]?.keyword === "ESCAPE") {
      const escapeOperand = takeRightOperand(items, after + 1);
      out.push({
        text: `${notText}hs_like(${rightText}, ${leftText}, ${joinItems(escapeOperand.operand)})`,
        role: "operand",
      });
      return escapeOperand.next;
    }
    out.push({ text: `${notText}hs_like(${rightText}, ${leftText})`, role: "operand" });
  } else if (keyword === "REGEXP") {
    out.push({ text: `${notText}hs_regexp(${leftText}, ${rightText})`, role: "operand" });
  } else if (keyword === "<=>") {
    out.push({ text: `hs_null_safe_equal(${leftText}, ${rightText})`, role: "operand" });
  } else {
    const operator = keyword === "!=" ? "<>" : keyword;
    out.push({ text: `(hs_compare(${leftText}, ${rightText}) ${operator} 0)`, role: "operand" });
  }
  return after;
}

function rewriteComparisons(items: readonly Item[]): Item[] {
  const out: Item[] = [];
  let inSet = false;
  let expectAssignment = false;
  let index = 0;
  while (index < items.length) {
    const item = items[index] as Item;
    if (item.role === "word") {
      if (item.keyword === "SET") {
        inSet = true;
        expectAssignment = true;
      } else if (item.keyword === "WHERE" || item.keyword === "ORDER" || item.keyword === "LIMIT")
        inSet = false;
    }
    if (item.role === "comma" && inSet) expectAssignment = true;
    if (item.role !== "compare") {
      out.push(item);
      index += 1;
      continue;
    }
    if (item.keyword === "=" && inSet && expectAssignment) {
      expectAssignment = false;
      out.push(item);
      index = rewriteAssignedNumber(items, index, out);
      continue;
    }
    const negated = out[out.length - 1]?.keyword === "NOT" && comparisonWords.has(item.keyword ?? "");
    if (negated) out.pop();
    const left = takeLeftOperand(out);
    if (left.length === 0) {
      if (negated) out.push({ text: "NOT", role: "word", keyword: "NOT" });
      out.push(item);
      index += 1;
      continue;
    }
    index = rewriteComparison({ items, out, index, item, left, negated });
  }
  return out;
}

function wrapTableReferences(items: Item[], context: RenderContext): Item[] {
  const out: Item[] = [];
  let inFrom = false;
  let isDelete = false;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index] as Item;
    out.push(item);
    if (item.keyword === "DELETE") isDelete = true;
    if (item.keyword === "FROM" || item.keyword === "JOIN" || item.keyword === "STRAIGHT_JOIN") {
      inFrom = !(item.keyword === "FROM" && isDelete);
      isDelete = false;
      if (!inFrom) continue;
    } else if (item.role === "comma" && inFrom) {
      // another table of a comma join
    } else {
      if (item.role === "word" && clauseEndWords.has(item.keyword ?? "")) inFrom = false;
      continue;
    }
    const table = items[index + 1];
    if (table?.role === "operand" && table.text.startsWith("'")) {
      throw new SqlSyntaxError("a string literal is not a table name", table.text);
    }
    if (table?.role !== "operand" || table.name === undefined || context.noWrap.has(table.name.toLowerCase()))
      continue;
    const after = items[index + 2];
    const hasAlias =
      after?.keyword === "AS" ||
      (after?.role === "operand" &&
        after.name !== undefined &&
        !clauseEndWords.has(after.name.toUpperCase()));
    const alias = hasAlias ? "" : ` AS ${table.text}`;
    out.push({ text: `(SELECT * FROM ${table.text} WHERE hs_tick(rowid))${alias}`, role: "operand" });
    index += 1;
  }
  return out;
}

function renderSequence(nodes: readonly SqlNode[], context: RenderContext): string {
  const items = rewriteComparisons(toItems(nodes, context));
  return joinItems(wrapTableReferences(items, context));
}

function renderStatementNodes(nodes: readonly SqlNode[], context: RenderContext): string {
  const items = rewriteComparisons(toItems(nodes, context));
  return joinItems(wrapTableReferences(items, context)).trim();
}

/**
 * Rewrites one MySQL statement into SQLite SQL that, with the functions of `registerMysqlFunctions`,
 * behaves as MySQL does on DBBench tables: identifiers and strings re-quoted, comparisons, LIKE, IN,
 * BETWEEN and REGEXP routed through MySQL-semantics functions (collation that ignores case and
 * accents, numeric comparison of text with numbers), MySQL functions mapped, numeric literals
 * stored as MySQL stores them in TEXT columns, and every table scan passing a deadline check.
 */
export function mysqlToSqlite(sql: string): SqliteStatement {
  const tokens = tokenizeMysql(sql);
  const tree = buildTree(tokens, sql);
  const statements: SqlNode[][] = [[]];
  for (const node of tree) {
    if (node.kind === "token" && node.token.type === "punct" && node.token.text === ";") statements.push([]);
    else (statements[statements.length - 1] as SqlNode[]).push(node);
  }
  const nonEmpty = statements.filter((statement) => statement.length > 0);
  if (nonEmpty.length > 1) throw new SqlSyntaxError("only one statement may be executed at a time", sql);
  const nodes = nonEmpty[0] ?? [];
  const context: RenderContext = { noWrap: collectCteNames(nodes, new Set()) };
  const items = toItems(nodes, context);
  const withNumbers =
    items[0]?.keyword === "INSERT" || items[0]?.keyword === "REPLACE" ? quoteValueNumbersDeep(items) : items;
  const rewritten = rewriteComparisons(withNumbers);
  return { sql: joinItems(wrapTableReferences(rewritten, context)).trim() };
}

function nameOf(node: SqlNode | undefined): string | undefined {
  if (node?.kind !== "token") return undefined;
  if (node.token.type === "quoted-identifier") return node.token.value;
  return node.token.type === "word" ? node.token.text : undefined;
}

function collectCteNames(nodes: readonly SqlNode[], names: Set<string>): Set<string> {
  nodes.forEach((node, index) => {
    if (node.kind === "group") {
      collectCteNames(node.children, names);
      return;
    }
    const name = nameOf(node);
    if (name === undefined) return;
    const next = nodes[index + 1];
    const afterColumns = next?.kind === "group" ? nodes[index + 2] : next;
    const body = next?.kind === "group" ? nodes[index + 3] : nodes[index + 2];
    const previous = wordOf(nodes[index - 1]);
    const startsDefinition =
      previous === "WITH" ||
      previous === "RECURSIVE" ||
      (nodes[index - 1]?.kind === "token" && (nodes[index - 1] as { token: SqlToken }).token.text === ",");
    if (
      startsDefinition &&
      wordOf(afterColumns) === "AS" &&
      body?.kind === "group" &&
      isGroupSubquery(body)
    ) {
      names.add(name.toLowerCase());
    }
  });
  return names;
}

function quoteValueNumbersDeep(items: Item[]): Item[] {
  const valuesIndex = items.findIndex((item) => item.keyword === "VALUES");
  if (valuesIndex < 0) return items;
  return items.map((item, index) => {
    if (index <= valuesIndex || item.role !== "operand" || !item.text.startsWith("(")) return item;
    const inner = tokenizeMysqlSafe(item.text);
    return inner === undefined ? item : { ...item, text: inner };
  });
}

function tokenizeMysqlSafe(groupText: string): string | undefined {
  const parts = splitTopLevel(groupText.slice(1, -1));
  if (parts === undefined) return undefined;
  const rendered = parts.map((part) => {
    const trimmed = part.trim();
    const match = /^(-?)\s*(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.exec(trimmed);
    if (!match) return trimmed;
    return quoteString(mysqlNumberText(`${match[2]}${match[3] ?? ""}`, match[1] === "-"));
  });
  return `(${rendered.join(", ")})`;
}

function splitTopLevel(text: string): string[] | undefined {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let current = "";
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index] as string;
    if (quote !== undefined) {
      current += character;
      if (character === quote) {
        if (text[index + 1] === quote) {
          current += quote;
          index += 1;
        } else quote = undefined;
      }
      continue;
    }
    if (character === "'" || character === '"') quote = character;
    else if (character === "(") depth += 1;
    else if (character === ")") depth -= 1;
    else if (character === "," && depth === 0) {
      parts.push(current);
      current = "";
      continue;
    }
    current += character;
  }
  if (quote !== undefined || depth !== 0) return undefined;
  parts.push(current);
  return parts;
}
