/** A token of MySQL-dialect SQL. */
export interface SqlToken {
  /** Token class. */
  type:
    | "space"
    | "comment"
    | "word"
    | "quoted-identifier"
    | "string"
    | "number"
    | "operator"
    | "punct"
    | "parameter";
  /** Source text. */
  text: string;
  /** Decoded value: the identifier name for quoted identifiers, the string for string literals. */
  value: string;
}

const mysqlEscapes: Record<string, string> = {
  "0": "\0",
  "'": "'",
  '"': '"',
  b: "\b",
  n: "\n",
  r: "\r",
  t: "\t",
  Z: "\x1a",
  "\\": "\\",
  "%": "\\%",
  _: "\\_",
};

const operators = [
  "<=>",
  "<>",
  "!=",
  "<=",
  ">=",
  "<<",
  ">>",
  "||",
  "&&",
  ":=",
  "=",
  "<",
  ">",
  "+",
  "-",
  "*",
  "/",
  "%",
  "&",
  "|",
  "^",
  "~",
  "!",
];

interface QuotedToken {
  token: SqlToken;
  /** Position just after the closing quote. */
  end: number;
}

/**
 * Reads the quoted text at `position` up to its closing quote (a doubled quote stands for itself);
 * with `backslashEscapes`, `\x` is read through `mysqlEscapes` as MySQL reads string literals.
 */
function readQuoted(sql: string, position: number, backslashEscapes: boolean) {
  const quote = sql[position] as string;
  let value = "";
  let index = position + 1;
  while (index < sql.length) {
    const current = sql[index] as string;
    if (backslashEscapes && current === "\\" && index + 1 < sql.length) {
      const next = sql[index + 1] as string;
      value += mysqlEscapes[next] ?? next;
      index += 2;
    } else if (current !== quote) {
      value += current;
      index += 1;
    } else if (sql[index + 1] === quote) {
      value += quote;
      index += 2;
    } else {
      return { value, end: index + 1 };
    }
  }
  const rest = sql.slice(position);
  const what = backslashEscapes ? "string literal" : "quoted identifier";
  throw new SqlSyntaxError(`unterminated ${what} near '${rest.slice(0, 40)}'`, rest);
}

/** Reads the `'...'` or `"..."` string literal at `position` (backslash escapes, doubled quotes). */
function readString(sql: string, position: number): QuotedToken {
  const { value, end } = readQuoted(sql, position, true);
  return { token: { type: "string", text: sql.slice(position, end), value }, end };
}

/** Reads the `` `...` `` identifier at `position` (doubled backquotes). */
function readQuotedIdentifier(sql: string, position: number): QuotedToken {
  const { value, end } = readQuoted(sql, position, false);
  return { token: { type: "quoted-identifier", text: sql.slice(position, end), value }, end };
}

/**
 * Splits MySQL SQL into tokens as MySQL's default sql_mode reads it: `'...'` and `"..."` are string
 * literals with backslash escapes (`\n`, `\'`; `\%` and `\_` keep their backslash for LIKE),
 * `` `...` `` are identifiers, `#`, `-- ` and `/* *\/` are comments. Throws on an unterminated
 * literal with MySQL's wording.
 */
export function tokenizeMysql(sql: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  let position = 0;
  while (position < sql.length) {
    const character = sql[position] as string;
    const rest = sql.slice(position);
    if (/\s/.test(character)) {
      const text = /^\s+/.exec(rest)?.[0] ?? character;
      tokens.push({ type: "space", text, value: text });
      position += text.length;
      continue;
    }
    if (
      character === "#" ||
      rest.startsWith("-- ") ||
      rest.startsWith("--\t") ||
      rest === "--" ||
      rest.startsWith("--\n")
    ) {
      const end = sql.indexOf("\n", position);
      const text = end < 0 ? rest : sql.slice(position, end);
      tokens.push({ type: "comment", text, value: text });
      position += text.length;
      continue;
    }
    if (rest.startsWith("/*")) {
      const end = sql.indexOf("*/", position + 2);
      const text = end < 0 ? rest : sql.slice(position, end + 2);
      tokens.push({ type: "comment", text, value: text });
      position += text.length;
      continue;
    }
    if (character === "'" || character === '"' || character === "`") {
      const quoted = character === "`" ? readQuotedIdentifier(sql, position) : readString(sql, position);
      tokens.push(quoted.token);
      position = quoted.end;
      continue;
    }
    // MySQL identifiers may begin with a digit (`1952_olympics`) unless they are all digits: a number
    // is only a number when no name character follows it (digits included, so `1952_x` does not split
    // into 195 and 2_x)
    const number = /^(0x[0-9a-fA-F]+|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)(?![A-Za-z0-9_$\u0080-\uffff])/.exec(
      rest,
    );
    if (number && !(character === "." && tokens.length > 0 && isNameToken(tokens[tokens.length - 1]))) {
      tokens.push({ type: "number", text: number[0], value: number[0] });
      position += number[0].length;
      continue;
    }
    const word = /^[A-Za-z0-9_$\u0080-\uffff]+/.exec(rest);
    if (word) {
      tokens.push({ type: "word", text: word[0], value: word[0] });
      position += word[0].length;
      continue;
    }
    const operator = operators.find((candidate) => rest.startsWith(candidate));
    if (operator !== undefined) {
      tokens.push({ type: "operator", text: operator, value: operator });
      position += operator.length;
      continue;
    }
    if (character === "?") {
      tokens.push({ type: "parameter", text: "?", value: "?" });
      position += 1;
      continue;
    }
    tokens.push({ type: "punct", text: character, value: character });
    position += 1;
  }
  return tokens;
}

function isNameToken(token: SqlToken | undefined): boolean {
  return token !== undefined && (token.type === "word" || token.type === "quoted-identifier");
}

/** SQL that cannot be read (an unterminated literal, unbalanced parentheses). */
export class SqlSyntaxError extends Error {
  override readonly name = "SqlSyntaxError";
  constructor(
    message: string,
    /** The text from where reading failed, for MySQL-style "near '...'" messages. */
    readonly near: string,
  ) {
    super(message);
  }
}
