"""Dependency order of derived atoms: exceptions, background atoms."""

from __future__ import annotations

from typing import Callable, Iterable, Mapping


def dependency_order(deps: Mapping[str, Iterable[str]],
                     on_cycle: Callable[[list[str]], Exception]) -> list[str]:
    """The names of ``deps`` in an order where each comes after those it depends on
    (depth first, in the mapping's order and each name's dependencies' order).

    A cycle raises ``on_cycle(cycle)``, the cycle as a path that ends where it
    starts (``["ab1", "ab2", "ab1"]``).
    """
    order: list[str] = []
    state: dict[str, int] = {}

    def visit(name: str, path: list[str]) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            raise on_cycle(path[path.index(name):] + [name])
        state[name] = 1
        for d in deps[name]:
            visit(d, path + [name])
        state[name] = 2
        order.append(name)

    for name in deps:
        visit(name, [])
    return order
