"""Reading configuration text into a Config."""

from .config import Config, ConfigError


def _strip_comment(line):
    """Remove a ``;`` or ``#`` comment that starts the line or follows whitespace."""
    for index, char in enumerate(line):
        if char in ";#" and (index == 0 or line[index - 1].isspace()):
            return line[:index]
    return line


def loads(text, defaults=None):
    """Parse configuration text. Keys before the first section go to section ``DEFAULT``."""
    sections = {"DEFAULT": dict(defaults or {})}
    current = "DEFAULT"
    last_key = None
    for number, raw in enumerate(text.splitlines(), start=1):
        if raw.strip() == "":
            last_key = None
            continue
        if raw[0] in " \t" and last_key is not None:
            sections[current][last_key] += "\n" + _strip_comment(raw).strip()
            continue
        line = _strip_comment(raw).strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1].strip()
            if not current:
                raise ConfigError(f"line {number}: empty section name")
            sections.setdefault(current, {})
            last_key = None
            continue
        separator = min((line.find(char) for char in "=:" if char in line), default=-1)
        if separator <= 0:
            raise ConfigError(f"line {number}: expected 'key = value', got {raw!r}")
        key = line[:separator].strip().lower()
        value = line[separator + 1:].strip()
        sections[current][key] = value
        last_key = key
    return Config(sections)


def load(path, defaults=None):
    """Parse the configuration file at ``path`` (UTF-8)."""
    with open(path, encoding="utf-8") as handle:
        return loads(handle.read(), defaults)
