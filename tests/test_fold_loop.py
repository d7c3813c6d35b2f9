"""FOLD's loop in numba (aspml.kernels.fold_loop) against the Python loop it replaces:
the same programs, the same "learned no rules" reasons, on random tables (numbers with
gaps and ties, categories, flags, missing values), binary and multi-class, weighted and
not, at every setting that changes the search, and on the shared multi-class tables."""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import aspml
from aspml.learners.fold import _Search


@st.composite
def tables(draw, max_classes=4):
    n = draw(st.integers(4, 60))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    cols = {}
    for j in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["int", "float", "category", "flag", "mixed"]))
        if kind == "int":
            v = rng.integers(0, draw(st.integers(1, 8)), n).astype(float)
        elif kind == "float":
            v = np.round(rng.normal(size=n), draw(st.integers(0, 2)))
        elif kind == "category":
            v = rng.choice(["a", "b", "c", "d"][:draw(st.integers(1, 4))], n).astype(object)
        elif kind == "flag":
            v = rng.random(n) < 0.5
        else:
            v = np.where(rng.random(n) < 0.5, rng.integers(0, 5, n).astype(object),
                         rng.choice(["x", "y"], n).astype(object))
        if kind != "flag" and draw(st.booleans()):
            v = v.astype(object)
            v[rng.random(n) < 0.2] = None
        cols[f"c{j}"] = v
    k = draw(st.integers(2, max_classes))
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)                    # every class present
    # labels that follow the first column a little, so that rules are found
    first = pd.to_numeric(pd.Series(cols["c0"]), errors="coerce").fillna(0).to_numpy()
    if draw(st.booleans()):
        y = np.where(rng.random(n) < 0.6, (first > np.median(first)).astype(int) % k, y)
        y[:k] = np.arange(k)
    weights = draw(st.sampled_from([None, "dyadic", "any"]))
    if weights == "dyadic":             # every sum exact, in whatever order it is added
        weights = rng.integers(1, 9, n) / 4.0
    elif weights == "any":              # sums the two loops round differently
        weights = rng.uniform(0.05, 3.0, n) / n
    return pd.DataFrame(cols), np.array([f"k{c}" for c in y]), weights


def _fit(loop, make, X, y, w):
    _Search.loop = loop
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            clf = make().fit(X, y, sample_weight=w)
        return clf.program_, sorted(str(c.message) for c in caught)
    finally:
        _Search.loop = "numba"


SETTINGS = st.fixed_dictionaries({
    "learner": st.sampled_from(["FoldSE", "FoldRpp"]),
    "ratio": st.sampled_from([0.0, 0.25, 0.5, 1.0, float("inf")]),
    "max_depth": st.sampled_from([None, 0, 1, 2]),
    "tail": st.sampled_from([0.0, 0.005, 0.1]),
    "heuristic": st.sampled_from(["mgi", "ig"]),
    "negated_comparisons": st.booleans(),
    "max_bins": st.sampled_from([None, 3]),
    "max_rules": st.sampled_from([None, 1, 3, 8]),
    "binary": st.booleans(),
})


def _learner(s):
    if s["learner"] == "FoldRpp":
        kw = {k: s[k] for k in ("ratio", "max_depth", "max_bins", "max_rules")}
        return lambda: aspml.FoldRpp(**kw)
    kw = {k: s[k] for k in ("ratio", "max_depth", "tail", "heuristic", "negated_comparisons",
                            "max_bins", "max_rules")}
    return lambda: aspml.FoldSE(**kw)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), SETTINGS)
def test_the_numba_loop_learns_the_python_loops_program(table, s):
    X, y, w = table
    if s["binary"]:
        y = np.where(y == "k0", "yes", "no")
    make = _learner(s)
    slow = _fit("python", make, X, y, w)
    fast = _fit("numba", make, X, y, w)
    assert fast[0] == slow[0], (str(slow[0]), str(fast[0]))
    assert fast[1] == slow[1]                # the same warnings: "learned no rules" and why


def test_a_traced_fit_takes_the_python_loop_and_learns_the_same(monkeypatch):
    rng = np.random.default_rng(3)
    X = pd.DataFrame({"a": rng.integers(0, 20, 300), "b": rng.choice(["p", "q", "r"], 300)})
    y = np.where((X.a > 7) & (X.b != "q") | (X.a < 2), "s", "t")
    calls = []
    real = _Search.fast_rule_set
    monkeypatch.setattr(_Search, "fast_rule_set", lambda self, *a: calls.append(1) or
                        real(self, *a))
    plain = aspml.FoldSE().fit(X, y).program_
    assert calls == [1]
    steps = []
    traced = aspml.FoldSE().fit(X, y, trace=steps.append).program_
    assert calls == [1] and steps                   # the trace's steps come from Python
    assert traced == plain


@pytest.mark.parametrize("learner", [aspml.FoldSE, aspml.FoldRpp])
def test_a_rule_left_with_no_positive_stops_there(learner):
    """FOLD-R++'s search may narrow a rule to none of its positives, and no rule set keeps
    such a rule; it went on narrowing its negatives (on avila 407 of FoldRpp's 1,203
    literal searches).  It stops at once (an ``empty`` step), and the program is the one
    both loops learn."""
    rng = np.random.default_rng(0)
    n = 300
    X = pd.DataFrame({"age": rng.integers(20, 80, n), "bp": rng.choice(["hi", "lo", "mid"], n),
                      "w": rng.integers(1, 4, n)})
    y = np.where(X.age > 60, "old", np.where(X.age > 40, "mid", "young"))
    y[rng.random(n) < 0.2] = "mid"
    steps = []
    traced = learner().fit(X, y, trace=steps.append).program_
    assert traced == _fit("numba", learner, X, y, None)[0]
    empty = [i for i, e in enumerate(steps) if e["step"] == "empty"]
    assert empty                                   # the table has such rules
    for i, e in enumerate(steps[:-1]):
        if e["step"] == "literal" and e["tp"] == 0:     # the rule's last literal
            assert steps[i + 1]["step"] == "empty" and steps[i + 1]["fp"] == e["fp"]
            assert steps[i + 2]["step"] == "covered" and not steps[i + 2]["kept"]


@pytest.mark.parametrize("seed", [0, 1])
def test_a_class_refused_again_is_settled_without_its_searches(seed, monkeypatch):
    """Many classes, numbers that follow them loosely: FOLD-R++'s search often narrows a
    class's rule to none of its rows, and the class is tried again after each kept rule
    of another class.  When its next rule takes the same literals to the same rows, the
    numba loop knows the outcome without searching on (``fold_loop._rule_literals``'s
    memo): the programs are the Python loop's, which searches every time."""
    rng = np.random.default_rng(seed)
    n, k = 400, 6
    c = rng.integers(0, k, n)
    X = pd.DataFrame({f"f{j}": np.round(c * 0.3 + rng.normal(0, 1, n), 3) for j in range(3)})
    y = np.array([f"k{v}" for v in c])
    settled = []
    real = _Search.fast_multiclass

    def spy(self, *args):
        out = real(self, *args)
        settled.append(self.settled)
        return out

    monkeypatch.setattr(_Search, "fast_multiclass", spy)
    # (FoldSE's default keeps fewer rules here, MIN_DECIDED rows each, and settles none)
    # (no budget: a list past it is learned twice, the second time held to it)
    for make in (aspml.FoldSE, aspml.FoldRpp, functools.partial(aspml.FoldSE, tail=0)):
        make = functools.partial(make, max_rules=None)
        assert _fit("numba", make, X, y, None) == _fit("python", make, X, y, None)
    assert len(settled) == 3 and min(settled[1:]) > 0


@pytest.mark.parametrize("name", ["cardiotocography", "ecoli", "balance", "anneal"])
def test_shared_multiclass_tables_learn_the_same_programs(data_dir, name):
    from aspml.bench import load_dataset, read_manifest
    d = load_dataset(data_dir, read_manifest(data_dir)[name], multiclass=True)
    assert len(set(d.y)) > 2
    for make in (aspml.FoldSE, aspml.FoldRpp):
        learner = functools.partial(make, kinds=d.kinds)
        slow = _fit("python", learner, d.X, d.y, None)
        fast = _fit("numba", learner, d.X, d.y, None)
        assert fast[0] == slow[0]


@pytest.mark.parametrize("loop", ["python", "numba"])
@pytest.mark.parametrize("make", [aspml.FoldRpp, functools.partial(aspml.FoldSE, tail=0)])
def test_a_perfect_split_goes_to_the_first_feature_at_any_weight_scale(loop, make):
    """Two perfect splits both score 0: a tie, whatever the weights' scale rounds them to
    (a review found the second feature winning at some scales: 0 has no relative
    tolerance)."""
    X = pd.DataFrame({"a": [0.0, 1, 2, 3, 4, 5], "b": [0.0, -1, -2, -3, -4, -5]})
    y = ["yes", "yes", "yes", "no", "no", "no"]
    w = np.array([0.6, 0.8, 0.4, 1.0, 1.0, 1.0])
    firsts = {str(_fit(loop, make, X, y, w * s)[0]).splitlines()[0]
              for s in (1.0, 10.0, 1 / w.sum(), 3.0, 1e-6)}
    assert firsts == {'IF a <= 2 THEN label = "yes"'}


@pytest.mark.parametrize("loop", ["python", "numba"])
def test_a_multiclass_program_does_not_depend_on_the_weights_scale(loop):
    """A literal covering exactly the lightest row's weight (a difference of sums, an ulp
    either side of it) is judged the same at every scale (a review's case)."""
    X = pd.DataFrame({"x": [0.0, 0, 1, 1, 0, 2, 3]})
    y = np.array(["a", "c", "b", "c", "a", "c", "a"])
    w = np.array([1.0, 4, 1, 3, 3, 2, 1])
    base = _fit(loop, aspml.FoldRpp, X, y, w)[0]
    for s in (1 / 15, 1 / w.sum(), 1e-6, 1e7, 3.0, 0.1):
        assert _fit(loop, aspml.FoldRpp, X, y, w * s)[0] == base, s


@pytest.mark.parametrize("bad", [-1, "2", 1.5, True])
def test_max_depth_is_none_or_a_whole_number(bad):
    """The two loops read a negative depth differently (one as 0, one as no limit): it
    is refused, as are texts and fractions."""
    X, y = pd.DataFrame({"a": [1, 2, 3, 4]}), ["p", "p", "n", "n"]
    for make in (aspml.FoldSE, aspml.FoldRpp):
        with pytest.raises(ValueError, match="max_depth must be None or a whole number"):
            make(max_depth=bad).fit(X, y)


@pytest.mark.parametrize("name", ["FoldSE", "FoldRpp", "Libre", "MultiValueRuleSet"])
def test_every_learner_keeps_its_docstring(name):
    """A class attribute written above FoldSE's docstring made it a stray string:
    ``help(FoldSE)`` and the API pages showed nothing."""
    doc = getattr(aspml, name).__doc__
    assert doc and "Parameters" in doc or name == "FoldRpp" and doc


@pytest.mark.parametrize("seed", [15, 0])
def test_a_kept_rule_decides_the_tail_bar_of_its_class(seed):
    """The tail bar of a multi-class rule counts the rows of its class it decides (no
    earlier rule covers them): a finance trial's FoldSE kept 'opened != "2018-01-01"
    -> C', which covered 2,999 rows and decided one.  A scattered class (D, 6% of the
    rows, as the trial's) beside three of a number's regions: at seed 15 a rule decided
    one row before.  Both loops learn the same program, and on the training rows each
    default rule decides at least the bar or half the rows of its class it covers, which
    are at least the bar: at least half the bar."""
    from aspml.display import rule_figures
    rng = np.random.default_rng(seed)
    n, k = 1500, 4
    u = rng.random(n).round(3)
    inc = rng.integers(10, 90, n)
    d = rng.random(n) < 0.06
    c = np.where(d, 3, np.where(u > 0.45, 2, np.where(inc < 35, 1, 0)))
    X = pd.DataFrame({"u": u, "inc": inc,
                      "opened": rng.choice([f"d{i}" for i in range(300)], n)})
    y = np.array(list("ABCD"))[c]
    programs = {loop: _fit(loop, aspml.FoldSE, X, y, None)[0] for loop in ("python", "numba")}
    assert programs["python"] == programs["numba"]
    program = programs["numba"]
    bar = aspml.FoldSE().tail * n / (k - 1)
    for fig, rule in zip(rule_figures(program, X, y), program.rules):
        if rule.head is None:
            assert fig["right"] >= bar / 2, (fig, str(program))


@pytest.mark.parametrize("make", [aspml.FoldSE, aspml.FoldRpp])
def test_a_list_past_max_rules_is_learned_again_held_to_it(make):
    """Past ``max_rules`` rules (exceptions counted) the decision list is learned again
    with each rule's bars raised to its share of what the budget has left: at most that
    many rules, the same program in both loops, a note that says so; under the budget
    the program is the one learned without it."""
    rng = np.random.default_rng(0)
    n, k = 600, 6
    c = rng.integers(0, k, n)
    X = pd.DataFrame({f"f{j}": np.round(c * 0.4 + rng.normal(0, 1, n), 2) for j in range(4)})
    y = np.array([f"k{v}" for v in c])
    free = _fit("numba", functools.partial(make, max_rules=None), X, y, None)[0]
    assert free.n_rules > 12
    for budget in (10, 12, 16):
        learner = functools.partial(make, max_rules=budget)
        fast, said = _fit("numba", learner, X, y, None)
        assert fast == _fit("python", learner, X, y, None)[0]
        assert 1 <= fast.n_rules <= budget
        assert any(f"passed max_rules={budget} rules, exceptions counted" in m for m in said)
        clf = learner().fit(X, y)
        assert clf.max_rules_held_ and clf.program_ == fast
    # at least two rules for each class but the default: 10 for six classes
    low, said = _fit("numba", functools.partial(make, max_rules=2), X, y, None)
    assert low.rules == _fit("numba", functools.partial(make, max_rules=10), X, y, None)[0].rules
    assert any("passed 10 rules (two for each class but the default; max_rules=2)" in m
               for m in said)
    # (a budget the whole list fits in: its rules before the trailing rules of the
    # default class are dropped)
    roomy = functools.partial(make, max_rules=1000)
    same = _fit("numba", roomy, X, y, None)[0]
    assert (same.rules, same.target) == (free.rules, free.target)
    assert not roomy().fit(X, y).max_rules_held_


@pytest.mark.parametrize("bad", [0, -3, 2.5, True, "40"])
def test_max_rules_is_none_or_a_whole_number_from_one(bad):
    X = pd.DataFrame({"a": [1, 2, 3, 4, 5, 6]})
    with pytest.raises(ValueError, match="max_rules must be None or a whole number >= 1"):
        aspml.FoldSE(max_rules=bad).fit(X, ["p", "q", "r"] * 2)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), SETTINGS, st.integers(1, 12))
def test_a_list_within_max_rules_is_the_one_learned_without_it(table, s, budget):
    """A review's finding: the watched loop counted the rules of the default class at the
    list's end (dropped from the program) and rules folded into their rule, and learned
    again, held, lists whose program was within the budget.  Within it (as printed) the
    program is the one learned without a budget; past it, held, within it."""
    X, y, w = table
    k = len(set(y))
    if k < 3:
        return
    free = _fit("numba", _learner({**s, "max_rules": None}), X, y, w)[0]
    make = _learner({**s, "max_rules": budget})
    clf = make()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf.fit(X, y, sample_weight=w)
    bound = max(budget, 2 * (k - 1))
    event("held" if free.n_rules > bound else "within")
    if free.n_rules <= bound:
        assert not clf.max_rules_held_
        assert (clf.program_.rules, clf.program_.target) == (free.rules, free.target)
    else:
        assert clf.max_rules_held_ and clf.program_.n_rules <= bound


def test_a_traced_fit_says_where_the_list_is_learned_again():
    """A review: a held fit's trace held both lists back to back, with nothing between
    them; a ``budget`` step now marks the second, and learn --trace prints it."""
    from aspml.cli_learners import format_step
    rng = np.random.default_rng(0)
    n = 600
    c = rng.integers(0, 6, n)
    X = pd.DataFrame({f"f{j}": np.round(c * 0.4 + rng.normal(0, 1, n), 2) for j in range(4)})
    y = np.array([f"k{v}" for v in c])
    steps = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        traced = aspml.FoldRpp(max_rules=12).fit(X, y, trace=steps.append)
    kinds = [e["step"] for e in steps]
    assert traced.max_rules_held_ and kinds.count("budget") == 1
    assert kinds.count("default") == 1 and kinds[-1] == "default"
    budget = steps[kinds.index("budget")]
    assert format_step(budget).startswith("the list passed its budget of 12 rules (max_rules)")
    assert traced.program_ == _fit("numba", functools.partial(aspml.FoldRpp, max_rules=12),
                                   X, y, None)[0]
