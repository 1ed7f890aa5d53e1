from linediff import diff_lines, apply_edits


def test_identical():
    assert [edit.op for edit in diff_lines("a\nb", "a\nb")] == ["equal", "equal"]


def test_replace_line():
    ops = [(edit.op, edit.line) for edit in diff_lines("a\nb\nc", "a\nx\nc")]
    assert ops == [("equal", "a"), ("delete", "b"), ("insert", "x"), ("equal", "c")]


def test_roundtrip():
    old, new = "one\nthree\nfour", "zero\none\nthree\nfour"
    assert apply_edits(old, diff_lines(old, new)) == new.splitlines()
