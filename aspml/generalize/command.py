"""``aspml simplify``: a descriptive model of a rule set, from the command line.

MODEL is one of

* an aspml program (``.lp``, ``.pl``, ``.scasp``, ``.txt``; ``--from`` when the
  suffix does not say) -- its rules predict the target's positive label;
* a JSON rule list (``.json``)::

      {"target": "walk_time", "task": "regression",
       "rules": [{"if": {"wind": {"hi": 5, "hi_closed": true}}, "then": [35, 40]},
                 {"if": {"precipitation": ["rain", "snow"]}, "then": 30}]}

  a condition is a list (a value set) or an object with ``lo``/``hi`` and
  optional ``lo_closed``/``hi_closed`` (an interval; a missing end is
  unbounded); ``then`` is a class, a number or ``[lo, hi]``; any other key
  (but those ``simplify -o x.json`` writes) is refused as a typo; a file
  ``simplify -o x.json`` wrote is read as its original rules (its hierarchy's
  leaves), for its unions hold exceptions that a plain rule does not;
* a scikit-learn tree or forest saved with skops (``.skops``,
  ``skops.io.dump(model, "tree.skops")``): skops reads only the types it is
  told to trust (here scikit-learn's tree storage, whose node indexes
  :func:`~aspml.generalize.sources.rules_from_sklearn` checks before use), so a
  crafted file cannot run code;
* with ``--allow-pickle`` only, one saved with joblib or pickle (``.joblib``,
  ``.pkl``, ``.pickle``).  Unpickling runs any code the file holds, so it is an
  explicit choice, for files you made yourself.
"""

from __future__ import annotations

import json
import math
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from .._words import count
from ..errors import AspmlError, AspmlWarning
from ..logic.model import InSet, Interval
from ..logic.store import dumps, read_program, suffix_dialect, write_text
from .rules import BoxRule


def add_arguments(p) -> None:
    p.add_argument("model", help="a program (.lp .pl .scasp .txt), a JSON rule list (.json), "
                                 "or a scikit-learn tree/forest saved with skops (.skops), or "
                                 "with joblib/pickle (.joblib .pkl: needs --allow-pickle)")
    p.add_argument("--allow-pickle", action="store_true",
                   help="UNSAFE: load a .joblib/.pkl/.pickle file, which runs any code it holds; "
                        "only for files you made yourself (skops files need no such trust)")
    p.add_argument("--rho", type=float, required=True, help="roughness threshold in [0, 1]")
    p.add_argument("--epsilon", type=float, default=0.0,
                   help="tolerance for numeric predictions (default 0)")
    p.add_argument("--reference", metavar="DATA.csv",
                   help="rows on which each union's fidelity must also reach rho")
    p.add_argument("--no-fidelity-check", dest="check_fidelity", action="store_false",
                   help="with --reference: measure fidelity but accept unions on coherence alone")
    p.add_argument("--iterative", action="store_true",
                   help="lower rho from --rho-start to --rho by --rho-step, each run from the last")
    p.add_argument("--rho-start", type=float, default=1.0)
    p.add_argument("--rho-step", type=float, default=0.05)
    p.add_argument("--from", dest="source", choices=["asp", "prolog", "scasp", "text"],
                   help="dialect of MODEL when its suffix does not say")
    p.add_argument("--feature-names", nargs="+", action="extend", metavar="NAME",
                   help="column names of a scikit-learn model fitted without them")
    p.add_argument("--positive", help="with -o PROGRAM: the class whose rules the program holds")
    p.add_argument("--digits", type=int, metavar="N",
                   help="with -o PROGRAM: round interval ends to N significant digits "
                        "(with --reference, the rows whose answer that changes are counted)")
    p.add_argument("--hierarchy", action="store_true", help="print each union's derivation tree")
    p.add_argument("-o", "--output", help="write here instead of stdout: .lp/.pl/.scasp a program "
                                          "(--positive), .json the model with its hierarchy, "
                                          "anything else the text")
    p.add_argument("--html", metavar="OUT.html", help="also draw the table and glyph views here")


def run(args) -> int:
    from . import generalize
    if not args.check_fidelity and not args.reference:
        raise AspmlError("--no-fidelity-check needs --reference: without reference rows there "
                         "is no fidelity to check")
    model, target, task = load_model(args.model, args.source, args.allow_pickle)
    reference = read_reference(args.reference) if args.reference else None
    dm = generalize(model, rho=args.rho, epsilon=args.epsilon, reference=reference,
                    iterative=args.iterative, rho_start=args.rho_start, rho_step=args.rho_step,
                    task=task, feature_names=args.feature_names, target=target,
                    check_fidelity=args.check_fidelity)
    if args.html:
        from .render import write_html
        write_html(dm, args.html)
    if args.output:
        out = Path(args.output)
        dialect = suffix_dialect(out)
        if dialect in ("asp", "prolog", "scasp"):
            positive = _as_label(args.positive, dm)
            program = dm.to_program(positive=positive, digits=args.digits)
            if args.digits is not None and reference is not None:
                _note_rounding(dm.to_program(positive=positive), program, reference,
                               args.digits, args.reference)
            # .lp and .pl saved as `learn -o` saves them (header and checksum line),
            # so every command reads them back; .scasp is an export
            text = dumps(program, dialect) if dialect != "scasp" else program.to_scasp()
        elif out.suffix == ".json":
            text = json.dumps(dm.to_dict(), indent=1, ensure_ascii=False, default=str) + "\n"
        else:
            text = dm.to_text(hierarchy=args.hierarchy)
        try:
            write_text(out, text)
        except OSError as e:
            raise AspmlError(f"cannot write {args.output}: {e.strerror or e}") from None
        s = dm.stats()
        print(f"{count(len(dm.original), 'rule')} -> {count(s['rules'], 'rule')}, "
              f"{count(s['conditions'], 'condition')}; written to {args.output}")
    else:
        sys.stdout.write(dm.to_text(hierarchy=args.hierarchy))
    return 0


def _note_rounding(exact, rounded, reference, digits: int, path: str) -> None:
    """Say how many reference rows the rounded interval ends answer otherwise."""
    differ = int((np.asarray(exact.predict(reference)) != np.asarray(rounded.predict(reference))).sum())
    if differ:
        warnings.warn(f"{count(differ, 'row')} of {path} get another answer from the saved "
                      f"program, its interval ends rounded to {digits} significant digits, "
                      "than from the descriptive model's own ends (more --digits keeps them)",
                      AspmlWarning, stacklevel=2)


def _as_label(text, dm):
    """``--positive`` as the class it names (the classes may be numbers or booleans)."""
    if text is None:
        return None
    try:
        return dm.class_named(text)
    except AspmlError:
        raise AspmlError(f"--positive {text}: no rule predicts it; the classes are "
                         f"{', '.join(str(c) for c in dm.classes())}") from None


def read_reference(path: str) -> pd.DataFrame:
    """The reference rows as every command reads a CSV file (:func:`aspml.read_csv`:
    the separator found, cells as text, only empty cells missing, so that a region
    ``NA`` is a value); a program reads them with its own missing tokens, a
    scikit-learn model's columns as numbers."""
    from ..data.csvfile import read_csv
    return read_csv(path)


PICKLE_SUFFIXES = (".joblib", ".pkl", ".pickle")
# what a tree or forest holds besides what skops trusts by default: the node storage,
# whose indexes rules_from_sklearn checks before anything follows them
SKOPS_TRUSTED = ["sklearn.tree._tree.Tree"]


def load_model(path: str, dialect: str | None = None, allow_pickle: bool = False):
    """``(model, target name or None, task or None)`` from a file.

    A pickle (``.joblib``, ``.pkl``, ``.pickle``) loads only with ``allow_pickle``:
    unpickling runs whatever code the file holds, before any check could refuse it.
    """
    p = Path(path)
    if p.suffix in PICKLE_SUFFIXES:
        if not allow_pickle:
            raise AspmlError(f"{path} is a pickle, and loading one runs any code it holds: save "
                             f"the model with skops (skops.io.dump(model, 'model.skops')), or "
                             f"give --allow-pickle if you made this file yourself")
        if not p.is_file():
            raise AspmlError(f"cannot read {path}: no such file")
        try:
            import joblib
            model = joblib.load(p)
        except Exception as e:                      # a pickle can fail in any way
            raise AspmlError(f"cannot load {path}: {type(e).__name__}: {e}") from None
        return model, None, None
    if p.suffix == ".skops":
        return load_skops(path), None, None
    if p.suffix == ".json" and dialect is None:
        try:
            text = p.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise AspmlError(f"cannot read {path}: {getattr(e, 'strerror', None) or e}") from None
        return rules_from_json(text, path)
    if dialect is None and suffix_dialect(p) is None:
        raise AspmlError(f"cannot tell what {path} holds; use .json, .joblib, a program suffix, "
                         "or --from asp|prolog|scasp|text")
    return read_program(path, dialect), None, None


def load_skops(path: str):
    """A scikit-learn model from a skops file, trusting no type beyond skops' defaults and
    :data:`SKOPS_TRUSTED` (a file that needs any other is refused, naming the types)."""
    try:
        import skops.io as sio
    except ImportError:
        raise AspmlError(f"reading {path} needs skops: pip install skops") from None
    if not Path(path).is_file():
        raise AspmlError(f"cannot read {path}: no such file")
    try:
        untrusted = [t for t in sio.get_untrusted_types(file=path) if t not in SKOPS_TRUSTED]
        if untrusted:
            raise AspmlError(f"{path} holds types aspml does not load: {', '.join(untrusted)} "
                             f"(a decision tree or forest needs none of them)")
        return sio.load(path, trusted=SKOPS_TRUSTED)
    except AspmlError:
        raise
    except Exception as e:                          # not a zip, a broken schema, ...
        raise AspmlError(f"cannot load {path}: not a skops file ({type(e).__name__}: "
                         f"{str(e).splitlines()[0] if str(e) else ''})") from None


# keys a rule list may hold: "if"/"then" (and "target"/"task"/"rules"), and what
# DescriptiveModel.to_dict writes beside them, so a saved model reads back; any other is a typo
RULE_KEYS = {"if", "then", "id", "union", "text", "prediction", "cc", "fidelity", "covered",
             "exceptions", "members", "children", "depth"}
LIST_KEYS = {"target", "task", "rules", "rho", "epsilon", "stats", "hierarchy"}


def rules_from_json(text: str, path: str = "<json>"):
    """``(rules, target, task)`` from a JSON rule list, or from a descriptive model that
    ``simplify -o x.json`` wrote: its original rules (the hierarchy's leaves), for its
    unions hold exceptions a plain rule does not (an AspmlWarning says so)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise AspmlError(f"{path}: not JSON (line {e.lineno}: {e.msg})") from None
    except (ValueError, RecursionError) as e:   # an integer of thousands of digits, deep nesting
        why = "nested too deeply" if isinstance(e, RecursionError) else str(e).splitlines()[0]
        raise AspmlError(f"{path}: not a rule list ({why})") from None
    target = task = None
    originals = False           # the hierarchy's leaves: their exceptions are the model's
    if isinstance(data, dict):
        unknown = set(data) - LIST_KEYS
        if unknown:
            raise AspmlError(f"{path}: unknown key(s) {sorted(unknown)}; a rule list is an object "
                             "with \"rules\" (and \"target\", \"task\") or a list of rules")
        target, task = data.get("target"), data.get("task")
        if target is not None and (not isinstance(target, str) or not target):
            raise AspmlError(f"{path}: \"target\" must be a name (a string), not {target!r}")
        for key in ("rho", "epsilon"):              # written by simplify -o x.json; not read
            if key in data and not _is_number(data[key]):
                raise AspmlError(f"{path}: \"{key}\" must be a number, not {data[key]!r}")
        if "hierarchy" in data:
            # simplify's own output: its rules are unions with exceptions, which a plain rule
            # does not hold; the original rules are the hierarchy's leaves (ids 0 .. n-1)
            nodes = data["hierarchy"]
            if not (isinstance(nodes, list) and all(isinstance(n, dict) for n in nodes)):
                raise AspmlError(f"{path}: \"hierarchy\" must be a list of rules")
            data = sorted((n for n in nodes if not n.get("union")),
                          key=lambda n: n.get("id") if _is_number(n.get("id")) else math.inf)
            if not data:
                raise AspmlError(f"{path}: the hierarchy holds no original rule")
            originals = True
            warnings.warn(f"{path} is a descriptive model: its "
                          f"{count(len(data), 'original rule')} (its hierarchy's) are "
                          "simplified anew; its unions hold exceptions a rule list cannot "
                          "(--iterative lowers rho step by step)", AspmlWarning, stacklevel=4)
        else:
            data = data.get("rules")
    if not isinstance(data, list):
        raise AspmlError(f"{path}: expected a list of rules (or an object with \"rules\")")
    rules = []
    for i, item in enumerate(data):
        if not isinstance(item, dict) or "then" not in item:
            raise AspmlError(f"{path}: rule {i + 1} needs \"if\" and \"then\"")
        unknown = set(item) - RULE_KEYS
        if unknown:
            raise AspmlError(f"{path}: rule {i + 1}: unknown key(s) {sorted(unknown)}; a rule "
                             "has \"if\" and \"then\"")
        if item.get("exceptions") and not originals:
            raise AspmlError(f"{path}: rule {i + 1} has exceptions, which a rule list cannot "
                             "hold; give simplify's whole file (with its \"hierarchy\"), whose "
                             "original rules are read")
        if not isinstance(item.get("if", {}), dict):        # [] or null too: never IF TRUE
            raise AspmlError(f"{path}: rule {i + 1}: \"if\" must be an object of conditions "
                             "by feature")
        conds = []
        for feature, spec in item.get("if", {}).items():
            if not feature:
                raise AspmlError(f"{path}: rule {i + 1}: a condition has an empty feature name")
            if isinstance(spec, list):
                if not spec:
                    raise AspmlError(f"{path}: rule {i + 1}: the value set of {feature!r} is empty")
                odd = next((v for v in spec if not isinstance(v, (str, int, float))), None)
                if odd is not None:
                    raise AspmlError(f"{path}: rule {i + 1}: the value set of {feature!r} holds "
                                     f"{json.dumps(odd)}; values are strings or numbers")
                conds.append(InSet(feature, frozenset(spec)))
            elif isinstance(spec, dict):
                unknown = set(spec) - {"lo", "hi", "lo_closed", "hi_closed"}
                if unknown:
                    raise AspmlError(f"{path}: rule {i + 1}: unknown key(s) {sorted(unknown)} "
                                     f"in the interval of {feature!r}")
                for end in ("lo_closed", "hi_closed"):
                    if not isinstance(spec.get(end, True), bool):
                        raise AspmlError(f"{path}: rule {i + 1}: {end} of {feature!r} must be "
                                         f"true or false, not {json.dumps(spec[end])}")
                conds.append(Interval(feature, spec.get("lo"), spec.get("hi"),
                                      spec.get("lo_closed", True), spec.get("hi_closed", False)))
            else:
                raise AspmlError(f"{path}: rule {i + 1}: the condition on {feature!r} must be a "
                                 "list (value set) or an object with lo/hi (interval)")
        then = item["then"]
        if not (isinstance(then, (str, int, float)) or (
                isinstance(then, list) and len(then) == 2 and all(map(_is_number, then)))):
            raise AspmlError(f"{path}: rule {i + 1}: \"then\" is {json.dumps(then)}; it must "
                             "be a class, a number, or [lo, hi] of two numbers")
        rules.append(BoxRule(tuple(conds), tuple(then) if isinstance(then, list) else then))
    return rules, target, task


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)
