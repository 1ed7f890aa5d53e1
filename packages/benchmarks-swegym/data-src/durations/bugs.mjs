// Bugs of durations: each injects a bug into the fixed tree (data/repos/durations) and adds the tests that expose it.
const p = "durations/parse.py";
const f = "durations/format.py";
const a = "durations/arith.py";
const tp = "tests/test_parse.py";
const tf = "tests/test_format.py";
const ta = "tests/test_arith.py";

export const bugs = [
  {
    split: "train",
    created_at: "2024-02-03T10:15:00Z",
    problem_statement: `parse() turns an explicit plus sign into a minus

\`parse("+5m")\` returns \`-300\`. I expected \`300\`, same as \`parse("5m")\`. Negative durations like \`"-5m"\` come out right. We store offsets with an explicit sign, so every positive offset is flipped.`,
    inject: [{ file: p, find: 'sign = -1 if cleaned[0] == "-" else 1', replace: "sign = -1" }],
    tests: [
      {
        file: tp,
        append: `\n\ndef test_explicit_plus_sign():\n    assert parse("+5m") == 300\n    assert parse("-5m") == -300\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-02-05T08:00:00Z",
    problem_statement: `Fractional durations are truncated instead of rounded

The docstring of \`parse\` says fractions are rounded, but \`parse("1.75s")\` gives \`1\` and \`parse("0.9s")\` gives \`0\`. I'd expect 2 and 1.`,
    inject: [{ file: p, find: "return sign * int(round(seconds))", replace: "return sign * int(seconds)" }],
    tests: [
      {
        file: tp,
        append: `\n\n@pytest.mark.parametrize("text,seconds", [("1.75s", 2), ("0.9s", 1), ("1.5m", 90)])\ndef test_fractions_round(text, seconds):\n    assert parse(text) == seconds\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-02-11T14:30:00Z",
    problem_statement: `"1w" is parsed as seven hours

\`\`\`
>>> parse("1w")
25200
\`\`\`
A week should be 604800 seconds. \`UNIT_SECONDS["w"]\` is exported and has the same wrong value, so code that converts with it is off too.`,
    inject: [{ file: p, find: '"w": 7 * 24 * 3600,', replace: '"w": 7 * 3600,' }],
    tests: [
      {
        file: tp,
        append: `\n\ndef test_weeks():\n    assert parse("1w") == 604800\n    assert parse("2w 1d") == 2 * 604800 + 86400\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-02-14T09:45:00Z",
    problem_statement: `Upper-case units are rejected

Durations typed by users often come as "2H" or "30M". \`parse("2H")\` raises \`ValueError: cannot read duration: '2H'\`. Lower-case works. Units should be case-insensitive.`,
    inject: [{ file: p, find: "cleaned = text.strip().lower()", replace: "cleaned = text.strip()" }],
    tests: [
      {
        file: tp,
        append: `\n\ndef test_units_case_insensitive():\n    assert parse("2H") == 7200\n    assert parse("1H30M") == 5400\n`,
      },
    ],
  },
  {
    split: "heldout",
    created_at: "2024-02-20T16:20:00Z",
    problem_statement: `A unit given twice is silently added up

\`parse("1h 1h")\` returns 7200. This hides typos like "1h 2h" meant as "1h 2m". Giving a unit twice should be a \`ValueError\`.`,
    inject: [
      {
        file: p,
        find: `        if unit in seen:\n            raise ValueError(f"unit {unit!r} given twice in {text!r}")\n`,
        replace: "",
      },
    ],
    tests: [
      {
        file: tp,
        append: `\n\n@pytest.mark.parametrize("text", ["1h 1h", "2m3m"])\ndef test_repeated_unit_rejected(text):\n    with pytest.raises(ValueError):\n        parse(text)\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-03-01T11:00:00Z",
    problem_statement: `Spaces between parts are not accepted

The README shows \`2d 4h\` as a valid duration, but \`parse("2d 4h")\` raises \`ValueError: unexpected text in duration: '2d 4h'\`. \`parse("2d4h")\` works.`,
    inject: [
      {
        file: p,
        find: "if cleaned[position:match.start()].strip():",
        replace: "if cleaned[position:match.start()]:",
      },
    ],
    tests: [
      {
        file: tp,
        append: `\n\ndef test_spaces_between_parts():\n    assert parse("2d 4h") == 2 * 86400 + 4 * 3600\n    assert parse("1h  30m  5s") == 5405\n`,
      },
    ],
  },
  {
    split: "heldout",
    created_at: "2024-03-04T13:10:00Z",
    problem_statement: `format_duration() gives nonsense for negative values

\`format_duration(-90)\` returns \`"--1d23h58m30s"\` instead of \`"-1m30s"\`. \`format_clock(-90)\` is fine.`,
    inject: [
      {
        file: f,
        find: '    sign = "-" if seconds < 0 else ""\n    remaining = abs(int(seconds))\n    parts = []',
        replace: '    sign = "-" if seconds < 0 else ""\n    remaining = int(seconds)\n    parts = []',
      },
    ],
    tests: [
      {
        file: tf,
        append: `\n\ndef test_negative_duration():\n    assert format_duration(-90) == "-1m30s"\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-03-09T10:05:00Z",
    problem_statement: `format_duration() never uses the largest unit it is given

With the default \`largest="d"\`, two days are formatted as \`48h\` instead of \`2d\`. With \`largest="h"\`, 7200 seconds come out as \`120m\`.`,
    inject: [
      {
        file: f,
        find: "for unit in _ORDER[_ORDER.index(largest):]:",
        replace: "for unit in _ORDER[_ORDER.index(largest) + 1:]:",
      },
    ],
    tests: [
      {
        file: tf,
        append: `\n\ndef test_largest_unit_is_used():\n    assert format_duration(172800) == "2d"\n    assert format_duration(7200, largest="h") == "2h"\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-03-12T15:40:00Z",
    problem_statement: `split_evenly() returns pieces that add up to more than the total

\`split_evenly(10, 3)\` returns \`[4, 4, 4]\`, which is 12 seconds. It should be \`[4, 3, 3]\`. When the duration divides evenly the result is correct.`,
    inject: [
      {
        file: a,
        find: "size + 1 if index < extra else size",
        replace: "size + 1 if index <= extra else size",
      },
    ],
    tests: [
      {
        file: ta,
        append: `\n\ndef test_split_with_remainder():\n    pieces = split_evenly(10, 3)\n    assert pieces == [4, 3, 3]\n    assert sum(pieces) == 10\n`,
      },
    ],
  },
  {
    split: "heldout",
    created_at: "2024-03-18T09:25:00Z",
    problem_statement: `clamp() refuses equal bounds

\`clamp("5m", "10m", "10m")\` raises \`ValueError: low is above high\`, but low is not above high, they are equal. I use equal bounds to pin a value.`,
    inject: [{ file: a, find: "if low_s > high_s:", replace: "if low_s >= high_s:" }],
    tests: [
      {
        file: ta,
        append: `\n\ndef test_clamp_equal_bounds():\n    from durations import clamp\n\n    assert clamp("5m", "10m", "10m") == 600\n    assert clamp(30, 10, 60) == 30\n`,
      },
    ],
  },
];
