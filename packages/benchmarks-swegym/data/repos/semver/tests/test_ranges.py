from semver import satisfies, max_satisfying


def test_comparator_pair():
    assert satisfies("1.5.0", ">=1.2.0 <2.0.0")
    assert not satisfies("2.0.0", ">=1.2.0 <2.0.0")


def test_caret_major():
    assert satisfies("1.9.9", "^1.2.3")
    assert not satisfies("2.0.0", "^1.2.3")


def test_alternatives():
    assert satisfies("3.1.0", "^1.0.0 || ^3.0.0")


def test_max_satisfying():
    assert max_satisfying(["1.2.0", "1.3.5", "2.0.0"], "^1.0.0") == "1.3.5"
