"""Parse, format and add up human-written durations."""

from .parse import parse, UNIT_SECONDS
from .format import format_duration, format_clock
from .arith import total, split_evenly, clamp

__all__ = ["parse", "format_duration", "format_clock", "total", "split_evenly", "clamp", "UNIT_SECONDS"]
