import { createHash } from "node:crypto";
import type BetterSqlite3 from "better-sqlite3";
import {
  checkStrictComparison,
  compareText,
  mysqlBetween,
  mysqlCompare,
  mysqlIn,
  mysqlLike,
  mysqlRegexp,
  mysqlToNumber,
  type SqlValue,
  sqlValueText,
} from "./mysql-semantics.js";

/** Thrown inside SQLite callbacks when the statement's time is up. */
export class DeadlineExceededError extends Error {
  override readonly name = "DeadlineExceededError";
}

/** The per-database clock the callbacks consult. */
export interface DeadlineState {
  /** Epoch milliseconds after which callbacks abort the statement; Infinity for none. */
  deadline: number;
  /** Reads the clock. */
  now: () => number;
  /** Database name reported by DATABASE(). */
  databaseName: string;
  /**
   * Whether comparisons of a non-numeric text with a number fail (error 1292), as in an UPDATE under
   * MySQL's strict mode; set for the statement being run.
   */
  strictComparisons?: boolean;
}

function nullIfAny(values: readonly SqlValue[]): boolean {
  return values.some((value) => value === null);
}

function text(value: SqlValue): string {
  return sqlValueText(value);
}

function integer(value: SqlValue): number {
  return Math.trunc(mysqlToNumber(value) ?? 0);
}

function roundHalfAwayFromZero(value: number, digits: number): number {
  const factor = 10 ** digits;
  const shifted = Math.abs(value) * factor;
  const rounded = Math.round(Number(shifted.toPrecision(15)));
  return (Math.sign(value) * rounded) / factor;
}

function numberResult(value: number): number | bigint {
  return Number.isInteger(value) && Math.abs(value) <= Number.MAX_SAFE_INTEGER ? BigInt(value) : value;
}

/**
 * Registers on a better-sqlite3 database the functions the MySQL-to-SQLite rewrite calls: the
 * MySQL comparison, LIKE, IN, BETWEEN and REGEXP semantics, MySQL's string and numeric functions,
 * SUM/AVG over text by MySQL's string-to-number rule (as doubles), MIN/MAX by the collation, and
 * `hs_tick()`, the deadline check every table scan passes. Every callback checks the deadline.
 */
export function registerMysqlFunctions(database: BetterSqlite3.Database, state: DeadlineState): void {
  let calls = 0;
  const check = () => {
    calls += 1;
    if ((calls & 63) === 0 && state.now() > state.deadline)
      throw new DeadlineExceededError("statement deadline exceeded");
  };
  const scalar = (name: string, body: (...args: SqlValue[]) => unknown) => {
    database.function(name, { varargs: true, deterministic: false }, (...args: unknown[]) => {
      check();
      return body(...(args as SqlValue[]));
    });
  };
  scalar("hs_tick", () => 1n);
  const strict = (...values: SqlValue[]) => {
    if (state.strictComparisons !== true) return;
    const [first, ...others] = values;
    for (const other of others) checkStrictComparison(first ?? null, other ?? null);
  };
  scalar("hs_compare", (left, right) => {
    strict(left ?? null, right ?? null);
    const result = mysqlCompare(left ?? null, right ?? null);
    return result === null ? null : BigInt(result);
  });
  scalar("hs_null_safe_equal", (left, right) => {
    strict(left ?? null, right ?? null);
    if (left === null || right === null) return left === right ? 1n : 0n;
    return mysqlCompare(left ?? null, right ?? null) === 0 ? 1n : 0n;
  });
  scalar("hs_like", (pattern, value, escapeCharacter) => {
    const result = mysqlLike(
      pattern ?? null,
      value ?? null,
      escapeCharacter === undefined ? "\\" : escapeCharacter,
    );
    return result === null ? null : BigInt(result);
  });
  scalar("hs_regexp", (value, pattern) => {
    const result = mysqlRegexp(value ?? null, pattern ?? null);
    return result === null ? null : BigInt(result);
  });
  scalar("hs_in", (value, ...list) => {
    strict(value ?? null, ...list);
    const result = mysqlIn(value ?? null, ...list);
    return result === null ? null : BigInt(result);
  });
  scalar("hs_between", (value, low, high) => {
    strict(value ?? null, low ?? null, high ?? null);
    const result = mysqlBetween(value ?? null, low ?? null, high ?? null);
    return result === null ? null : BigInt(result);
  });
  scalar("hs_if", (condition, whenTrue, whenFalse) => {
    const truth = condition !== null && condition !== undefined && (mysqlToNumber(condition) ?? 0) !== 0;
    return truth ? (whenTrue ?? null) : (whenFalse ?? null);
  });
  scalar("hs_left", (value, length) =>
    nullIfAny([value ?? null, length ?? null])
      ? null
      : [...text(value ?? "")].slice(0, Math.max(0, integer(length ?? 0))).join(""),
  );
  scalar("hs_right", (value, length) => {
    if (nullIfAny([value ?? null, length ?? null])) return null;
    const count = Math.max(0, integer(length ?? 0));
    const characters = [...text(value ?? "")];
    return count === 0 ? "" : characters.slice(-count).join("");
  });
  scalar("hs_locate", (needle, haystack, start) => {
    if (nullIfAny([needle ?? null, haystack ?? null])) return null;
    const from = start === undefined ? 1 : integer(start);
    if (from < 1) return 0n;
    const hay = [...text(haystack ?? "")];
    const need = [...text(needle ?? "")];
    for (let index = from - 1; index + need.length <= hay.length; index += 1) {
      if (compareText(hay.slice(index, index + need.length).join(""), need.join("")) === 0)
        return BigInt(index + 1);
    }
    return 0n;
  });
  scalar("hs_instr", (haystack, needle) => {
    if (nullIfAny([needle ?? null, haystack ?? null])) return null;
    const hay = [...text(haystack ?? "")];
    const need = [...text(needle ?? "")];
    for (let index = 0; index + need.length <= hay.length; index += 1) {
      if (compareText(hay.slice(index, index + need.length).join(""), need.join("")) === 0)
        return BigInt(index + 1);
    }
    return 0n;
  });
  scalar("hs_octet_length", (value) =>
    value === null ? null : BigInt(Buffer.byteLength(text(value ?? ""))),
  );
  scalar("hs_char_length", (value) => (value === null ? null : BigInt([...text(value ?? "")].length)));
  scalar("hs_concat", (...values) => (nullIfAny(values) ? null : values.map(text).join("")));
  scalar("hs_concat_ws", (separator, ...values) =>
    separator === null
      ? null
      : values
          .filter((value) => value !== null)
          .map(text)
          .join(text(separator ?? "")),
  );
  scalar("hs_substring_index", (value, delimiter, count) => {
    if (nullIfAny([value ?? null, delimiter ?? null, count ?? null])) return null;
    const parts = text(value ?? "").split(text(delimiter ?? ""));
    const n = integer(count ?? 0);
    if (n === 0 || text(delimiter ?? "") === "") return "";
    return n > 0 ? parts.slice(0, n).join(text(delimiter ?? "")) : parts.slice(n).join(text(delimiter ?? ""));
  });
  const extreme =
    (sign: number) =>
    (...values: SqlValue[]) => {
      if (nullIfAny(values)) return null;
      let best = values[0] ?? null;
      for (const value of values.slice(1)) {
        const order = mysqlCompare(value, best);
        if (order !== null && order * sign > 0) best = value;
      }
      return best;
    };
  scalar("hs_greatest", extreme(1));
  scalar("hs_least", extreme(-1));
  scalar("hs_isnull", (value) => (value === null ? 1n : 0n));
  scalar("hs_strcmp", (left, right) => {
    if (nullIfAny([left ?? null, right ?? null])) return null;
    return BigInt(compareText(text(left ?? ""), text(right ?? "")));
  });
  scalar("hs_truncate", (value, digits) => {
    if (nullIfAny([value ?? null, digits ?? null])) return null;
    const factor = 10 ** integer(digits ?? 0);
    return Math.trunc((mysqlToNumber(value ?? null) ?? 0) * factor) / factor;
  });
  scalar("hs_repeat", (value, count) =>
    nullIfAny([value ?? null, count ?? null])
      ? null
      : text(value ?? "").repeat(Math.max(0, Math.min(integer(count ?? 0), 1_000_000))),
  );
  const pad = (left: boolean) => (value: SqlValue, length: SqlValue, fill: SqlValue) => {
    if (nullIfAny([value, length, fill])) return null;
    const characters = [...text(value)];
    const target = integer(length);
    if (target < 0) return null;
    if (characters.length >= target) return characters.slice(0, target).join("");
    const filler = [...text(fill)];
    if (filler.length === 0) return null;
    const padding: string[] = [];
    while (padding.length < target - characters.length)
      padding.push(filler[padding.length % filler.length] as string);
    return left ? padding.join("") + characters.join("") : characters.join("") + padding.join("");
  };
  scalar("hs_lpad", (value, length, fill) => pad(true)(value ?? null, length ?? null, fill ?? null));
  scalar("hs_rpad", (value, length, fill) => pad(false)(value ?? null, length ?? null, fill ?? null));
  scalar("hs_reverse", (value) => (value === null ? null : [...text(value ?? "")].reverse().join("")));
  scalar("hs_space", (count) =>
    count === null ? null : " ".repeat(Math.max(0, Math.min(integer(count ?? 0), 1_000_000))),
  );
  scalar("hs_field", (value, ...list) => {
    if (value === null) return 0n;
    const index = list.findIndex((candidate) => mysqlCompare(value ?? null, candidate) === 0);
    return BigInt(index + 1);
  });
  scalar("hs_find_in_set", (value, list) => {
    if (nullIfAny([value ?? null, list ?? null])) return null;
    const index = text(list ?? "")
      .split(",")
      .findIndex((item) => compareText(item, text(value ?? "")) === 0);
    return BigInt(index + 1);
  });
  const numeric =
    (operation: (value: number, digits: number) => number) => (value: SqlValue, digits: SqlValue) => {
      if (value === null || digits === null) return null;
      if (typeof value === "bigint" && digits === undefined) return value;
      const number = mysqlToNumber(value) ?? 0;
      const result = operation(number, digits === undefined ? 0 : integer(digits));
      return typeof value === "string" || typeof value === "number" ? result : numberResult(result);
    };
  scalar("hs_ceil", (value) =>
    numeric((number) => Math.ceil(number))(value ?? null, undefined as unknown as SqlValue),
  );
  scalar("hs_floor", (value) =>
    numeric((number) => Math.floor(number))(value ?? null, undefined as unknown as SqlValue),
  );
  scalar("hs_round", (value, digits) =>
    numeric(roundHalfAwayFromZero)(
      value ?? null,
      digits === undefined ? (undefined as unknown as SqlValue) : digits,
    ),
  );
  scalar("hs_abs", (value) => {
    if (value === null || value === undefined) return null;
    if (typeof value === "bigint") return value < 0n ? -value : value;
    return Math.abs(mysqlToNumber(value) ?? 0);
  });
  scalar("hs_md5", (value) =>
    value === null
      ? null
      : createHash("md5")
          .update(text(value ?? ""))
          .digest("hex"),
  );
  scalar("hs_year", (value) => {
    if (value === null) return null;
    const match = /^\s*(\d{4})-\d{1,2}-\d{1,2}/.exec(text(value ?? ""));
    return match ? BigInt(match[1] as string) : null;
  });
  scalar("hs_now", () => new Date(state.now()).toISOString().slice(0, 19).replace("T", " "));
  scalar("hs_curdate", () => new Date(state.now()).toISOString().slice(0, 10));
  scalar("hs_version", () => "8.0.0-hs-sqlite");
  scalar("hs_database", () => state.databaseName);

  const aggregate = <T>(
    name: string,
    start: () => T,
    step: (total: T, value: SqlValue) => T,
    result: (total: T) => unknown,
  ) => {
    database.aggregate(name, {
      start,
      step: (total: T, value: unknown) => {
        check();
        return step(total, (value ?? null) as SqlValue);
      },
      result: (total: T) => result(total),
      deterministic: false,
    });
  };
  aggregate(
    "hs_sum",
    () => ({ sum: 0, count: 0, integers: true, bigSum: 0n }),
    (total, value) => {
      if (value === null) return total;
      if (typeof value === "bigint")
        return {
          ...total,
          sum: total.sum + Number(value),
          count: total.count + 1,
          bigSum: total.bigSum + value,
        };
      return {
        ...total,
        sum: total.sum + (mysqlToNumber(value) ?? 0),
        count: total.count + 1,
        integers: false,
      };
    },
    (total) => (total.count === 0 ? null : total.integers ? total.bigSum : total.sum),
  );
  aggregate(
    "hs_avg",
    () => ({ sum: 0, count: 0 }),
    (total, value) =>
      value === null ? total : { sum: total.sum + (mysqlToNumber(value) ?? 0), count: total.count + 1 },
    (total) => (total.count === 0 ? null : total.sum / total.count),
  );
  const extremeAggregate = (sign: number) => ({
    start: () => ({ best: null as SqlValue }),
    step: (total: { best: SqlValue }, value: SqlValue) => {
      if (value === null) return total;
      if (total.best === null) return { best: value };
      const order = mysqlCompare(value, total.best);
      return order !== null && order * sign > 0 ? { best: value } : total;
    },
  });
  for (const [name, sign] of [
    ["hs_min", -1],
    ["hs_max", 1],
  ] as const) {
    const { start, step } = extremeAggregate(sign);
    aggregate(name, start, step, (total) => total.best);
  }
}
