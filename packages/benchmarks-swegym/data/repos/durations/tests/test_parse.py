import pytest

from durations import parse


def test_plain_seconds():
    assert parse("90") == 90


@pytest.mark.parametrize("text,seconds", [("45s", 45), ("2m", 120), ("1h", 3600), ("1d", 86400)])
def test_single_units(text, seconds):
    assert parse(text) == seconds


def test_combined():
    assert parse("1h30m") == 5400


def test_rejects_garbage():
    with pytest.raises(ValueError):
        parse("soon")
