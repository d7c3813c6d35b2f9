"""Counts in messages: ``count(1, "rule")`` is "1 rule", ``count(3, "rule")`` "3 rules"."""


def count(n: int, noun: str) -> str:
    plural = noun + ("es" if noun.endswith(("s", "x", "ch", "sh")) else "s")
    return f"{n} {noun if n == 1 else plural}"
