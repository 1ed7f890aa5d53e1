"""Conversions, parsing and formatting."""

import re

from .units import UNITS, TEMPERATURES, UnitError, canonical, dimension_of

_QUANTITY = re.compile(r"^\s*([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*([A-Za-z]+)\s*$")


def convert_temperature(value, source, target):
    """Convert between C, F and K."""
    if source == target:
        return float(value)
    if source == "C":
        celsius = value
    elif source == "F":
        celsius = (value - 32) * 5 / 9
    else:
        celsius = value - 273.15
    if target == "C":
        return celsius
    if target == "F":
        return celsius * 9 / 5 + 32
    return celsius + 273.15


def convert(value, source, target):
    """Convert ``value`` from unit ``source`` to unit ``target`` of the same dimension."""
    source_name, target_name = canonical(source), canonical(target)
    if dimension_of(source_name) != dimension_of(target_name):
        raise UnitError(f"cannot convert {dimension_of(source_name)} to {dimension_of(target_name)}")
    if source_name in TEMPERATURES:
        return convert_temperature(value, source_name, target_name)
    return value * UNITS[source_name][1] / UNITS[target_name][1]


def parse_quantity(text):
    """Read ``"3.5 km"`` as ``(3.5, "km")``; the unit is returned in its table spelling."""
    match = _QUANTITY.match(text)
    if match is None:
        raise UnitError(f"cannot read quantity {text!r}")
    number, unit = match.groups()
    return float(number), canonical(unit)


def format_quantity(value, unit, digits=2):
    """``"1.61 km"``: rounded to ``digits`` decimals, trailing zeros removed."""
    text = f"{value:.{digits}f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text == "-0":
        text = "0"
    return f"{text} {unit}"


def human_bytes(count, binary=True):
    """Largest unit where the value is at least 1: ``human_bytes(1536) == "1.5 KiB"``."""
    units = ["B", "KiB", "MiB", "GiB"] if binary else ["B", "KB", "MB", "GB"]
    for unit in reversed(units):
        size = UNITS[unit][1]
        if abs(count) >= size:
            return format_quantity(count / size, unit, 1)
    return format_quantity(count, "B", 0)
