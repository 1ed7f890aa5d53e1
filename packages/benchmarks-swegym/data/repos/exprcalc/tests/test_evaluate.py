import pytest

from exprcalc import evaluate, ExpressionError


@pytest.mark.parametrize("text,value", [("1 + 2", 3.0), ("2 * 3 + 4", 10.0), ("2 * (3 + 4)", 14.0), ("10 / 4", 2.5)])
def test_arithmetic(text, value):
    assert evaluate(text) == value


def test_variables():
    assert evaluate("2 * (x + 1)", {"x": 3}) == 8.0


def test_unknown_variable():
    with pytest.raises(ExpressionError):
        evaluate("y + 1")


def test_functions():
    assert evaluate("abs(0 - 4) + sqrt(9)") == 7.0
