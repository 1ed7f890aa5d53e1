"""Reading CSV text into rows."""


class CsvError(ValueError):
    """Raised for malformed CSV."""


def read_rows(text, delimiter=",", quote='"'):
    """Split CSV text into rows of fields. Quoted fields may hold delimiters, newlines and doubled quotes."""
    rows = []
    row = []
    field = []
    in_quotes = False
    index = 0
    line = 1
    while index < len(text):
        char = text[index]
        if in_quotes:
            if char == quote:
                if index + 1 < len(text) and text[index + 1] == quote:
                    field.append(quote)
                    index += 1
                else:
                    in_quotes = False
            else:
                if char == "\n":
                    line += 1
                field.append(char)
        elif char == quote and not field:
            in_quotes = True
        elif char == delimiter:
            row.append("".join(field))
            field = []
        elif char == "\r" and index + 1 < len(text) and text[index + 1] == "\n":
            pass
        elif char == "\n":
            row.append("".join(field))
            rows.append(row)
            row, field = [], []
            line += 1
        else:
            field.append(char)
        index += 1
    if in_quotes:
        raise CsvError(f"unterminated quoted field (started before line {line})")
    if field or row:
        row.append("".join(field))
        rows.append(row)
    return rows


def read_records(text, delimiter=",", strict=True):
    """Rows as dictionaries keyed by the header row (the first row). Blank lines are skipped."""
    rows = [row for row in read_rows(text, delimiter) if row != [""]]
    if not rows:
        return []
    header = [name.strip() for name in rows[0]]
    if len(set(header)) != len(header):
        raise CsvError("duplicate column names in header")
    records = []
    for number, row in enumerate(rows[1:], start=2):
        if len(row) != len(header):
            if strict:
                raise CsvError(f"row {number} has {len(row)} fields, header has {len(header)}")
            row = (row + [""] * len(header))[: len(header)]
        records.append(dict(zip(header, row)))
    return records
