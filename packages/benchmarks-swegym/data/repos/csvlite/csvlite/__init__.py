"""Read and write CSV text."""

from .reader import read_rows, read_records, CsvError
from .writer import write_rows, quote_field
from .infer import infer_type, convert_column

__all__ = ["read_rows", "read_records", "CsvError", "write_rows", "quote_field", "infer_type", "convert_column"]
