"""Counts in messages: ``count(1, "rule")`` is "1 rule", ``count(3, "rule")`` "3 rules"."""


def count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")
