"""Load INI-style configuration files."""

from .parser import loads, load, ConfigError
from .config import Config

__all__ = ["loads", "load", "Config", "ConfigError"]
