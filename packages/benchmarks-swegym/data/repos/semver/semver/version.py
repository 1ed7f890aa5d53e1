"""Parsing, ordering and bumping versions (SemVer 2.0.0)."""

import re
from functools import total_ordering

_VERSION = re.compile(
    r"^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)"
    r"(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?"
    r"(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$"
)


class VersionError(ValueError):
    """Raised for text that is not a semantic version."""


def _prerelease_key(parts):
    # A version without pre-release ranks above any pre-release of it.
    if not parts:
        return (1,)
    key = []
    for part in parts:
        if part.isdigit():
            key.append((0, int(part), ""))
        else:
            key.append((1, 0, part))
    return (0, tuple(key))


@total_ordering
class Version:
    def __init__(self, major, minor, patch, prerelease=(), build=()):
        self.major, self.minor, self.patch = major, minor, patch
        self.prerelease = tuple(prerelease)
        self.build = tuple(build)

    def _key(self):
        return (self.major, self.minor, self.patch, _prerelease_key(self.prerelease))

    def __eq__(self, other):
        return isinstance(other, Version) and self._key() == other._key()

    def __lt__(self, other):
        return self._key() < other._key()

    def __hash__(self):
        return hash(self._key())

    def __str__(self):
        text = f"{self.major}.{self.minor}.{self.patch}"
        if self.prerelease:
            text += "-" + ".".join(self.prerelease)
        if self.build:
            text += "+" + ".".join(self.build)
        return text

    def __repr__(self):
        return f"Version({str(self)!r})"

    def bump(self, part):
        """The next version: ``major``, ``minor`` or ``patch``; pre-release and build are dropped."""
        if part == "major":
            return Version(self.major + 1, 0, 0)
        if part == "minor":
            return Version(self.major, self.minor + 1, 0)
        if part == "patch":
            if self.prerelease:
                return Version(self.major, self.minor, self.patch)
            return Version(self.major, self.minor, self.patch + 1)
        raise ValueError(f"unknown part {part!r}")


def parse(text):
    match = _VERSION.match(text.strip())
    if match is None:
        raise VersionError(f"not a semantic version: {text!r}")
    major, minor, patch, prerelease, build = match.groups()
    for part in (prerelease or "").split("."):
        if part.isdigit() and len(part) > 1 and part.startswith("0"):
            raise VersionError(f"numeric pre-release part with a leading zero: {text!r}")
    return Version(
        int(major), int(minor), int(patch),
        prerelease.split(".") if prerelease else (),
        build.split(".") if build else (),
    )
