"""The logic core: the Program model, its grammar, parser and printers."""

from .model import (Compare, Feature, Flag, InSet, Interval, Literal, NotAtom, NotCompare,
                    Program, Rule, Schema, Target)
from .parser import parse
from .printers import DIALECTS, print_program, text_literal

__all__ = ["Compare", "DIALECTS", "Feature", "Flag", "InSet", "Interval", "Literal", "NotAtom",
           "NotCompare", "Program", "Rule", "Schema", "Target", "parse", "print_program",
           "text_literal"]
