from linediff import unified, stats


def test_equal_texts():
    assert unified("a\nb\n", "a\nb\n") == ""


def test_single_change():
    text = unified("a\nb\nc\n", "a\nB\nc\n", "old", "new")
    assert text == "--- old\n+++ new\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"


def test_stats_counts():
    assert stats("a\nb\nc", "a\nc\nd\ne") == {"insertions": 2, "deletions": 1}
