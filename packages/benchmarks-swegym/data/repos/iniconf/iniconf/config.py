"""Typed access to parsed configuration."""

import re

_REFERENCE = re.compile(r"\$\{([^}]+)\}")
_TRUE = {"1", "yes", "true", "on"}
_FALSE = {"0", "no", "false", "off"}
_MISSING = object()


class ConfigError(ValueError):
    """Raised for malformed configuration or a missing value."""


class Config:
    """Sections of key/value strings; section ``DEFAULT`` supplies keys missing elsewhere."""

    def __init__(self, sections):
        self._sections = sections

    def sections(self):
        """Section names in file order, without ``DEFAULT``."""
        return [name for name in self._sections if name != "DEFAULT"]

    def has(self, section, key):
        key = key.lower()
        return key in self._sections.get(section, {}) or key in self._sections["DEFAULT"]

    def _raw(self, section, key):
        key = key.lower()
        if section not in self._sections:
            raise ConfigError(f"no section {section!r}")
        values = self._sections[section]
        if key in values:
            return values[key]
        if key in self._sections["DEFAULT"]:
            return self._sections["DEFAULT"][key]
        raise ConfigError(f"no key {key!r} in section {section!r}")

    def get(self, section, key, default=_MISSING, _depth=0):
        """The value with ``${section.key}`` / ``${key}`` references expanded."""
        try:
            value = self._raw(section, key)
        except ConfigError:
            if default is _MISSING:
                raise
            return default
        if _depth > 10:
            raise ConfigError(f"reference loop at {section}.{key}")

        def expand(match):
            reference = match.group(1)
            ref_section, _, ref_key = reference.rpartition(".")
            return self.get(ref_section or section, ref_key, _depth=_depth + 1)

        return _REFERENCE.sub(expand, value)

    def get_int(self, section, key, default=_MISSING):
        value = self.get(section, key, default)
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{section}.{key} is not an integer: {value!r}") from None

    def get_float(self, section, key, default=_MISSING):
        value = self.get(section, key, default)
        try:
            return float(value)
        except (TypeError, ValueError):
            raise ConfigError(f"{section}.{key} is not a number: {value!r}") from None

    def get_bool(self, section, key, default=_MISSING):
        value = self.get(section, key, default)
        if isinstance(value, bool):
            return value
        lowered = str(value).strip().lower()
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise ConfigError(f"{section}.{key} is not a boolean: {value!r}")

    def get_list(self, section, key, default=_MISSING, separator=","):
        """A list of stripped, non-empty items (also split at line breaks of a continued value)."""
        value = self.get(section, key, default)
        if isinstance(value, list):
            return value
        items = []
        for line in str(value).split("\n"):
            items.extend(part.strip() for part in line.split(separator))
        return [item for item in items if item]
