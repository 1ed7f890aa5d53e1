import pytest

from iniconf import loads, ConfigError


def test_sections_and_values():
    config = loads("[server]\nhost = example.org\nport = 8080\n[client]\nretries = 3\n")
    assert config.sections() == ["server", "client"]
    assert config.get("server", "host") == "example.org"


def test_comment_lines():
    config = loads("; top comment\n[a]\n# another\nx = 1\n")
    assert config.get("a", "x") == "1"


def test_missing_separator():
    with pytest.raises(ConfigError):
        loads("[a]\njust words\n")
