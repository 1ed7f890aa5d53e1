// Bugs of exprcalc: each injects a bug into the fixed tree (data/repos/exprcalc) and adds the tests that expose it.
const e = "exprcalc/evaluator.py";
const t = "exprcalc/tokens.py";
const te = "tests/test_evaluate.py";
const tt = "tests/test_tokens.py";

export const bugs = [
  {
    split: "train",
    created_at: "2024-04-02T09:00:00Z",
    problem_statement: `Subtraction gives the wrong sign

\`evaluate("10 - 4")\` returns \`-6.0\`. Addition is fine. \`evaluate("10 - 4 - 1")\` returns \`-5.0\` where I expect \`5.0\`.`,
    inject: [
      {
        file: e,
        find: 'value = value + right if op == "+" else value - right',
        replace: 'value = value + right if op == "+" else right - value',
      },
    ],
    tests: [
      {
        file: te,
        append: `\n\n@pytest.mark.parametrize("text,value", [("10 - 4", 6.0), ("10 - 4 - 1", 5.0), ("1 - 2 + 3", 2.0)])\ndef test_subtraction(text, value):\n    assert evaluate(text) == value\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-04-04T10:30:00Z",
    problem_statement: `Modulo by zero raises ZeroDivisionError instead of ExpressionError

Division by zero is reported as \`ExpressionError("division by zero")\`, which our form shows to the user. \`evaluate("5 % 0")\` instead lets a raw \`ZeroDivisionError: float modulo\` escape and the page crashes.`,
    inject: [{ file: e, find: 'if op != "*" and right == 0:', replace: 'if op == "/" and right == 0:' }],
    tests: [
      {
        file: te,
        append: `\n\n@pytest.mark.parametrize("text", ["5 / 0", "5 % 0"])\ndef test_zero_divisor(text):\n    with pytest.raises(ExpressionError):\n        evaluate(text)\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-04-09T14:00:00Z",
    problem_statement: `Chained powers and negative exponents fail

\`evaluate("2 ^ 3 ^ 2")\` raises \`ExpressionError: unexpected '^' at position 6\`; it should be 512 (powers are right associative, as the module docstring says). \`evaluate("2 ^ -1")\` also fails instead of giving 0.5.`,
    inject: [
      {
        file: e,
        find: "            return base ** self.unary()",
        replace: "            return base ** self.atom()",
      },
    ],
    tests: [
      {
        file: te,
        append: `\n\ndef test_power_right_associative():\n    assert evaluate("2 ^ 3 ^ 2") == 512.0\n    assert evaluate("2 ^ -1") == 0.5\n`,
      },
    ],
  },
  {
    split: "heldout",
    created_at: "2024-04-12T08:45:00Z",
    problem_statement: `Scientific notation is not understood

\`evaluate("1e3 + 1")\` raises \`ExpressionError: unexpected 'e3' at position 1\`. Numbers like \`2.5E-3\` come from our CSV exports and should be read as numbers.`,
    inject: [
      {
        file: t,
        find: `            if index < len(text) and text[index] in "eE":
                index += 1
                if index < len(text) and text[index] in "+-":
                    index += 1
                while index < len(text) and text[index].isdigit():
                    index += 1
`,
        replace: "",
      },
    ],
    tests: [
      {
        file: tt,
        append: `\n\ndef test_exponent_is_part_of_the_number():\n    assert [token.text for token in tokenize("2.5E-3")] == ["2.5E-3"]\n`,
      },
      { file: te, append: `\n\ndef test_scientific_notation():\n    assert evaluate("1e3 + 1") == 1001.0\n` },
    ],
  },
  {
    split: "train",
    created_at: "2024-04-15T11:20:00Z",
    problem_statement: `Numbers starting with a dot are rejected

\`evaluate(".5 * 4")\` raises \`ExpressionError: unexpected character '.' at position 0\`. \`0.5 * 4\` works. Users type \`.5\` all the time.`,
    inject: [
      {
        file: t,
        find: 'elif char.isdigit() or (char == "." and index + 1 < len(text) and text[index + 1].isdigit()):',
        replace: "elif char.isdigit():",
      },
    ],
    tests: [{ file: te, append: `\n\ndef test_leading_dot():\n    assert evaluate(".5 * 4") == 2.0\n` }],
  },
  {
    split: "train",
    created_at: "2024-04-18T16:10:00Z",
    problem_statement: `Variable names starting with an underscore cannot be used

We pass variables like \`_base\` and \`_rate\`. \`evaluate("_base * 2", {"_base": 4})\` raises \`unexpected character '_' at position 0\`. Names with an underscore in the middle work.`,
    inject: [{ file: t, find: 'elif char.isalpha() or char == "_":', replace: "elif char.isalpha():" }],
    tests: [
      {
        file: te,
        append: `\n\ndef test_leading_underscore_name():\n    assert evaluate("_base * 2", {"_base": 4}) == 8.0\n`,
      },
    ],
  },
  {
    split: "heldout",
    created_at: "2024-04-22T09:30:00Z",
    problem_statement: `max() with no arguments crashes

\`evaluate("max()")\` raises \`ValueError: max() arg is an empty sequence\` from inside the evaluator instead of an \`ExpressionError\` we can show.`,
    inject: [
      {
        file: e,
        find: `        if arity is None and not args:\n            raise ExpressionError(f"{name}() needs at least one argument")\n`,
        replace: "",
      },
    ],
    tests: [
      {
        file: te,
        append: `\n\n@pytest.mark.parametrize("text", ["max()", "min()"])\ndef test_variadic_needs_an_argument(text):\n    with pytest.raises(ExpressionError):\n        evaluate(text)\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-04-25T13:00:00Z",
    problem_statement: `round(x, digits) crashes with a TypeError

\`evaluate("round(3.14159, 2)")\` raises \`TypeError: 'float' object cannot be interpreted as an integer\`. I want 3.14. \`round\` is listed in \`FUNCTIONS\` with two arguments, so this looks like it was meant to work.`,
    inject: [
      {
        file: e,
        find: '"round": (lambda value, digits: round(value, int(digits)), 2),',
        replace: '"round": (round, 2),',
      },
    ],
    tests: [
      {
        file: te,
        append: `\n\ndef test_round_digits():\n    assert evaluate("round(3.14159, 2)") == 3.14\n`,
      },
    ],
  },
  {
    split: "heldout",
    created_at: "2024-04-29T10:00:00Z",
    problem_statement: `Trailing input is silently ignored

\`evaluate("2 3")\` returns \`2.0\` and \`evaluate("(1 + 2) 4")\` returns \`3.0\`. A missing operator should be an error, not a guess.`,
    inject: [
      {
        file: e,
        find: `    if parser.peek() is not None:
        token = parser.peek()
        raise ExpressionError(f"unexpected {token.text!r} at position {token.position}")
`,
        replace: "",
      },
    ],
    tests: [
      {
        file: te,
        append: `\n\n@pytest.mark.parametrize("text", ["2 3", "(1 + 2) 4"])\ndef test_trailing_input_rejected(text):\n    with pytest.raises(ExpressionError):\n        evaluate(text)\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-05-02T15:30:00Z",
    problem_statement: `max() and min() with a single argument crash

\`evaluate("max(7)")\` raises \`TypeError: 'float' object is not iterable\`. With two or more arguments it works.`,
    inject: [
      {
        file: e,
        find: "        return float(function(args) if arity is None else function(*args))",
        replace: "        return float(function(*args))",
      },
    ],
    tests: [
      {
        file: te,
        append: `\n\ndef test_single_argument_variadic():\n    assert evaluate("max(7)") == 7.0\n    assert evaluate("min(2, 9, 4)") == 2.0\n`,
      },
    ],
  },
];
