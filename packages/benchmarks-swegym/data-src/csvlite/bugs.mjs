// Bugs of csvlite: each injects a bug into the fixed tree (data/repos/csvlite) and adds the tests that expose it.
const r = "csvlite/reader.py";
const w = "csvlite/writer.py";
const i = "csvlite/infer.py";
const tr = "tests/test_reader.py";
const tw = "tests/test_writer.py";
const ti = "tests/test_infer.py";

export const bugs = [
  {
    split: "train",
    created_at: "2024-07-01T09:00:00Z",
    problem_statement: `Doubled quotes inside a quoted field are lost

\`read_rows('"say ""hi""",x\\n')\` returns \`[['say hi', 'x']]\`. The doubled quotes stand for one literal quote each; I expect \`[['say "hi"', 'x']]\`.`,
    inject: [
      {
        file: r,
        find: "                    field.append(quote)\n                    index += 1",
        replace: "                    index += 1",
      },
    ],
    tests: [
      {
        file: tr,
        append: `\n\ndef test_doubled_quotes():\n    assert read_rows('"say ""hi""",x\\n') == [['say "hi"', "x"]]\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-07-03T11:30:00Z",
    problem_statement: `Files with Windows line endings leave '\\r' in the last field

Reading an export from Excel: \`read_rows("a,b\\r\\nc,d\\r\\n")\` gives \`[['a', 'b\\r'], ['c', 'd\\r']]\`.`,
    inject: [
      {
        file: r,
        find: '        elif char == "\\r" and index + 1 < len(text) and text[index + 1] == "\\n":\n            pass\n',
        replace: "",
      },
    ],
    tests: [
      {
        file: tr,
        append: `\n\ndef test_crlf_line_endings():\n    assert read_rows("a,b\\r\\nc,d\\r\\n") == [["a", "b"], ["c", "d"]]\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-07-05T14:10:00Z",
    problem_statement: `Last row is dropped when it ends with an empty field and there is no final newline

\`read_rows("a,b\\nc,")\` returns \`[['a', 'b']]\`; the row \`['c', '']\` is missing. With a trailing newline it is read.`,
    inject: [{ file: r, find: "    if field or row:", replace: "    if field:" }],
    tests: [
      {
        file: tr,
        append: `\n\ndef test_last_row_with_empty_field():\n    assert read_rows("a,b\\nc,") == [["a", "b"], ["c", ""]]\n`,
      },
    ],
  },
  {
    split: "heldout",
    created_at: "2024-07-08T10:00:00Z",
    problem_statement: `Header names keep the spaces after the delimiter

With the header \`name, age\`, \`read_records("name, age\\nada, 36\\n")[0]\` has the key \`" age"\`, so \`record["age"]\` is a KeyError.`,
    inject: [
      {
        file: r,
        find: "    header = [name.strip() for name in rows[0]]",
        replace: "    header = list(rows[0])",
      },
    ],
    tests: [
      {
        file: tr,
        append: `\n\ndef test_header_names_are_stripped():\n    assert read_records("name, age\\nada, 36\\n")[0]["age"] == " 36"\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-07-10T16:40:00Z",
    problem_statement: `Duplicate column names silently overwrite each other

\`read_records("id,id\\n1,2\\n")\` returns \`[{'id': '2'}]\`; the first column is lost without warning. This should be a \`CsvError\`.`,
    inject: [
      {
        file: r,
        find: '    if len(set(header)) != len(header):\n        raise CsvError("duplicate column names in header")\n',
        replace: "",
      },
    ],
    tests: [
      {
        file: tr,
        append: `\n\ndef test_duplicate_header_rejected():\n    with pytest.raises(CsvError):\n        read_records("id,id\\n1,2\\n")\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-07-12T09:20:00Z",
    problem_statement: `write_rows() produces CSV that cannot be read back when a value has quotes

\`write_rows([['say "hi"']])\` returns \`'"say "hi""\\n'\`. Reading that back fails. Quotes inside a quoted field must be doubled.`,
    inject: [
      {
        file: w,
        find: "    return quote + text.replace(quote, quote + quote) + quote",
        replace: "    return quote + text + quote",
      },
    ],
    tests: [
      {
        file: tw,
        append: `\n\ndef test_quotes_are_doubled():\n    from csvlite import read_rows\n\n    text = write_rows([['say "hi"', "x"]])\n    assert text == '"say ""hi""",x\\n'\n    assert read_rows(text) == [['say "hi"', "x"]]\n`,
      },
    ],
  },
  {
    split: "heldout",
    created_at: "2024-07-15T13:00:00Z",
    problem_statement: `None is written as the text "None"

\`write_rows([["a", None]])\` gives \`"a,None\\n"\`. Missing values should be written as empty fields.`,
    inject: [
      { file: w, find: '    text = "" if value is None else str(value)', replace: "    text = str(value)" },
    ],
    tests: [
      {
        file: tw,
        append: `\n\ndef test_none_is_empty():\n    assert write_rows([["a", None]]) == "a,\\n"\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-07-17T08:50:00Z",
    problem_statement: `convert_column() turns "false" into True

A boolean column is inferred correctly (\`infer_type(["true", "false"]) == "bool"\`), but \`convert_column(["true", "false"])\` returns \`[True, True]\`.`,
    inject: [
      {
        file: i,
        find: '        "bool": lambda value: value.strip().lower() == "true",',
        replace: '        "bool": lambda value: bool(value),',
      },
    ],
    tests: [
      {
        file: ti,
        append: `\n\ndef test_convert_bools():\n    assert convert_column(["true", "False", ""]) == [True, False, None]\n`,
      },
    ],
  },
  {
    split: "train",
    created_at: "2024-07-19T15:35:00Z",
    problem_statement: `A leading plus sign makes an integer column a float column

\`infer_type(["+5", "3"])\` returns \`"float"\`, and \`convert_column\` then gives \`[5.0, 3.0]\`. \`"-5"\` is accepted as an int, \`"+5"\` should be too.`,
    inject: [
      {
        file: i,
        find: '    body = text[1:] if text[:1] in "+-" else text',
        replace: '    body = text[1:] if text[:1] == "-" else text',
      },
    ],
    tests: [
      {
        file: ti,
        append: `\n\ndef test_plus_sign_int():\n    assert infer_type(["+5", "3"]) == "int"\n    assert convert_column(["+5", "3"]) == [5, 3]\n`,
      },
    ],
  },
  {
    split: "heldout",
    created_at: "2024-07-22T10:25:00Z",
    problem_statement: `A quote in the middle of an unquoted field breaks the whole file

Heights like \`5'11"\` appear unquoted in our data: \`read_rows('a,5\\'11",b\\nc,d,e\\n')\` raises \`CsvError: unterminated quoted field\`. A quote only opens a quoted field at the start of a field; elsewhere it is a literal character.`,
    inject: [
      { file: r, find: "        elif char == quote and not field:", replace: "        elif char == quote:" },
    ],
    tests: [
      {
        file: tr,
        append: `\n\ndef test_quote_inside_unquoted_field():\n    assert read_rows('a,5\\'11",b\\nc,d,e\\n') == [["a", "5'11\\"", "b"], ["c", "d", "e"]]\n`,
      },
    ],
  },
];
