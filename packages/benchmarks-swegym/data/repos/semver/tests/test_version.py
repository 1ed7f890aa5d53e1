import pytest

from semver import parse, VersionError


def test_parse_full():
    version = parse("1.4.0-rc.1+build.7")
    assert (version.major, version.minor, version.patch) == (1, 4, 0)
    assert version.prerelease == ("rc", "1")
    assert str(version) == "1.4.0-rc.1+build.7"


def test_order_numbers():
    assert parse("1.2.10") > parse("1.2.9")


def test_invalid():
    with pytest.raises(VersionError):
        parse("1.2")


def test_bump_minor():
    assert str(parse("1.2.3").bump("minor")) == "1.3.0"
