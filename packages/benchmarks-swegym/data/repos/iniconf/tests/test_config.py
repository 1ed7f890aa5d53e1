import pytest

from iniconf import loads, ConfigError


def test_get_int():
    assert loads("[s]\nport = 8080\n").get_int("s", "port") == 8080


def test_default_section():
    config = loads("timeout = 5\n[s]\nname = x\n")
    assert config.get("s", "timeout") == "5"


def test_missing_key_raises():
    with pytest.raises(ConfigError):
        loads("[s]\n").get("s", "nope")


def test_interpolation_same_section():
    config = loads("[paths]\nroot = /srv\ndata = ${root}/data\n")
    assert config.get("paths", "data") == "/srv/data"


def test_bool_words():
    config = loads("[f]\na = yes\nb = off\n")
    assert config.get_bool("f", "a") is True
    assert config.get_bool("f", "b") is False
