import pytest

from unitconv import convert, UnitError


def test_length():
    assert convert(1, "km", "m") == 1000.0


def test_aliases():
    assert convert(3, "feet", "in") == pytest.approx(36)


def test_dimension_mismatch():
    with pytest.raises(UnitError):
        convert(1, "kg", "m")


def test_celsius_to_fahrenheit():
    assert convert(100, "C", "F") == pytest.approx(212)
