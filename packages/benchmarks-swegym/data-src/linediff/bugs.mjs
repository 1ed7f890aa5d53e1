// Bugs of linediff: each injects a bug into the fixed tree (data/repos/linediff) and adds the tests that expose it.
const c = "linediff/core.py";
const u = "linediff/unified.py";
const tc = "tests/test_core.py";
const tu = "tests/test_unified.py";

export const bugs = [
  {
    split: "train",
    created_at: "2024-06-03T09:00:00Z",
    problem_statement: `Lines appended at the end are missing from the diff

\`diff_lines("a", "a\\nb\\nc")\` returns only the \`equal\` edit for "a"; the two inserted lines are not reported, and \`unified()\` prints nothing for a file that only grew.`,
    inject: [
      {
        file: c,
        find: `    while j < len(new_lines):\n        edits.append(Edit("insert", new_lines[j], i, j))\n        j += 1\n`,
        replace: "",
      },
    ],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_insertions_at_end():\n    ops = [(edit.op, edit.line) for edit in diff_lines("a", "a\\nb\\nc")]\n    assert ops == [("equal", "a"), ("insert", "b"), ("insert", "c")]\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-06-05T10:20:00Z",
    problem_statement: `ignore_whitespace=True still reports changes inside a line's spacing

\`diff_lines("x = 1", "x  =  1", ignore_whitespace=True)\` reports a delete and an insert. Only leading/trailing spaces seem to be ignored; runs of spaces inside the line should compare equal too.`,
    inject: [
      {
        file: c,
        find: 'key = (lambda line: " ".join(line.split())) if ignore_whitespace else (lambda line: line)',
        replace: "key = (lambda line: line.strip()) if ignore_whitespace else (lambda line: line)",
      },
    ],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_ignore_inner_whitespace():\n    assert [edit.op for edit in diff_lines("x = 1", "x  =  1", ignore_whitespace=True)] == ["equal"]\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-06-07T14:45:00Z",
    problem_statement: `apply_edits() keeps lines that the diff deleted

\`\`\`python
old, new = "a\\nb\\nc", "a\\nc"
apply_edits(old, diff_lines(old, new))
\`\`\`
returns \`["a", "b", "c"]\` instead of \`["a", "c"]\`.`,
    inject: [
      {
        file: c,
        find: '        elif edit.op == "insert":\n            result.append(edit.line)',
        replace: "        else:\n            result.append(edit.line)",
      },
    ],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_apply_drops_deleted_lines():\n    old, new = "a\\nb\\nc", "a\\nc"\n    assert apply_edits(old, diff_lines(old, new)) == ["a", "c"]\n`,
      },
    ],
  },
  {
    split: "heldout",
    created_at: "2024-06-10T08:30:00Z",
    problem_statement: `similarity() of two empty texts raises ZeroDivisionError

\`similarity("", "")\` crashes with \`ZeroDivisionError: division by zero\`. The docstring says it is 1.0.`,
    inject: [{ file: c, find: "    if total == 0:\n        return 1.0\n", replace: "" }],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_similarity_of_empty_texts():\n    from linediff import similarity\n\n    assert similarity("", "") == 1.0\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-06-12T11:15:00Z",
    problem_statement: `similarity() of identical texts is 0.5

\`similarity("a\\nb", "a\\nb")\` returns 0.5. Identical texts should score 1.0 (and "a\\nb" vs "a\\nc" 0.5).`,
    inject: [{ file: c, find: "    return 2 * equal / total", replace: "    return equal / total" }],
    tests: [
      {
        file: tc,
        append: `\n\ndef test_similarity_scale():\n    from linediff import similarity\n\n    assert similarity("a\\nb", "a\\nb") == 1.0\n    assert similarity("a\\nb", "a\\nc") == 0.5\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-06-14T15:00:00Z",
    problem_statement: `Hunk header of a pure insertion points one line too far

\`unified("a\\nb\\n", "a\\nb\\nc\\n", context=0)\` prints \`@@ -3,0 +3 @@\`. \`diff -u\` prints \`@@ -2,0 +3 @@\` (an empty range names the line after which the text goes), and \`patch\` rejects our output for insertions.`,
    inject: [
      {
        file: u,
        find: '    if count == 0:\n        return f"{start},0"',
        replace: '    if count == 0:\n        return f"{start + 1},0"',
      },
    ],
    tests: [
      {
        file: tu,
        append: `\n\ndef test_pure_insertion_header():\n    assert unified("a\\nb\\n", "a\\nb\\nc\\n", context=0) == "--- a\\n+++ b\\n@@ -2,0 +3 @@\\n+c\\n"\n`,
      },
    ],
  },
  {
    split: "heldout",
    created_at: "2024-06-17T09:50:00Z",
    problem_statement: `Changes that are 2*context lines apart are split into two touching hunks

With the default context of 3, changing lines 1 and 8 of a ten-line file gives two hunks, the first ending at line 4 and the second starting at line 5. \`diff -u\` prints one hunk when the context ranges touch.`,
    inject: [
      { file: u, find: "        if index - context <= end:", replace: "        if index - context < end:" },
    ],
    tests: [
      {
        file: tu,
        append: `\n\ndef test_touching_hunks_merge():\n    old = "\\n".join(str(n) for n in range(1, 11)) + "\\n"\n    new = old.replace("1\\n", "one\\n", 1).replace("8\\n", "eight\\n")\n    assert unified(old, new).count("@@ -") == 1\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-06-19T13:30:00Z",
    problem_statement: `One-line hunk ranges are written as 'N,1'

\`unified("a\\n", "b\\n")\` gives \`@@ -1,1 +1,1 @@\`. GNU diff writes \`@@ -1 +1 @@\`; our golden files come from it, so every one-line change shows up as a mismatch.`,
    inject: [{ file: u, find: '    if count == 1:\n        return f"{start + 1}"\n', replace: "" }],
    tests: [
      {
        file: tu,
        append: `\n\ndef test_one_line_range():\n    assert unified("a\\n", "b\\n") == "--- a\\n+++ b\\n@@ -1 +1 @@\\n-a\\n+b\\n"\n`,
      },
    ],
  },
];
