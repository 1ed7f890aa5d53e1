"""Jobs with cron schedules and the runs due in a window."""

from dataclasses import dataclass, field
from datetime import timedelta

from .cron import CronExpression


@dataclass
class Job:
    name: str
    schedule: CronExpression
    priority: int = 0
    paused: bool = False
    tags: list = field(default_factory=list)


class Scheduler:
    def __init__(self):
        self._jobs = {}

    def add(self, name, expression, priority=0, tags=None):
        if name in self._jobs:
            raise ValueError(f"job {name!r} already exists")
        job = Job(name, CronExpression(expression), priority, tags=list(tags or []))
        self._jobs[name] = job
        return job

    def remove(self, name):
        del self._jobs[name]

    def pause(self, name):
        self._jobs[name].paused = True

    def resume(self, name):
        self._jobs[name].paused = False

    def jobs(self, tag=None):
        return [job for job in self._jobs.values() if tag is None or tag in job.tags]

    def runs_between(self, start, end):
        """(time, job name) of every run in ``(start, end]``, by time, then higher priority first, then name."""
        runs = []
        for job in self._jobs.values():
            if job.paused:
                continue
            moment = start
            while True:
                moment = job.schedule.next_after(moment)
                if moment > end:
                    break
                runs.append((moment, -job.priority, job.name))
        runs.sort()
        return [(moment, name) for moment, _, name in runs]

    def next_run(self, now):
        """The earliest (time, job name) after ``now`` among unpaused jobs; None when there is none."""
        candidates = [(job.schedule.next_after(now), job.name) for job in self._jobs.values() if not job.paused]
        return min(candidates) if candidates else None

    def busiest_hour(self, start, hours=24):
        """The hour (0-23) with the most runs in the ``hours`` after ``start``; the earliest on ties."""
        counts = {}
        for moment, _ in self.runs_between(start, start + timedelta(hours=hours)):
            counts[moment.hour] = counts.get(moment.hour, 0) + 1
        if not counts:
            return None
        return min(counts, key=lambda hour: (-counts[hour], hour))
