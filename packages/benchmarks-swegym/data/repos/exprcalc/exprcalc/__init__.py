"""Evaluate arithmetic expressions safely."""

from .tokens import tokenize, Token, ExpressionError
from .evaluator import evaluate, FUNCTIONS

__all__ = ["tokenize", "Token", "ExpressionError", "evaluate", "FUNCTIONS"]
