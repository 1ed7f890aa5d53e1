"""A recursive-descent evaluator.

Grammar (lowest precedence first)::

    expr   := term (("+" | "-") term)*
    term   := unary (("*" | "/" | "%") unary)*
    unary  := "-" unary | power
    power  := atom ("^" unary)?          # right associative, binds tighter than unary minus on its left
    atom   := number | name | name "(" args ")" | "(" expr ")"
"""

import math

from .tokens import ExpressionError, tokenize

FUNCTIONS = {
    "abs": (abs, 1),
    "sqrt": (math.sqrt, 1),
    "min": (min, None),
    "max": (max, None),
    "round": (lambda value, digits: round(value, int(digits)), 2),
}


class _Parser:
    def __init__(self, tokens, variables):
        self.tokens = tokens
        self.index = 0
        self.variables = variables

    def peek(self):
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self, kind=None, text=None):
        token = self.peek()
        if token is None or (kind and token.kind != kind) or (text and token.text != text):
            where = "end of input" if token is None else f"{token.text!r} at position {token.position}"
            raise ExpressionError(f"unexpected {where}")
        self.index += 1
        return token

    def expr(self):
        value = self.term()
        while self.peek() is not None and self.peek().kind == "op" and self.peek().text in "+-":
            op = self.take().text
            right = self.term()
            value = value + right if op == "+" else value - right
        return value

    def term(self):
        value = self.unary()
        while self.peek() is not None and self.peek().kind == "op" and self.peek().text in "*/%":
            op = self.take().text
            right = self.unary()
            if op != "*" and right == 0:
                raise ExpressionError("division by zero")
            if op == "*":
                value = value * right
            elif op == "/":
                value = value / right
            else:
                value = value % right
        return value

    def unary(self):
        token = self.peek()
        if token is not None and token.kind == "op" and token.text == "-":
            self.take()
            return -self.unary()
        return self.power()

    def power(self):
        base = self.atom()
        token = self.peek()
        if token is not None and token.kind == "op" and token.text == "^":
            self.take()
            return base ** self.unary()
        return base

    def call(self, name):
        if name not in FUNCTIONS:
            raise ExpressionError(f"unknown function {name!r}")
        function, arity = FUNCTIONS[name]
        self.take("lparen")
        args = []
        if self.peek() is not None and self.peek().kind != "rparen":
            args.append(self.expr())
            while self.peek() is not None and self.peek().kind == "comma":
                self.take()
                args.append(self.expr())
        self.take("rparen")
        if arity is not None and len(args) != arity:
            raise ExpressionError(f"{name}() takes {arity} arguments, got {len(args)}")
        if arity is None and not args:
            raise ExpressionError(f"{name}() needs at least one argument")
        return float(function(args) if arity is None else function(*args))

    def atom(self):
        token = self.take()
        if token.kind == "number":
            try:
                return float(token.text)
            except ValueError:
                raise ExpressionError(f"bad number {token.text!r}") from None
        if token.kind == "name":
            following = self.peek()
            if following is not None and following.kind == "lparen":
                return self.call(token.text)
            if token.text not in self.variables:
                raise ExpressionError(f"unknown variable {token.text!r}")
            return float(self.variables[token.text])
        if token.kind == "lparen":
            value = self.expr()
            self.take("rparen")
            return value
        raise ExpressionError(f"unexpected {token.text!r} at position {token.position}")


def evaluate(text, variables=None):
    """Evaluate ``text`` with ``variables`` (a mapping of names to numbers) and return a float."""
    tokens = tokenize(text)
    if not tokens:
        raise ExpressionError("empty expression")
    parser = _Parser(tokens, dict(variables or {}))
    value = parser.expr()
    if parser.peek() is not None:
        token = parser.peek()
        raise ExpressionError(f"unexpected {token.text!r} at position {token.position}")
    return value
