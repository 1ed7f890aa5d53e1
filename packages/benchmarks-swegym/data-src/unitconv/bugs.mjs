// Bugs of unitconv: each injects a bug into the fixed tree (data/repos/unitconv) and adds the tests that expose it.
const u = "unitconv/units.py";
const c = "unitconv/convert.py";
const tc = "tests/test_convert.py";
const tf = "tests/test_format.py";

export const bugs = [
  {
    split: "train",
    created_at: "2024-08-01T09:00:00Z",
    problem_statement: `Miles are converted with a rounded factor

\`convert(1, "mi", "km")\` returns \`1.609\`. A statute mile is exactly 1609.344 m, so this should be \`1.609344\`; over long distances the error adds up.`,
    inject: [{ file: u, find: '"mi": ("length", 1609.344),', replace: '"mi": ("length", 1609.0),' }],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_mile_is_exact():\n    assert convert(1, "mi", "km") == pytest.approx(1.609344, rel=1e-12)\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-08-05T10:40:00Z",
    problem_statement: `Fahrenheit to Celsius is wrong

\`convert(212, "F", "C")\` returns about 194.2 instead of 100, and \`convert(32, "F", "C")\` is not 0. Celsius to Fahrenheit is fine.`,
    inject: [
      {
        file: c,
        find: "        celsius = (value - 32) * 5 / 9",
        replace: "        celsius = value - 32 * 5 / 9",
      },
    ],
    tests: [
      {
        file: tc,
        append: `\n\n@pytest.mark.parametrize("fahrenheit,celsius", [(212, 100), (32, 0), (-40, -40)])\ndef test_fahrenheit_to_celsius(fahrenheit, celsius):\n    assert convert(fahrenheit, "F", "C") == pytest.approx(celsius)\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-08-07T14:20:00Z",
    problem_statement: `Kelvin input gives temperatures far too high

\`convert(0, "K", "C")\` returns \`273.15\`; absolute zero is -273.15 °C. \`convert(300, "K", "F")\` is also off by hundreds of degrees.`,
    inject: [
      { file: c, find: "        celsius = value - 273.15", replace: "        celsius = value + 273.15" },
    ],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_kelvin_input():\n    assert convert(0, "K", "C") == pytest.approx(-273.15)\n    assert convert(300, "K", "F") == pytest.approx(80.33, abs=0.01)\n`,
      },
    ],
  },
  {
    split: "heldout",
    created_at: "2024-08-09T09:15:00Z",
    problem_statement: `Unit names with capitals are unknown

\`convert(2, "Miles", "km")\` raises \`UnitError: unknown unit 'Miles'\`, and so does \`"Kilograms"\`. Spelled-out names should not depend on case (the short symbols like "MB" vs "mb" of course do).`,
    inject: [
      { file: u, find: "    alias = ALIASES.get(unit.lower())", replace: "    alias = ALIASES.get(unit)" },
    ],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_alias_case_insensitive():\n    assert convert(2, "Miles", "km") == pytest.approx(3.218688)\n    assert convert(1, "Kilograms", "g") == 1000.0\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-08-12T16:05:00Z",
    problem_statement: `parse_quantity() cannot read negative values

\`parse_quantity("-40 C")\` raises \`UnitError: cannot read quantity '-40 C'\`. Temperatures below zero are common in our sensor logs.`,
    inject: [
      {
        file: c,
        find: '_QUANTITY = re.compile(r"^\\s*([-+]?\\d+',
        replace: '_QUANTITY = re.compile(r"^\\s*(\\d+',
      },
    ],
    tests: [
      {
        file: tf,
        append: `\n\ndef test_parse_negative():\n    assert parse_quantity("-40 C") == (-40.0, "C")\n    assert parse_quantity("+2 kg") == (2.0, "kg")\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-08-14T11:45:00Z",
    problem_statement: `parse_quantity() returns the alias instead of the unit symbol

\`parse_quantity("3 miles")\` returns \`(3.0, "miles")\`. The docstring says the unit comes back in its table spelling, i.e. \`"mi"\`, and code that indexes \`UNITS\` with it fails.`,
    inject: [
      {
        file: c,
        find: "    return float(number), canonical(unit)",
        replace: "    canonical(unit)\n    return float(number), unit",
      },
    ],
    tests: [
      {
        file: tf,
        append: `\n\ndef test_parse_returns_symbol():\n    assert parse_quantity("3 miles") == (3.0, "mi")\n`,
      },
    ],
  },
  {
    split: "heldout",
    created_at: "2024-08-16T13:30:00Z",
    problem_statement: `format_quantity() prints "-0"

\`format_quantity(-0.001, "m")\` returns \`"-0 m"\`. Tiny negative values that round to zero should print as \`"0 m"\`.`,
    inject: [{ file: c, find: '    if text == "-0":\n        text = "0"\n', replace: "" }],
    tests: [
      {
        file: tf,
        append: `\n\ndef test_no_negative_zero():\n    assert format_quantity(-0.001, "m") == "0 m"\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-08-19T08:55:00Z",
    problem_statement: `format_quantity(100, "m", digits=0) returns "1 m"

With \`digits=0\` the trailing zeros of whole numbers are stripped: 100 becomes "1 m", 2500 becomes "25 m". Only zeros after a decimal point should be trimmed.`,
    inject: [
      {
        file: c,
        find: '    if "." in text:\n        text = text.rstrip("0").rstrip(".")',
        replace: '    text = text.rstrip("0").rstrip(".")',
      },
    ],
    tests: [
      {
        file: tf,
        append: `\n\ndef test_whole_numbers_keep_zeros():\n    assert format_quantity(100, "m", digits=0) == "100 m"\n    assert format_quantity(2500.0, "m", digits=1) == "2500 m"\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-08-21T15:10:00Z",
    problem_statement: `human_bytes(1024) says "1024 B" instead of "1 KiB"

Exact powers of 1024 are shown in the next smaller unit: 1024 bytes as "1024 B", 1 MiB as "1024 KiB". 1536 is shown fine as "1.5 KiB".`,
    inject: [{ file: c, find: "        if abs(count) >= size:", replace: "        if abs(count) > size:" }],
    tests: [
      {
        file: tf,
        append: `\n\ndef test_human_bytes_exact_powers():\n    assert human_bytes(1024) == "1 KiB"\n    assert human_bytes(1024**2) == "1 MiB"\n    assert human_bytes(1000, binary=False) == "1 KB"\n`,
      },
    ],
  },
  {
    split: "heldout",
    created_at: "2024-08-23T10:30:00Z",
    problem_statement: `MB is treated as MiB

\`convert(1, "MB", "KB")\` returns 1048.576. MB is the decimal unit (1,000,000 bytes); the binary one is MiB. GB and KB are right.`,
    inject: [{ file: u, find: '"MB": ("data", 1000**2),', replace: '"MB": ("data", 1024**2),' }],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_decimal_megabyte():\n    assert convert(1, "MB", "KB") == 1000.0\n    assert convert(1, "MiB", "KiB") == 1024.0\n`,
      },
    ],
  },
];
