import { describe, expect, it } from "vitest";
import { gradeFcToolArguments } from "./fc-commit.js";
import { gradeFcAnswer, gradeV02Answer } from "./grade-answer.js";

// A differential test of the graders over generated answers (control characters, whitespace classes,
// number spellings, JSON number forms). The expected verdicts come from an oracle written from
// AgentBench's rules, not from our code: every answer is built from pieces whose Python behaviour is
// stated by hand in the tables below (which characters str.strip(), float() and eval() accept, what
// float() and eval() make of each spelling), and the oracle applies AgentBench's steps to the pieces.
// v0.2 = THUDM/AgentBench@v0.2 src/server/tasks/dbbench/__init__.py lines 189-206; FC = THUDM/
// AgentBench (main) src/server/tasks/dbbench/result_processor.py lines 22-78 and 115-272. The oracle
// was checked once against Python 3.11 running AgentBench's own functions on every generated case
// (54,084, no disagreement); this test needs no Python.

/** One character and the Python facts about it. */
interface Space {
  char: string;
  /** `str.strip()` removes it (`str.isspace()`). */
  strip: boolean;
  /** `float()` ignores it around a number. */
  float: boolean;
  /** `eval()` accepts it before or after an expression and between tokens. */
  evalSpace: boolean;
  /** `eval()` accepts it inside a '...' literal. */
  inString: boolean;
}

const spaces: Space[] = [
  { char: "", strip: true, float: true, evalSpace: true, inString: true },
  { char: " ", strip: true, float: true, evalSpace: true, inString: true },
  { char: "\t", strip: true, float: true, evalSpace: true, inString: true },
  { char: "\f", strip: true, float: true, evalSpace: true, inString: true },
  { char: "\r", strip: true, float: true, evalSpace: true, inString: false },
  { char: "\v", strip: true, float: true, evalSpace: false, inString: true },
  { char: "\x1c", strip: true, float: false, evalSpace: false, inString: true },
  { char: "\x1d", strip: true, float: false, evalSpace: false, inString: true },
  { char: "\x1e", strip: true, float: false, evalSpace: false, inString: true },
  { char: "\x1f", strip: true, float: false, evalSpace: false, inString: true },
  { char: "\x85", strip: true, float: true, evalSpace: false, inString: true },
  { char: "\xa0", strip: true, float: true, evalSpace: false, inString: true },
  { char: "\u2000", strip: true, float: true, evalSpace: false, inString: true },
  { char: "\u2028", strip: true, float: true, evalSpace: false, inString: true },
  { char: "\u3000", strip: true, float: true, evalSpace: false, inString: true },
  { char: "\u200b", strip: false, float: false, evalSpace: false, inString: true },
  { char: "\ufeff", strip: false, float: false, evalSpace: false, inString: true },
  { char: "\x00", strip: false, float: false, evalSpace: false, inString: false },
];

/** What eval() makes of a spelling as an expression. */
type Literal = { kind: "int" | "float"; value: number } | { kind: "tuple" } | undefined;

/** A number spelling and the Python facts about it. */
interface Spelling {
  text: string;
  /** `float(text)`; undefined where it raises. */
  float: number | undefined;
  /** `eval(text)`. */
  literal: Literal;
  /** The spelling after FC's `str_value.replace(',', '')` (line 135), when it has a comma. */
  noCommas?: string;
}

const int = (value: number): Literal => ({ kind: "int", value });
const float = (value: number): Literal => ({ kind: "float", value });

const spellings: Spelling[] = [
  { text: "12", float: 12, literal: int(12) },
  { text: "12.0", float: 12, literal: float(12) },
  { text: "+12", float: 12, literal: int(12) },
  { text: "-12", float: -12, literal: int(-12) },
  { text: "1_2", float: 12, literal: int(12) },
  { text: "12.", float: 12, literal: float(12) },
  { text: "1.2e1", float: 12, literal: float(12) },
  { text: "12.005", float: 12.005, literal: float(12.005) },
  { text: "012", float: 12, literal: undefined },
  { text: "0x0c", float: undefined, literal: int(12) },
  { text: "١٢", float: 12, literal: undefined },
  { text: "１２", float: 12, literal: undefined },
  { text: "1e400", float: Number.POSITIVE_INFINITY, literal: float(Number.POSITIVE_INFINITY) },
  { text: "inf", float: Number.POSITIVE_INFINITY, literal: undefined },
  { text: "nan", float: Number.NaN, literal: undefined },
  { text: "1__2", float: undefined, literal: undefined },
  { text: "Giza", float: undefined, literal: undefined },
  { text: "12,0", float: undefined, literal: { kind: "tuple" }, noCommas: "120" },
  { text: "1,000", float: undefined, literal: { kind: "tuple" }, noCommas: "1000" },
  { text: "120", float: 120, literal: int(120) },
  { text: "1000", float: 1000, literal: int(1000) },
];

const spellingOf = new Map(spellings.map((spelling) => [spelling.text, spelling]));

/** Labels (one element) and `float(label)`. */
const labels: { text: string; float: number | undefined }[] = [
  { text: "12", float: 12 },
  { text: "12.0", float: 12 },
  { text: "-12", float: -12 },
  { text: "Giza", float: undefined },
  { text: "0", float: 0 },
  { text: "120", float: 120 },
  { text: "1000", float: 1000 },
];

/** An answer as pieces: characters from `spaces` around one spelling. */
interface Pieces {
  before: Space[];
  spelling: Spelling;
  after: Space[];
  /** A comma follows `after` (it shields `after` from strip() until the commas go). */
  commaAfter?: true;
}

const textOf = (pieces: Pieces) =>
  pieces.before.map((space) => space.char).join("") +
  pieces.spelling.text +
  pieces.after.map((space) => space.char).join("");

/** `s.strip(...)` with the characters a predicate accepts. */
function stripPieces(pieces: Pieces, accepts: (space: Space) => boolean): Pieces {
  const trim = (list: Space[]) => {
    const kept = [...list];
    while (kept.length > 0 && accepts(kept[0] as Space)) kept.shift();
    return kept;
  };
  return {
    before: trim(pieces.before),
    spelling: pieces.spelling,
    after: trim([...pieces.after].reverse()).reverse(),
  };
}

/** Python's `float()` of the pieces' text. */
function floatOf(pieces: Pieces): number | undefined {
  const stripped = stripPieces(pieces, (space) => space.float);
  const nothingLeft = [...stripped.before, ...stripped.after].every((space) => space.char === "");
  return nothingLeft ? pieces.spelling.float : undefined;
}

// ---- v0.2 (lines 189-197): ans = list(eval(ans)) or [ans]; one each: float ==, else ==; else sets

type V02Element = { text: string; pieces: Pieces | undefined } | { number: number };

function v02Verdict(elements: V02Element[] | "two or more", label: (typeof labels)[number]): boolean {
  if (elements === "two or more") return false; // set(ans) == set(cor): ints never equal the label's str
  const [element] = elements as [V02Element];
  const answerFloat = "number" in element ? element.number : element.pieces && floatOf(element.pieces);
  if (answerFloat !== undefined && label.float !== undefined) return answerFloat === label.float;
  return "text" in element && element.text === label.text;
}

function listOfLiteral(literal: Literal): V02Element[] | "two or more" | undefined {
  if (literal === undefined) return undefined;
  return literal.kind === "tuple" ? "two or more" : [{ number: literal.value }];
}

/** A bare spelling between two characters: eval, then list() of a number raises, so [text]. */
function v02Bare(lead: Space, spelling: Spelling, trail: Space): V02Element[] | "two or more" {
  const pieces = { before: [lead], spelling, after: [trail] };
  const evaluates = lead.evalSpace && trail.evalSpace && spelling.literal !== undefined;
  if (evaluates && spelling.literal?.kind === "tuple") return "two or more";
  return [{ text: textOf(pieces), pieces }];
}

/** ` ['<in1><spelling><in2>']`: a one-string list when eval reads the literal. */
function v02Quoted(inner: Pieces): V02Element[] {
  const evaluates = [...inner.before, ...inner.after].every((space) => space.inString);
  if (evaluates) return [{ text: textOf(inner), pieces: inner }];
  return [{ text: ` ['${textOf(inner)}']`, pieces: undefined }];
}

/** ` [<in1><spelling><in2>]`: the number itself when eval reads it. */
function v02Bracketed(inner: Pieces): V02Element[] | "two or more" {
  const evaluates = [...inner.before, ...inner.after].every((space) => space.evalSpace);
  const list = evaluates ? listOfLiteral(inner.spelling.literal) : undefined;
  return list ?? [{ text: ` [${textOf(inner)}]`, pieces: undefined }];
}

// ---- FC (lines 115-155 normalise, 198-263 clean, 35-49 compare one value)

const specials = new Set(["none", "null", "undefined", "nan", "inf", "infinity", "-inf", "-infinity", ""]);

/** `_normalize_special_values(s.strip().strip("'\""))` of the pieces. */
function fcNormalize(pieces: Pieces): Pieces {
  const stripped = pieces.commaAfter
    ? {
        before: stripPieces(pieces, (space) => space.strip).before,
        spelling: pieces.spelling,
        after: pieces.after,
      }
    : stripPieces(pieces, (space) => space.strip);
  const noCommas = stripped.spelling.noCommas;
  const normalized =
    noCommas === undefined ? stripped : { ...stripped, spelling: spellingOf.get(noCommas) as Spelling };
  return specials.has(textOf(normalized).toLowerCase())
    ? { before: [], spelling: spellingOf.get("0") ?? zero, after: [] }
    : normalized;
}

const zero: Spelling = { text: "0", float: 0, literal: int(0) };

function fcVerdict(pieces: Pieces, label: (typeof labels)[number]): boolean {
  const answer = fcNormalize(pieces);
  const text = textOf(answer);
  if (text === "0" && label.text === "0") return true;
  const answerFloat = text === "0" ? 0 : floatOf(answer);
  if (answerFloat !== undefined && label.float !== undefined)
    return Math.abs(answerFloat - label.float) <= 1e-2;
  return text === label.text;
}

/** Each character alone before, alone after, and on both sides. */
function* pairs(list: readonly Space[]): Generator<[Space, Space]> {
  const none = list[0] as Space;
  for (const space of list) {
    yield [space, none];
    if (space !== none) yield [none, space];
    if (space !== none) yield [space, space];
  }
}

describe("the graders against an oracle of AgentBench's rules, over generated answers", () => {
  it("v0.2: bare spellings, quoted lists and bracketed numbers between whitespace and control characters", () => {
    const disagreements: string[] = [];
    let cases = 0;
    for (const spelling of spellings) {
      for (const [first, second] of pairs(spaces)) {
        const inner = { before: [first], spelling, after: [second] };
        const shapes: [string, V02Element[] | "two or more"][] = [
          [`${first.char}${spelling.text}${second.char}`, v02Bare(first, spelling, second)],
          [` ['${textOf(inner)}']`, v02Quoted(inner)],
          [` [${textOf(inner)}]`, v02Bracketed(inner)],
        ];
        for (const [answer, elements] of shapes) {
          for (const label of labels) {
            cases += 1;
            const expected = v02Verdict(elements, label);
            const actual = gradeV02Answer(answer, [label.text]);
            if (actual !== expected)
              disagreements.push(`${JSON.stringify(answer)} vs ${label.text}: ours ${actual}`);
          }
        }
      }
    }
    expect(cases).toBeGreaterThan(20_000);
    expect(disagreements.slice(0, 20)).toEqual([]);
  }, 60_000);

  it('FC: strings, quoted-list strings, an unterminated list ("[\'x,]", which does not evaluate) and one-string lists', () => {
    const disagreements: string[] = [];
    let cases = 0;
    for (const spelling of spellings) {
      for (const [first, second] of pairs(spaces)) {
        const inner = { before: [first], spelling, after: [second] };
        // "['<spelling><c>,]" does not evaluate, so the quote-aware split keeps "<spelling><c>," (lines 231-246)
        const unterminated: Pieces = { before: [], spelling, after: [second], commaAfter: true };
        const shapes: [unknown, Pieces][] = [
          [textOf(inner), inner],
          [`['${textOf(inner)}']`, inner],
          [`['${spelling.text}${second.char},]`, unterminated],
          [[textOf(inner)], inner],
        ];
        for (const [answer, pieces] of shapes) {
          for (const label of labels) {
            cases += 1;
            const expected = fcVerdict(pieces, label);
            const actual = gradeFcAnswer(answer, [label.text]);
            if (actual !== expected)
              disagreements.push(`${JSON.stringify(answer)} vs ${label.text}: ours ${actual}`);
          }
        }
      }
    }
    expect(cases).toBeGreaterThan(20_000);
    expect(disagreements.slice(0, 20)).toEqual([]);
  }, 60_000);

  it("FC: JSON number forms keep what json.loads makes of their text (task.py line 138)", () => {
    // the JSON text, str() of what json.loads returns, and its float
    const forms: [string, string, number][] = [
      ["1.0", "1.0", 1],
      ["1", "1", 1],
      ["1e2", "100.0", 100],
      ["1E2", "100.0", 100],
      ["1.50", "1.5", 1.5],
      ["-0", "0", 0],
      ["-0.0", "-0.0", -0],
      ["0.1e1", "1.0", 1],
      ["0.00001", "1e-05", 0.00001],
      ["12345678901234567890", "12345678901234567890", 1.2345678901234567e19], // float() of it
      ["1.2345678901234567e19", "1.2345678901234567e+19", 1.2345678901234567e19],
      ["1E400", "inf", Number.POSITIVE_INFINITY],
    ];
    const normalized = (text: string) => (specials.has(text.toLowerCase()) ? "0" : text);
    const disagreements: string[] = [];
    for (const [json, str, value] of forms) {
      for (const [labelJson, labelStr, labelValue] of forms) {
        for (const label of [labelJson, labelStr]) {
          // with "x": set equality of the normalised texts (line 74)
          const withX = normalized(str) === normalized(label);
          const mixed = gradeFcToolArguments(`{"answers":[${json},"x"]}`, [label, "x"]);
          if (mixed !== withX) disagreements.push(`[${json},"x"] vs [${label},"x"]: ours ${mixed}`);
          // alone: both "0" match, else floats within 0.01 (lines 41-46); a special value is "0" by then
          const answerText = normalized(str);
          const labelText = normalized(label);
          const answerFloat = answerText === "0" ? 0 : value;
          const labelFloat = labelText === "0" ? 0 : labelValue;
          const alone =
            (answerText === "0" && labelText === "0") || Math.abs(answerFloat - labelFloat) <= 1e-2;
          const single = gradeFcToolArguments(`{"answers":[${json}]}`, [label]);
          if (single !== alone) disagreements.push(`[${json}] vs [${label}]: ours ${single}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
  });
});
