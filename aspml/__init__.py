"""aspml: interpretable classifiers as normal logic programs with default exceptions.

The public names load on first use (PEP 562): ``import aspml`` itself imports
nothing heavy, so ``aspml --version`` answers at once instead of loading
numpy, pandas, numba and scikit-learn first.
"""

import importlib as _importlib
import sys as _sys
import types as _types

from .errors import AspmlError, DialectError, EngineError, ParseError, ScaleError

__version__ = "0.1.0"

# public name -> the module that defines it
_WHERE = {
    **dict.fromkeys(["Compare", "Feature", "Flag", "InSet", "Interval", "Literal", "NotAtom",
                     "NotCompare", "Program", "Rule", "Schema", "Target", "parse"], ".logic"),
    "load": ".logic.store",
    "export": ".export",
    "read_csv": ".data.csvfile",
    **dict.fromkeys(["FoldRpp", "FoldSE", "Libre", "MultiValueRuleSet"], ".learners"),
    **dict.fromkeys(["Explanation", "explain"], ".explain"),
    **dict.fromkeys(["Counterfactual", "counterfactual"], ".asp.explain"),
    **dict.fromkeys(["DescriptiveModel", "generalize", "rules_from_sklearn"], ".generalize"),
}
_SUBMODULES = ("asp", "dask", "data", "evaluate", "prolog", "report")      # reached as aspml.asp ...

__all__ = ["load", "export", "read_csv", "DescriptiveModel", "generalize", "rules_from_sklearn", "Counterfactual",
           "Explanation", "counterfactual", "explain", "FoldRpp", "FoldSE", "Libre",
           "MultiValueRuleSet", "AspmlError", "Compare", "DialectError", "EngineError",
           "Feature", "Flag", "InSet",
           "Interval", "Literal", "NotAtom", "NotCompare", "ParseError", "Program", "Rule",
           "ScaleError", "Schema", "Target", "parse"]


def __getattr__(name: str):
    if name in _SUBMODULES:
        return _importlib.import_module("." + name, __name__)
    if name not in _WHERE:
        raise AttributeError(f"module 'aspml' has no attribute {name!r}")
    value = getattr(_importlib.import_module(_WHERE[name], __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted({n for n in globals() if not n.startswith("_")} | {"__version__"}
                  | set(_WHERE) | set(_SUBMODULES))


class _Package(_types.ModuleType):
    """The package's module type: ``aspml.explain`` and ``aspml.generalize`` are functions of
    the submodules of the same names, and importing such a submodule (``from aspml.explain
    import ...``) makes Python bind the submodule on the package; keep the function there."""

    def __setattr__(self, name, value):
        if isinstance(value, _types.ModuleType) and _WHERE.get(name) == "." + name:
            value = getattr(value, name)
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package
