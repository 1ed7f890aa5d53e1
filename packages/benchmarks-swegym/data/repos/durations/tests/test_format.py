from durations import format_duration, format_clock


def test_zero():
    assert format_duration(0) == "0s"


def test_hours_and_minutes():
    assert format_duration(5400) == "1h30m"


def test_clock():
    assert format_clock(3725) == "1:02:05"
