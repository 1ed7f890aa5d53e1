import pytest

from exprcalc import tokenize, ExpressionError


def test_kinds():
    kinds = [token.kind for token in tokenize("max(a, 2) + 1")]
    assert kinds == ["name", "lparen", "name", "comma", "number", "rparen", "op", "number"]


def test_bad_character():
    with pytest.raises(ExpressionError):
        tokenize("2 $ 3")
