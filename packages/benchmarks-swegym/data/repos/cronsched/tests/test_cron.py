from datetime import datetime

import pytest

from cronsched import CronError, CronExpression, parse_field


def test_star():
    assert parse_field("*", "hour") == set(range(24))


def test_list_and_range():
    assert parse_field("1,5-7", "minute") == {1, 5, 6, 7}


def test_step():
    assert parse_field("*/15", "minute") == {0, 15, 30, 45}


def test_wrong_field_count():
    with pytest.raises(CronError):
        CronExpression("* * *")


def test_next_after_simple():
    expression = CronExpression("30 9 * * *")
    assert expression.next_after(datetime(2024, 3, 1, 8, 0)) == datetime(2024, 3, 1, 9, 30)
