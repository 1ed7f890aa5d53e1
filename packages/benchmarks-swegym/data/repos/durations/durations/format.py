"""Writing durations back as text."""

from .parse import UNIT_SECONDS

_ORDER = ["w", "d", "h", "m", "s"]


def format_duration(seconds, largest="d"):
    """Format ``seconds`` as ``1h30m``; units above ``largest`` are not used."""
    if seconds == 0:
        return "0s"
    sign = "-" if seconds < 0 else ""
    remaining = abs(int(seconds))
    parts = []
    for unit in _ORDER[_ORDER.index(largest):]:
        size = UNIT_SECONDS[unit]
        count, remaining = divmod(remaining, size)
        if count:
            parts.append(f"{count}{unit}")
    return sign + "".join(parts)


def format_clock(seconds):
    """Format ``seconds`` as ``H:MM:SS`` (hours are not wrapped at 24)."""
    sign = "-" if seconds < 0 else ""
    remaining = abs(int(seconds))
    hours, remaining = divmod(remaining, 3600)
    minutes, secs = divmod(remaining, 60)
    return f"{sign}{hours}:{minutes:02d}:{secs:02d}"
