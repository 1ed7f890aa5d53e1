"""Unified-diff output and statistics."""

from .core import diff_lines


def stats(old, new):
    """Counts of inserted and deleted lines."""
    edits = diff_lines(old, new)
    return {
        "insertions": sum(1 for edit in edits if edit.op == "insert"),
        "deletions": sum(1 for edit in edits if edit.op == "delete"),
    }


def _groups(edits, context):
    """Runs of edits with at most ``context`` equal lines around and between changes."""
    changed = [index for index, edit in enumerate(edits) if edit.op != "equal"]
    if not changed:
        return []
    groups = []
    start = max(0, changed[0] - context)
    end = min(len(edits), changed[0] + context + 1)
    for index in changed[1:]:
        if index - context <= end:
            end = min(len(edits), index + context + 1)
        else:
            groups.append((start, end))
            start = max(0, index - context)
            end = min(len(edits), index + context + 1)
    groups.append((start, end))
    return groups


def _range(start, count):
    """Hunk range ``start,count`` (1-based); an empty range names the line before it."""
    if count == 0:
        return f"{start},0"
    if count == 1:
        return f"{start + 1}"
    return f"{start + 1},{count}"


def unified(old, new, old_name="a", new_name="b", context=3):
    """A unified diff of two texts ('' when they are equal)."""
    edits = diff_lines(old, new)
    lines = []
    for start, end in _groups(edits, context):
        chunk = edits[start:end]
        old_start = chunk[0].old_index
        new_start = chunk[0].new_index
        old_count = sum(1 for edit in chunk if edit.op != "insert")
        new_count = sum(1 for edit in chunk if edit.op != "delete")
        lines.append(f"@@ -{_range(old_start, old_count)} +{_range(new_start, new_count)} @@")
        for edit in chunk:
            prefix = {"equal": " ", "delete": "-", "insert": "+"}[edit.op]
            lines.append(prefix + edit.line)
    if not lines:
        return ""
    return "\n".join([f"--- {old_name}", f"+++ {new_name}", *lines]) + "\n"
