"""Version ranges: ``>=1.2.0 <2.0.0``, ``^1.2.3``, ``~1.2.3``, ``1.2.x``, ``*``; ``||`` joins alternatives."""

from .version import Version, parse, VersionError


def _partial(text):
    """(major, minor, patch) with None for missing or x/* parts."""
    parts = text.lstrip("v").split(".")
    values = []
    for part in parts[:3]:
        values.append(None if part in ("x", "X", "*", "") else int(part))
    while len(values) < 3:
        values.append(None)
    return tuple(values)


def _caret(text):
    major, minor, patch = _partial(text)
    low = parse(f"{major}.{minor or 0}.{patch or 0}")
    if major > 0 or minor is None:
        high = Version(major + 1, 0, 0)
    elif minor > 0 or patch is None:
        high = Version(0, minor + 1, 0)
    else:
        high = Version(0, 0, patch + 1)
    return [(">=", low), ("<", high)]


def _tilde(text):
    major, minor, patch = _partial(text)
    low = parse(f"{major}.{minor or 0}.{patch or 0}")
    high = Version(major + 1, 0, 0) if minor is None else Version(major, minor + 1, 0)
    return [(">=", low), ("<", high)]


def _comparators(term):
    term = term.strip()
    if term in ("", "*", "x"):
        return []
    if term.startswith("^"):
        return _caret(term[1:])
    if term.startswith("~"):
        return _tilde(term[1:])
    for operator in (">=", "<=", ">", "<", "="):
        if term.startswith(operator):
            return [(operator, parse(term[len(operator):]))]
    major, minor, patch = _partial(term)
    if patch is not None and minor is not None:
        return [("=", parse(term))]
    if minor is None:
        return [(">=", Version(major, 0, 0)), ("<", Version(major + 1, 0, 0))]
    return [(">=", Version(major, minor, 0)), ("<", Version(major, minor + 1, 0))]


_TESTS = {
    ">=": lambda a, b: a >= b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    "<": lambda a, b: a < b,
    "=": lambda a, b: a == b,
}


def _matches_set(version, comparators):
    if version.prerelease:
        # A pre-release only matches a set that names a pre-release of the same major.minor.patch.
        same = [v for _, v in comparators if v.prerelease and (v.major, v.minor, v.patch) == (version.major, version.minor, version.patch)]
        if not same:
            return False
    return all(_TESTS[operator](version, bound) for operator, bound in comparators)


def satisfies(version, range_text):
    """Whether ``version`` (text or Version) is in the range."""
    if isinstance(version, str):
        version = parse(version)
    for alternative in range_text.split("||"):
        comparators = []
        for term in alternative.split():
            comparators.extend(_comparators(term))
        if _matches_set(version, comparators):
            return True
    return False


def max_satisfying(versions, range_text):
    """The highest version of ``versions`` in the range, or None."""
    best = None
    for text in versions:
        try:
            version = parse(text)
        except VersionError:
            continue
        if satisfies(version, range_text) and (best is None or version > best):
            best = version
    return None if best is None else str(best)
