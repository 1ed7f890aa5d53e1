"""Guessing column types."""


def _is_int(text):
    body = text[1:] if text[:1] in "+-" else text
    return body.isdigit()


def _is_float(text):
    try:
        float(text)
    except ValueError:
        return False
    return text.strip().lower() not in {"nan", "inf", "-inf", "+inf", "infinity"}


def infer_type(values):
    """'int', 'float', 'bool' or 'str' for a column; empty strings are ignored."""
    present = [value.strip() for value in values if value.strip() != ""]
    if not present:
        return "str"
    if all(_is_int(value) for value in present):
        return "int"
    if all(_is_float(value) for value in present):
        return "float"
    if all(value.lower() in {"true", "false"} for value in present):
        return "bool"
    return "str"


def convert_column(values):
    """Values converted to the inferred type; empty strings become None."""
    kind = infer_type(values)
    convert = {
        "int": int,
        "float": float,
        "bool": lambda value: value.strip().lower() == "true",
        "str": lambda value: value,
    }[kind]
    return [None if value.strip() == "" else convert(value) for value in values]
