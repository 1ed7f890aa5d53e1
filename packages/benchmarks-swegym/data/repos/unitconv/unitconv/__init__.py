"""Unit conversion."""

from .units import UNITS, dimension_of, UnitError
from .convert import convert, convert_temperature, parse_quantity, format_quantity, human_bytes

__all__ = [
    "UNITS", "dimension_of", "UnitError", "convert", "convert_temperature", "parse_quantity",
    "format_quantity", "human_bytes",
]
