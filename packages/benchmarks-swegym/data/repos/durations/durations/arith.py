"""Arithmetic on durations given as text or seconds."""

from .parse import parse


def _seconds(value):
    return parse(value) if isinstance(value, str) else int(value)


def total(values):
    """Sum durations given as text or seconds."""
    return sum(_seconds(value) for value in values)


def split_evenly(value, parts):
    """Split a duration into ``parts`` whole-second pieces that add up to it; earlier pieces get the extra seconds."""
    if parts <= 0:
        raise ValueError("parts must be positive")
    seconds = _seconds(value)
    size, extra = divmod(seconds, parts)
    return [size + 1 if index < extra else size for index in range(parts)]


def clamp(value, low, high):
    """Clamp a duration into ``[low, high]`` (all as seconds or text)."""
    low_s, high_s = _seconds(low), _seconds(high)
    if low_s > high_s:
        raise ValueError("low is above high")
    return max(low_s, min(_seconds(value), high_s))
