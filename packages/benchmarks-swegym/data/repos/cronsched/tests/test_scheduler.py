from datetime import datetime

from cronsched import Scheduler


def test_runs_between_orders_by_time():
    scheduler = Scheduler()
    scheduler.add("hourly", "0 * * * *")
    scheduler.add("half", "30 * * * *")
    runs = scheduler.runs_between(datetime(2024, 1, 1, 0, 0), datetime(2024, 1, 1, 1, 45))
    assert [name for _, name in runs] == ["half", "hourly", "half"]


def test_paused_jobs_do_not_run():
    scheduler = Scheduler()
    scheduler.add("a", "* * * * *")
    scheduler.pause("a")
    assert scheduler.runs_between(datetime(2024, 1, 1), datetime(2024, 1, 1, 0, 5)) == []
