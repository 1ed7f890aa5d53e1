"""Line-based text diffing."""

from .core import Edit, diff_lines, apply_edits, similarity
from .unified import unified, stats

__all__ = ["Edit", "diff_lines", "apply_edits", "similarity", "unified", "stats"]
