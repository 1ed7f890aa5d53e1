"""Splitting expression text into tokens."""

from dataclasses import dataclass


class ExpressionError(ValueError):
    """Raised for text that is not a valid expression."""


@dataclass(frozen=True)
class Token:
    kind: str  # "number", "name", "op", "lparen", "rparen", "comma"
    text: str
    position: int


_OPERATORS = "+-*/%^"


def tokenize(text):
    """Return the tokens of ``text``; raises ExpressionError on a character it cannot read."""
    tokens = []
    index = 0
    while index < len(text):
        char = text[index]
        if char.isspace():
            index += 1
        elif char.isdigit() or (char == "." and index + 1 < len(text) and text[index + 1].isdigit()):
            start = index
            while index < len(text) and (text[index].isdigit() or text[index] == "."):
                index += 1
            if index < len(text) and text[index] in "eE":
                index += 1
                if index < len(text) and text[index] in "+-":
                    index += 1
                while index < len(text) and text[index].isdigit():
                    index += 1
            tokens.append(Token("number", text[start:index], start))
        elif char.isalpha() or char == "_":
            start = index
            while index < len(text) and (text[index].isalnum() or text[index] == "_"):
                index += 1
            tokens.append(Token("name", text[start:index], start))
        elif char in _OPERATORS:
            tokens.append(Token("op", char, index))
            index += 1
        elif char == "(":
            tokens.append(Token("lparen", char, index))
            index += 1
        elif char == ")":
            tokens.append(Token("rparen", char, index))
            index += 1
        elif char == ",":
            tokens.append(Token("comma", char, index))
            index += 1
        else:
            raise ExpressionError(f"unexpected character {char!r} at position {index}")
    return tokens
