"""Five-field cron expressions: minute hour day-of-month month day-of-week."""

from datetime import datetime, timedelta


class CronError(ValueError):
    """Raised for an expression that cannot be read."""


_FIELDS = [("minute", 0, 59), ("hour", 0, 23), ("day", 1, 31), ("month", 1, 12), ("weekday", 0, 6)]
_NAMES = {
    "month": {name: number for number, name in enumerate(
        ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"], start=1)},
    "weekday": {name: number for number, name in enumerate(["sun", "mon", "tue", "wed", "thu", "fri", "sat"])},
}


def _value(text, field, low, high):
    names = _NAMES.get(field, {})
    lowered = text.lower()
    if lowered in names:
        return names[lowered]
    if not text.isdigit():
        raise CronError(f"bad {field} value {text!r}")
    number = int(text)
    if field == "weekday" and number == 7:
        return 0
    if not low <= number <= high:
        raise CronError(f"{field} value {number} outside {low}-{high}")
    return number


def parse_field(text, field):
    """The set of values a field allows: ``*``, ``a``, ``a-b``, ``*/n``, ``a-b/n`` and lists of them."""
    spec = next(spec for spec in _FIELDS if spec[0] == field)
    _, low, high = spec
    values = set()
    for part in text.split(","):
        step = 1
        if "/" in part:
            part, step_text = part.split("/", 1)
            if not step_text.isdigit() or int(step_text) == 0:
                raise CronError(f"bad step in {field}: {text!r}")
            step = int(step_text)
        if part == "*":
            start, end = low, high
        elif "-" in part:
            first, last = part.split("-", 1)
            start, end = _value(first, field, low, high), _value(last, field, low, high)
            if start > end:
                raise CronError(f"{field} range {part!r} runs backwards")
        else:
            start = _value(part, field, low, high)
            end = high if step > 1 else start
        values.update(range(start, end + 1, step))
    return values


class CronExpression:
    def __init__(self, text):
        parts = text.split()
        if len(parts) != 5:
            raise CronError(f"expected 5 fields, got {len(parts)}: {text!r}")
        self.text = text
        self.fields = {name: parse_field(part, name) for (name, _, _), part in zip(_FIELDS, parts)}
        self.day_restricted = parts[2] != "*"
        self.weekday_restricted = parts[4] != "*"

    def _day_matches(self, moment):
        weekday = (moment.weekday() + 1) % 7  # cron counts from Sunday = 0
        day_ok = moment.day in self.fields["day"]
        weekday_ok = weekday in self.fields["weekday"]
        if self.day_restricted and self.weekday_restricted:
            return day_ok or weekday_ok
        return day_ok and weekday_ok

    def matches(self, moment):
        return (
            moment.minute in self.fields["minute"]
            and moment.hour in self.fields["hour"]
            and moment.month in self.fields["month"]
            and self._day_matches(moment)
        )

    def next_after(self, moment, limit_days=366 * 5):
        """The first matching minute strictly after ``moment``."""
        candidate = moment.replace(second=0, microsecond=0) + timedelta(minutes=1)
        end = moment + timedelta(days=limit_days)
        while candidate <= end:
            if candidate.month not in self.fields["month"]:
                candidate = (candidate.replace(day=1, hour=0, minute=0) + timedelta(days=32)).replace(day=1)
                continue
            if not self._day_matches(candidate):
                candidate = candidate.replace(hour=0, minute=0) + timedelta(days=1)
                continue
            if candidate.hour not in self.fields["hour"]:
                candidate = candidate.replace(minute=0) + timedelta(hours=1)
                continue
            if candidate.minute in self.fields["minute"]:
                return candidate
            candidate += timedelta(minutes=1)
        raise CronError(f"no run of {self.text!r} within {limit_days} days")
