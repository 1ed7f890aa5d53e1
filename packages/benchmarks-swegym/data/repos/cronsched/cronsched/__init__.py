"""Cron expressions and a small scheduler."""

from .cron import CronError, CronExpression, parse_field
from .scheduler import Scheduler, Job

__all__ = ["CronError", "CronExpression", "parse_field", "Scheduler", "Job"]
