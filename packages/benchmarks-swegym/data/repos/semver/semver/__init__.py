"""Semantic versions and ranges."""

from .version import Version, parse, VersionError
from .ranges import satisfies, max_satisfying

__all__ = ["Version", "parse", "VersionError", "satisfies", "max_satisfying"]
