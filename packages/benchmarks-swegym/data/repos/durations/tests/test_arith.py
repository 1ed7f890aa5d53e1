from durations import total, split_evenly


def test_total_mixed():
    assert total(["1m", 30]) == 90


def test_split_exact():
    assert split_evenly(60, 3) == [20, 20, 20]
