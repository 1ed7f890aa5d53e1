"""The edit script between two lists of lines (longest common subsequence)."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Edit:
    op: str  # "equal", "delete" or "insert"
    line: str
    old_index: int  # index in the old lines (for insert: where it goes)
    new_index: int  # index in the new lines (for delete: where it was)


def _split(text):
    return text.splitlines() if isinstance(text, str) else list(text)


def _lcs_table(old, new):
    rows, cols = len(old), len(new)
    table = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(rows - 1, -1, -1):
        for j in range(cols - 1, -1, -1):
            if old[i] == new[j]:
                table[i][j] = table[i + 1][j + 1] + 1
            else:
                table[i][j] = max(table[i + 1][j], table[i][j + 1])
    return table


def diff_lines(old, new, ignore_whitespace=False):
    """Edits turning ``old`` into ``new`` (strings or lists of lines); deletions come before insertions."""
    old_lines, new_lines = _split(old), _split(new)
    key = (lambda line: " ".join(line.split())) if ignore_whitespace else (lambda line: line)
    old_keys = [key(line) for line in old_lines]
    new_keys = [key(line) for line in new_lines]
    table = _lcs_table(old_keys, new_keys)
    edits = []
    i = j = 0
    while i < len(old_lines) and j < len(new_lines):
        if old_keys[i] == new_keys[j]:
            edits.append(Edit("equal", new_lines[j], i, j))
            i += 1
            j += 1
        elif table[i + 1][j] >= table[i][j + 1]:
            edits.append(Edit("delete", old_lines[i], i, j))
            i += 1
        else:
            edits.append(Edit("insert", new_lines[j], i, j))
            j += 1
    while i < len(old_lines):
        edits.append(Edit("delete", old_lines[i], i, j))
        i += 1
    while j < len(new_lines):
        edits.append(Edit("insert", new_lines[j], i, j))
        j += 1
    return edits


def apply_edits(old, edits):
    """Rebuild the new lines from the old lines and an edit script."""
    old_lines = _split(old)
    result = []
    for edit in edits:
        if edit.op == "equal":
            if old_lines[edit.old_index] != edit.line and " ".join(old_lines[edit.old_index].split()) != " ".join(edit.line.split()):
                raise ValueError(f"line {edit.old_index + 1} does not match the edit script")
            result.append(edit.line)
        elif edit.op == "insert":
            result.append(edit.line)
    return result


def similarity(old, new):
    """Share of lines kept: 2 * equal / (len(old) + len(new)); 1.0 for two empty texts."""
    old_lines, new_lines = _split(old), _split(new)
    total = len(old_lines) + len(new_lines)
    if total == 0:
        return 1.0
    equal = sum(1 for edit in diff_lines(old_lines, new_lines) if edit.op == "equal")
    return 2 * equal / total
