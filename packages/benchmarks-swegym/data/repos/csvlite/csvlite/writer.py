"""Writing rows as CSV text."""


def quote_field(value, delimiter=",", quote='"'):
    """Quote a field when it holds the delimiter, a quote, a line break or edge spaces."""
    text = "" if value is None else str(value)
    needs = any(char in text for char in (delimiter, quote, "\n", "\r")) or text != text.strip()
    if not needs:
        return text
    return quote + text.replace(quote, quote + quote) + quote


def write_rows(rows, delimiter=",", line_end="\n"):
    """CSV text for rows of values, each row ended by ``line_end``."""
    return "".join(delimiter.join(quote_field(value, delimiter) for value in row) + line_end for row in rows)
