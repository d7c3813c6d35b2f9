"""aspml: interpretable classifiers as normal logic programs with default exceptions."""

from .errors import AspmlError, DialectError, EngineError, ParseError, ScaleError
from .logic import (Compare, Feature, Flag, InSet, Interval, Literal, NotAtom, NotCompare,
                    Program, Rule, Schema, Target, parse)
from .logic.store import load  # noqa: E402
from . import asp, data, evaluate, prolog  # noqa: E402  (submodules users reach as aspml.asp ...)
from .learners import FoldRpp, FoldSE, Libre, MultiValueRuleSet  # noqa: E402
from .explain import Explanation, explain  # noqa: E402
from .asp.explain import Counterfactual, counterfactual  # noqa: E402
from .generalize import DescriptiveModel, generalize, rules_from_sklearn  # noqa: E402

__version__ = "0.1.0"

__all__ = ["load", "DescriptiveModel", "generalize", "rules_from_sklearn", "Counterfactual",
           "Explanation", "counterfactual", "explain", "FoldRpp", "FoldSE", "Libre",
           "MultiValueRuleSet", "AspmlError", "Compare", "DialectError", "EngineError",
           "Feature", "Flag", "InSet",
           "Interval", "Literal", "NotAtom", "NotCompare", "ParseError", "Program", "Rule",
           "ScaleError", "Schema", "Target", "parse"]
