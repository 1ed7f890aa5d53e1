"""The unit table: each unit's dimension and size in the dimension's base unit."""


class UnitError(ValueError):
    """Raised for unknown units or conversions between different dimensions."""


UNITS = {
    # length, base metre
    "mm": ("length", 0.001),
    "cm": ("length", 0.01),
    "m": ("length", 1.0),
    "km": ("length", 1000.0),
    "in": ("length", 0.0254),
    "ft": ("length", 0.3048),
    "yd": ("length", 0.9144),
    "mi": ("length", 1609.344),
    # mass, base gram
    "mg": ("mass", 0.001),
    "g": ("mass", 1.0),
    "kg": ("mass", 1000.0),
    "lb": ("mass", 453.59237),
    "oz": ("mass", 28.349523125),
    # time, base second
    "ms": ("time", 0.001),
    "s": ("time", 1.0),
    "min": ("time", 60.0),
    "h": ("time", 3600.0),
    "day": ("time", 86400.0),
    # data, base byte
    "B": ("data", 1),
    "KB": ("data", 1000),
    "MB": ("data", 1000**2),
    "GB": ("data", 1000**3),
    "KiB": ("data", 1024),
    "MiB": ("data", 1024**2),
    "GiB": ("data", 1024**3),
}

ALIASES = {
    "meter": "m", "meters": "m", "metre": "m", "metres": "m",
    "kilometer": "km", "kilometers": "km", "inch": "in", "inches": "in",
    "foot": "ft", "feet": "ft", "mile": "mi", "miles": "mi",
    "gram": "g", "grams": "g", "kilogram": "kg", "kilograms": "kg", "pound": "lb", "pounds": "lb",
    "second": "s", "seconds": "s", "minute": "min", "minutes": "min", "hour": "h", "hours": "h",
    "days": "day",
}

TEMPERATURES = {"C", "F", "K"}


def canonical(unit):
    """The table name of ``unit`` (aliases are case-insensitive; table names are exact)."""
    if unit in UNITS or unit in TEMPERATURES:
        return unit
    alias = ALIASES.get(unit.lower())
    if alias is None:
        raise UnitError(f"unknown unit {unit!r}")
    return alias


def dimension_of(unit):
    name = canonical(unit)
    return "temperature" if name in TEMPERATURES else UNITS[name][0]
