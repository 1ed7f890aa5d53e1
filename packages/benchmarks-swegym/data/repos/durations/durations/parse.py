"""Reading durations such as ``1h30m``, ``45s``, ``2d 4h`` or ``-15m``."""

import re

UNIT_SECONDS = {
    "w": 7 * 24 * 3600,
    "d": 24 * 3600,
    "h": 3600,
    "m": 60,
    "s": 1,
}

_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([wdhms])")


def parse(text):
    """Return the number of seconds in ``text`` as an int (fractions are rounded)."""
    if not isinstance(text, str):
        raise TypeError("duration must be a string")
    cleaned = text.strip().lower()
    if not cleaned:
        raise ValueError("empty duration")
    sign = 1
    if cleaned[0] in "+-":
        sign = -1 if cleaned[0] == "-" else 1
        cleaned = cleaned[1:].strip()
    if cleaned.isdigit():
        return sign * int(cleaned)
    position = 0
    seconds = 0.0
    seen = set()
    for match in _PART.finditer(cleaned):
        if cleaned[position:match.start()].strip():
            raise ValueError(f"unexpected text in duration: {text!r}")
        number, unit = match.groups()
        if unit in seen:
            raise ValueError(f"unit {unit!r} given twice in {text!r}")
        seen.add(unit)
        seconds += float(number) * UNIT_SECONDS[unit]
        position = match.end()
    if position == 0 or cleaned[position:].strip():
        raise ValueError(f"cannot read duration: {text!r}")
    return sign * int(round(seconds))
