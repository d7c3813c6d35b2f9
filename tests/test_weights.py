"""class_weight and sample_weight (issue #20 item 2): a row of weight k counts as k copies
of it, a row of weight 0 as no row, for every learner; kernels against slow versions."""

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import aspml
from aspml.errors import AspmlWarning
from aspml.bench import fold_scores, parse_learner, with_class_weight
from aspml.kernels.boundary import distinct_records
from aspml.kernels.cover import greedy_cover
from aspml.kernels.literals import best_literal, best_literal_parallel, build_view
from aspml.learners.mrs import quantile_cuts
from conftest import ENGINES, one_line_error, predict_with_every_engine, run_aspml
from test_kernels import search_inputs, slow_heuristic

LEARNERS = {
    "fold-se": lambda **k: aspml.FoldSE(**k),
    "fold-rpp": lambda **k: aspml.FoldRpp(**k),
    # LIBRE's default stopping splits the rows into inner folds: copies of a row can fall
    # into different folds, a weighted row cannot, so copies equal weights for the other
    # stopping rules (and weight 0 equals dropping the row for every one, below)
    "libre": lambda **k: aspml.Libre(n_estimators=5, early_stopping="train", random_state=0, **k),
    "mrs": lambda **k: aspml.MultiValueRuleSet(n_iter=150, random_state=0, **k),
}


def table(n=160, seed=0, rare=False):
    """Numbers (some missing), a category and a flag; the class depends on them, noisily."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=n).round(2)
    b = rng.integers(0, 30, n).astype(float)
    b[rng.random(n) < 0.1] = np.nan
    c = rng.choice(["red", "green", "blue"], n)
    d = rng.random(n) < 0.4
    if rare:                                         # about 5% positive, none of it certain
        p = np.where((a > 0.9) & (c != "blue"), 0.4, 0.01)
    else:
        p = np.where((a > 0.2) & (c != "blue") | (b > 25), 0.85, 0.15)
    y = np.where(rng.random(n) < p, "yes", "no")
    return pd.DataFrame({"a": a, "b": b, "c": c, "d": d}), y


def repeat(X, y, counts):
    idx = np.repeat(np.arange(len(y)), counts)
    return X.iloc[idx].reset_index(drop=True), np.asarray(y)[idx]


def fit(name, X, y, sample_weight=None, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AspmlWarning)
        return LEARNERS[name](positive="yes", **params).fit(X, y, sample_weight=sample_weight)


@pytest.mark.parametrize("name", LEARNERS)
def test_integer_weights_equal_repeated_rows(name):
    X, y = table()
    w = np.random.default_rng(1).integers(1, 4, len(y))
    weighted = fit(name, X, y, w)
    copies = fit(name, *repeat(X, y, w))
    assert weighted.program_.to_text() == copies.program_.to_text()
    assert weighted.program_.n_rules > 0
    assert np.allclose(weighted.predict_proba(X), copies.predict_proba(X))
    # and the weights change what is learned (the test could fail)
    assert weighted.program_.to_text() != fit(name, X, y).program_.to_text() or name == "mrs"


@pytest.mark.parametrize("name", [*LEARNERS, "libre-cv"])
def test_a_weight_of_zero_equals_dropping_the_row(name):
    X, y = table(seed=2)
    # a third of the rows weigh 0 (LIBRE's inner folds: the others 1, see LEARNERS)
    w = np.random.default_rng(3).integers(0, 2 if name == "libre-cv" else 3, len(y))
    if name == "libre-cv":
        make = lambda X, y, w=None: aspml.Libre(n_estimators=5, random_state=0,  # noqa: E731
                                                positive="yes").fit(X, y, sample_weight=w)
        a, b = make(X, y, w), make(*repeat(X, y, w))
    else:
        a, b = fit(name, X, y, w), fit(name, *repeat(X, y, w))
    assert a.program_.to_text() == b.program_.to_text()


@pytest.mark.parametrize("name", LEARNERS)
def test_class_weight_two_equals_repeating_that_class(name):
    X, y = table(seed=4)
    doubled = fit(name, X, y, class_weight={"yes": 2})
    copies = fit(name, *repeat(X, y, np.where(y == "yes", 2, 1)))
    assert doubled.program_.rules == copies.program_.rules
    assert doubled.program_.provenance_dict["class_weight"] == str({"yes": 2})


@pytest.mark.parametrize("name", LEARNERS)
def test_weights_of_one_change_nothing(name):
    X, y = table(seed=5)
    plain = fit(name, X, y)
    assert fit(name, X, y, np.ones(len(y))).program_.to_text() == plain.program_.to_text()
    assert "class_weight" not in plain.program_.to_text()     # the header as before


@pytest.mark.parametrize("name", LEARNERS)
def test_balanced_finds_the_rare_class(name):
    X, y = table(n=2000, seed=6, rare=True)
    assert 0.03 < np.mean(y == "yes") < 0.08
    plain = fit(name, X, y)
    balanced = fit(name, X, y, class_weight="balanced")
    hit, truth = balanced.decision(X), y == "yes"
    assert balanced.program_.n_rules > 0
    assert hit[truth].mean() > 0.5                            # recall of the rare class
    assert plain.decision(X)[truth].mean() < hit[truth].mean()
    if name.startswith("fold"):
        scores = fold_scores(hit, truth)
        assert scores["bal_acc"] > fold_scores(plain.decision(X), truth)["bal_acc"]


def test_balanced_weights_follow_scikit_learn():
    from sklearn.utils.class_weight import compute_sample_weight
    X, y = table(n=300, seed=7, rare=True)
    clf = aspml.FoldSE(positive="yes", class_weight="balanced")
    table_, target, weight = clf._training_data(X, y)
    assert np.allclose(weight, compute_sample_weight("balanced", y))
    n_pos = int((y == "yes").sum())
    assert np.allclose(weight[target], len(y) / (2 * n_pos))
    _, _, both = clf._training_data(X, y, np.full(len(y), 3.0))
    assert np.allclose(both, 3 * weight)                        # class weight x sample weight


@pytest.mark.parametrize("sample_weight, words", [
    (lambda n: -np.ones(n), "negative weights"),
    (lambda n: np.r_[np.nan, np.ones(n - 1)], "NaN or infinite"),
    (lambda n: np.zeros(n), "every row has weight zero"),
    (lambda n: np.ones(n - 1), "one weight per row"),
    (lambda n: np.array(["a"] * n), "must hold numbers"),
    (lambda n: 2.0, "an array of one weight per row"),
    (lambda n: np.r_[np.zeros(n - 1), 1.0], "has weight 0"),
])
@pytest.mark.parametrize("name", LEARNERS)
def test_bad_sample_weights_are_one_clear_error(name, sample_weight, words):
    X, y = table(n=40)
    with pytest.raises(ValueError, match=words):
        fit(name, X, y, sample_weight(len(y)))


@pytest.mark.parametrize("class_weight, words", [
    ("balance", "must be None, 'balanced' or a dict"), ({"maybe": 2}, "not among the classes"),
    ({"yes": -1}, "finite weight >= 0"), ({"yes": float("nan")}, "finite weight >= 0"),
    ([1, 2], "must be None, 'balanced' or a dict"),
    ({"yes": 0, "no": 0}, "every row has weight zero"),
])
def test_bad_class_weights_are_one_clear_error(class_weight, words):
    X, y = table(n=40)
    for name in LEARNERS:
        with pytest.raises(ValueError, match=words):
            fit(name, X, y, class_weight=class_weight)


def test_class_names_in_errors_are_plain_values():
    """The classes a message lists read as the user wrote them, not as numpy scalars
    ("np.str_('yes')", "np.int64(0)"; found by a new-user trial)."""
    X, y = table(n=40)
    with pytest.raises(ValueError) as caught:
        aspml.FoldSE(class_weight={"maybe": 2}).fit(X, y)
    assert "not among the classes ['no', 'yes']" in str(caught.value)
    with pytest.raises(ValueError) as caught:
        aspml.FoldSE().fit(X, y, sample_weight=np.where(y == "yes", 0.0, 1.0))
    assert "every row of class 'yes' has weight 0" in str(caught.value)
    with pytest.raises(ValueError) as caught:
        aspml.FoldSE(positive=3).fit(X, (y == "yes").astype(int))
    assert "is not one of the classes [0, 1]" in str(caught.value)
    for message in ("np.str_", "np.int64"):
        assert message not in str(caught.value)
    with pytest.raises(ValueError, match=r"y has only one class \('yes'\)"):
        aspml.FoldSE().fit(X, np.array(["yes"] * len(X)))


# -- kernels against slow, obvious versions ------------------------------------------

def slow_weighted_best(num, is_num, codes, state, w, kind, negated, min_tp):
    """Every candidate literal, counts as sums of weights (the kernel's tie order)."""
    n_pos, n_neg = w[state == 1].sum(), w[state == 2].sum()
    best = (-math.inf, -1, -1, 0.0)
    for f in range(num.shape[0]):
        cands = []
        for v in sorted(set(num[f][(state > 0) & is_num[f]])):
            le, gt = is_num[f] & (num[f] <= v), is_num[f] & (num[f] > v)
            masks = [(0, le), (1, gt)] + ([(2, ~le), (3, ~gt)] if negated else [])
            cands += [(op, v, m) for op, m in masks]
        for c in range(codes.shape[1] and codes[f].max() + 1):
            if ((codes[f] == c) & (state > 0)).any():
                cands += [(4, float(c), codes[f] == c), (5, float(c), codes[f] != c)]
        for op, v, m in cands:
            tp, fp = w[m & (state == 1)].sum(), w[m & (state == 2)].sum()
            if tp < min_tp - 1e-9 * max(min_tp, n_pos) or not (~m & (state == 2)).any():
                continue
            score = slow_heuristic(tp, n_pos - tp, n_neg - fp, fp, kind)
            if score > best[0] + (1e-12 * max(abs(best[0]), 1.0) if best[0] != -np.inf else 0.0):
                best = (score, f, op, v)
    return best


@settings(max_examples=120, deadline=None)
@given(search_inputs(), st.sampled_from([0, 1]), st.booleans(), st.sampled_from([0.0, 1.5, 4.0]),
       st.data())
def test_weighted_best_literal_matches_slow_search(inputs, kind, negated, min_tp, data):
    num, is_num, codes, state = inputs
    n = len(state)
    # whole and fractional weights; whole ones keep the slow sums exact (no ties broken
    # by rounding)
    w = np.array(data.draw(st.lists(st.sampled_from([0.5, 1.0, 2.0, 3.0, 0.25]), min_size=n,
                                    max_size=n)))
    view = build_view(num, is_num, np.zeros(num.shape[0]))
    n_codes = np.array([(c.max() + 1) if c.max() >= 0 else 0 for c in codes], dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)
    expected = slow_weighted_best(num, is_num, codes, state, w, kind, negated, min_tp)
    for search in (best_literal, best_literal_parallel):
        score, f, op, value = search(*view, codes, n_codes, state, np.flatnonzero(state), w,
                                     w[state == 1].sum(), w[state == 2].sum(),
                                     int((state == 2).sum()), kind, negated, min_tp, empty,
                                     empty, np.zeros(0))
        if expected[0] == -math.inf:
            assert score == -math.inf
        else:
            assert score == pytest.approx(expected[0])
            assert (f, op, value) == expected[1:]


@pytest.mark.parametrize("seed", range(6))
def test_weighted_blocks_of_thresholds_bounded_as_scored(seed):
    """Many distinct values and whole weights (the slow sums exact): the sorted scan's
    blocks of thresholds, bounded by the corners of their weighted counts, give the
    literal that scoring every threshold gives."""
    rng = np.random.default_rng(200 + seed)
    n, n_f = 300, 2
    num = rng.normal(size=(n_f, n)).round(2)
    is_num = np.ones((n_f, n), dtype=bool)
    codes = np.full((n_f, n), -1, dtype=np.int32)
    y = rng.random(n) < (0.05, 0.2, 0.45)[seed % 3] + 0.2 * np.tanh(num[0])
    state = np.where(rng.random(n) < 0.9, np.where(y, 1, 2), 0).astype(np.int8)
    w = rng.choice([1.0, 2.0, 3.0, 5.0], size=n)
    view = build_view(num, is_num, np.zeros(n_f))
    empty = np.zeros(0, dtype=np.int64)
    for kind, negated in itertools.product((0, 1), (False, True)):
        expected = slow_weighted_best(num, is_num, codes, state, w, kind, negated, 1.0)
        for search in (best_literal, best_literal_parallel):
            score, f, op, value = search(*view, codes, np.zeros(n_f, np.int64), state,
                                         np.flatnonzero(state), w, w[state == 1].sum(),
                                         w[state == 2].sum(), int((state == 2).sum()), kind,
                                         negated, 1.0, empty, empty, np.zeros(0))
            assert score == pytest.approx(expected[0])
            assert (f, op, value) == expected[1:]


def test_a_block_is_not_skipped_on_rounding_at_a_tie():
    """A review's counterexample: weighted rows whose running negatives at two values
    differ by a few ulps; the block's corner computes exactly at the best so far plus
    SCORE_TIE (no better), a threshold inside one ulp above it (better).  Scoring every
    threshold takes ``x <= 6``; the block bound, raised by BOUND_SLACK, must not skip it."""
    P, Pm, M = 0.20114610711820996, 2.3200270896241464, 4.826891063322376
    N = [0.0, 0.18986936467582227, 1.259212664277455, 1.5115006874312527, 1.6247383744212962,
         1.7436172585668408, 1.98867073428702, 1.9886707342870205]
    w = np.array([P] + [N[i] - N[i - 1] for i in range(1, 8)] + [Pm, M])
    state = np.array([1] + [2] * 7 + [1, 2], dtype=np.int8)
    num = np.array([[0.0, 1, 2, 3, 4, 5, 6, 7, 0, 0]])
    is_num = np.array([[True] * 8 + [False, False]])
    codes = np.full((1, 10), -1, dtype=np.int32)
    n_pos = n_neg = 0.0
    for r in range(10):              # in row order, as the loop adds them
        if state[r] == 1:
            n_pos += w[r]
        else:
            n_neg += w[r]
    view = build_view(num, is_num, np.zeros(1))
    empty = np.zeros(0, dtype=np.int64)
    for search in (best_literal, best_literal_parallel):
        _, f, op, value = search(*view, codes, np.zeros(1, np.int64), state,
                                 np.flatnonzero(state), w, n_pos, n_neg, 8, 0, False,
                                 1e-6, empty, empty, np.zeros(0))
        assert (f, op, value) == (0, 0, 6.0)


def slow_greedy(masks, y, w, wp, wn, zeros):
    """LIBRE's greedy weighted set cover over plain boolean masks and row weights."""
    uncovered = np.ones(len(y), dtype=bool)
    chosen, left = [], list(range(len(masks)))
    while left:
        keys = [(wp * w[masks[c] & uncovered & y].sum() - wn * w[masks[c] & uncovered & ~y].sum(),
                 zeros[c], -c) for c in left]
        key, _, neg_c = max(keys)
        c = -neg_c
        if key <= 0 or not (masks[c] & uncovered & y).any():
            break
        chosen.append(c)
        left.remove(c)
        uncovered &= ~masks[c]
    return chosen


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 150), st.integers(1, 12), st.integers(0, 2**31), st.booleans())
def test_weighted_greedy_cover_matches_slow_greedy(n, n_c, seed, lazy):
    from aspml.kernels.bitset import pack
    rng = np.random.default_rng(seed)
    masks = rng.random((n_c, n)) < 0.3
    y = rng.random(n) < 0.4
    w = rng.integers(1, 5, n).astype(float)            # whole: exact sums, exact ties
    zeros = rng.integers(0, 3, n_c).astype(np.int64)
    args = (pack(masks), pack(y), pack(~y), zeros, np.ones(n_c, dtype=np.int64),
            np.arange(n_c), 7, 3, -1, False)
    got = greedy_cover(*args, 0 if lazy else 1 << 26, weights=w).tolist()
    assert got == slow_greedy(masks, y, w, 7, 3, zeros)
    # weights of 1 are the unweighted cover
    assert greedy_cover(*args, weights=np.ones(n)).tolist() == greedy_cover(*args).tolist()


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 60), st.integers(0, 2**31), st.sampled_from([(2, 3, 2), (300, 400, 500),
                                                                    (2,) * 70]))
def test_weighted_distinct_records_sum_weights(n, seed, widths):
    """Each way of counting (by key, by sorting keys, by radix sort past 64 bits of key)
    sums a record's weights in row order."""
    rng = np.random.default_rng(seed)
    widths = np.array(widths, dtype=np.int64)
    codes = np.stack([rng.integers(0, k, n) for k in widths], axis=1).astype(np.int64)
    y = rng.random(n) < 0.5
    w = rng.random(n) * 3
    records, pos, neg = distinct_records(codes, widths, y, w)
    for rec, p, q in zip(records, pos, neg):
        same = (codes == rec).all(axis=1)
        assert p == sum(w[same & y].tolist()) and q == sum(w[same & ~y].tolist())
    assert len(records) == len({tuple(r) for r in codes})


def test_weighted_chimerge_equals_repeated_values():
    from aspml.data.discretize import chimerge
    rng = np.random.default_rng(8)
    v = rng.integers(0, 40, 300).astype(float)
    y = (v + rng.normal(0, 8, 300)) > 20
    w = rng.integers(1, 4, 300)
    idx = np.repeat(np.arange(300), w)
    assert np.array_equal(chimerge(v, y, 6.0, 10, weights=w.astype(float)),
                          chimerge(v[idx], y[idx], 6.0, 10))


@pytest.mark.parametrize("seed", range(5))
def test_weighted_quantiles_equal_repeated_values(seed):
    rng = np.random.default_rng(seed)
    v = rng.normal(size=50).round(1)
    v[rng.random(50) < 0.1] = np.nan
    w = rng.integers(1, 5, 50).astype(float)
    idx = np.repeat(np.arange(50), w.astype(int))
    assert np.array_equal(quantile_cuts(v, 5, weights=w), quantile_cuts(v[idx], 5))


# -- through every door ---------------------------------------------------------------

def test_scikit_learn_tools_pass_weights():
    from sklearn.model_selection import cross_val_score
    X, y = table(n=300, seed=9, rare=True)
    clf = aspml.FoldSE(positive="yes", class_weight="balanced")
    scores = cross_val_score(clf, X, y, cv=3, scoring="balanced_accuracy",
                             params={"sample_weight": np.ones(len(y))})
    assert scores.mean() > 0.6


def test_cli_class_weight(tmp_path, swipl):
    X, y = table(n=600, seed=10, rare=True)
    data = tmp_path / "rare.csv"
    X.assign(label=y).to_csv(data, index=False)
    model = tmp_path / "model.lp"
    plain = run_aspml("learn", data, "--target", "label", "--positive", "yes")
    done = run_aspml("learn", data, "--target", "label", "--positive", "yes",
                     "--class-weight", "balanced", "-o", model)
    assert done.returncode == 0, done.stderr
    assert done.stdout != plain.stdout
    want = aspml.FoldSE(positive="yes", target="label", class_weight="balanced").fit(X, y)
    assert aspml.load(model).rules == want.program_.rules
    out = predict_with_every_engine(model, data)
    expected = np.where(want.program_.predict(X), "yes", "no")
    for engine, said in out.items():
        assert [line.rsplit(",", 1)[1] for line in said] == list(expected), engine
    nineteen = aspml.FoldSE(positive="yes", target="label", class_weight={"yes": 19}).fit(X, y)
    for form in ("yes=19", '{"yes": 19}', " yes = 19 ", '{" yes ": 19}'):   # names stripped
        again = tmp_path / "nineteen.lp"
        same = run_aspml("learn", data, "--target", "label", "--positive", "yes",
                         "--class-weight", form, "-o", again)
        assert same.returncode == 0, same.stderr
        assert aspml.load(again).rules == nineteen.program_.rules, form
    for bad, words in (("maybe=2", "not among the classes"), ("yes=-1", "finite weight"),
                       ("yes", "CLASS=WEIGHT"), ("{bad", "not a JSON object"),
                       ("yes=x", "numbers as weights")):
        one_line_error(run_aspml("learn", data, "--target", "label", "--class-weight", bad),
                       *words.split())


def test_bench_scores_and_balanced_columns():
    pred = np.array([1, 1, 0, 0, 0, 1], dtype=bool)
    truth = np.array([1, 0, 0, 0, 1, 1], dtype=bool)
    s = fold_scores(pred, truth)
    assert s["precision"] == pytest.approx(2 / 3) and s["recall"] == pytest.approx(2 / 3)
    assert s["bal_acc"] == pytest.approx((2 / 3 + 2 / 3) / 2)
    none = fold_scores(np.zeros(6, dtype=bool), truth)
    assert none["bal_acc"] == 0.5 and none["precision"] == 0 and none["f1"] == 0
    assert parse_learner("fold-se:balanced") == ("fold-se", {"class_weight": "balanced"})
    assert parse_learner("libre:max_rules=3,balanced") == (
        "libre", {"max_rules": 3, "class_weight": "balanced"})
    assert parse_learner("tree:max_depth=3,balanced") == (
        "tree", {"max_depth": 3, "class_weight": "balanced"})
    assert with_class_weight(["fold-se", "libre:max_rules=3", "ripper", "tree"], "balanced") == [
        "fold-se", "fold-se:balanced", "libre:max_rules=3", "libre:max_rules=3,balanced",
        "ripper", "tree", "tree:balanced"]
    with pytest.raises(aspml.AspmlError, match="tree takes max_depth"):
        parse_learner("tree:alpha=2")


def test_bench_class_weight_column(tmp_path):
    X, y = table(n=400, seed=11, rare=True)
    data = tmp_path / "rare.csv"
    X.assign(label=y).to_csv(data, index=False)
    done = run_aspml("bench", data, "--target", "label", "--positive", "yes", "--learners",
                     "fold-se", "--class-weight", "balanced", "--folds", "3", "--quiet")
    assert done.returncode == 0, done.stderr
    rows = {line.split("|")[2].strip(): [c.strip() for c in line.split("|")[3:-1]]
            for line in done.stdout.splitlines() if line.startswith("| rare")}
    assert set(rows) == {"fold-se", "fold-se:balanced"}
    assert "bal. acc." in done.stdout and "recall" in done.stdout
    # recall of the rare class rises with the weights
    assert float(rows["fold-se:balanced"][4]) > float(rows["fold-se"][4])


def test_report_reads_results_with_and_without_the_new_measures():
    from aspml.report import check_bench
    fold = {"acc": .8, "f1": .5, "rules": 2, "literals": 3, "train_s": .1}
    new = {**fold, "bal_acc": .7, "precision": .6, "recall": .4}
    for f in (fold, new):
        check_bench({"settings": {"folds": 2, "seed": 0},
                     "results": [{"data": "d", "learner": "fold-se:balanced", **f,
                                  "folds": [f, f]}]})
    with pytest.raises(aspml.AspmlError, match=r"results\[0\]\.bal_acc: 1\.5"):
        check_bench({"settings": {"folds": 2, "seed": 0},
                     "results": [{"data": "d", "learner": "x", **new, "bal_acc": 1.5}]})
    # the report's table shows the rare class's measures when the file has them
    from aspml.report import bench_section
    for f, shown in ((fold, False), (new, True)):
        page = bench_section({"settings": {"folds": 2, "seed": 0},
                              "results": [{"data": "d", "learner": "fold-se:balanced", **f,
                                           "folds": [f, f]}]})
        assert ("<th class=n>bal. acc.</th><th class=n>precision</th>"
                "<th class=n>recall</th>" in page) == shown
        assert ("<td class=n>0.700</td><td class=n>0.600</td><td class=n>0.400</td>"
                in page) == shown


def test_libre_noise_warning_compares_weighted_f1_with_weighted_baseline():
    """The cross-validated curves are weighted F1; so is the 'every row positive'
    baseline they are held against (it used the unweighted share of positives)."""
    from aspml.learners.libre import _warn_if_no_better_than_all
    y = np.zeros(100, dtype=bool)
    y[:10] = True
    balanced = np.where(y, 5.0, 5 / 9)           # each class half the weight
    curves = [np.array([0.0, 0.6, 0.6])] * 3
    with pytest.warns(AspmlWarning, match="describe noise") as caught:     # 0.6 < 2/3
        _warn_if_no_better_than_all(curves, [(y, balanced)] * 3, 2)
    # said to be weighted: 0.600 against 0.667 reads as F1 near the class's own otherwise
    assert "cross-validated F1 on the rows' weights 0.600" in str(caught[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _warn_if_no_better_than_all(curves, [(y, None)] * 3, 2)     # 0.6 > 0.18


def fallback_table():
    """Three two-valued columns; the positives sit in cell (y, y, y), 4 of its 10 rows
    (weight 2 each: then the weighted majority), and 1 of the 20 rows of (y, y, x).
    Every two-column projection mixes them with negatives, so LIBRE's ensemble (two
    features a learner), its records positive at their majority, finds no rule and the
    fallback decides."""
    import itertools
    rows, y, w = [], [], []
    for cell in itertools.product("xy", repeat=3):
        n, pos, weight = (10, 4, 2) if cell == ("y", "y", "y") else (20, cell == ("y", "y", "x"), 1)
        rows += [cell] * n
        y += [True] * pos + [False] * (n - pos)
        w += [weight] * pos + [1] * (n - pos)
    return pd.DataFrame(rows, columns=list("abc")), np.array(y), np.array(w)


@pytest.mark.parametrize("stopping", ["cv", "train"])
def test_libre_fallback_counts_weights(stopping, monkeypatch):
    """The fallback (one learner over every feature, then balanced classes) counts rows
    by their weights as the ensemble does: integer weights equal repeated rows, a weight
    of 0 equals dropping the row, and class_weight equals repeating a class.  Records
    are positive at their majority here (RECORD_LIFT raised: at twice this rare class's
    share the ensemble itself finds the cell).  Unweighted the (y, y, y) record is 4
    positives against 6, and only the balanced step (each positive counted 36 times)
    finds a rule, the broader ``a = y AND b = y``; weighted, 8 against 6, the learner
    over every feature finds the cell itself.  It ignored the weights before (the
    weighted fit learned the broader rule)."""
    from aspml.learners import libre
    monkeypatch.setattr(libre, "RECORD_LIFT", 1e9)
    X, y, w = fallback_table()

    def fit(X, y, sample_weight=None, **params):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            # (no learner over every categorical feature: it would find the rule itself)
            clf = aspml.Libre(random_state=0, early_stopping=stopping, categorical_learner=False,
                              **params).fit(X, y, sample_weight=sample_weight)
        notes = [str(m.message) for m in seen if "ensemble found no rule" in str(m.message)]
        assert len(notes) == 1, [str(m.message) for m in seen]
        return clf.program_.to_text(), notes[0]

    plain = fit(X, y)
    assert 'a = "y" AND b = "y" THEN' in plain[0] and "balanced classes" in plain[1]
    weighted = fit(X, y, w)
    assert weighted == fit(*repeat(X, y, w))
    assert 'a = "y" AND b = "y" AND c = "y" THEN' in weighted[0]
    assert "one weak learner over all 3 usable features" in weighted[1]
    # class_weight: the (y, y, y) cell 8 against 6 again, (y, y, x) 2 against 19
    assert fit(X, y, class_weight={True: 2}) == fit(*repeat(X, y, np.where(y, 2, 1)))
    # a weight of 0 drops the row: two of the cell's negatives
    zero = w.copy()
    zero[np.flatnonzero((X.a == "y") & (X.b == "y") & (X.c == "y") & ~y)[:2]] = 0
    assert fit(X, y, zero) == fit(*repeat(X, y, zero))


def test_cli_sample_weight(tmp_path, swipl):
    """``aspml learn --sample-weight COLUMN``: the column's numbers weigh the rows (integer
    weights learn what repeated rows learn), the column is no feature, a row without a
    label needs no weight, and a missing, negative, non-numeric or infinite weight is
    one line."""
    X, y = table(n=300, seed=11)
    w = np.random.default_rng(12).integers(0, 4, len(y))
    data = tmp_path / "weighted.csv"
    X.assign(w=w, label=y).to_csv(data, index=False)
    copies = tmp_path / "copies.csv"
    Xr, yr = repeat(X, y, w)
    Xr.assign(label=yr).to_csv(copies, index=False)
    for learner in ("fold-se", "libre"):
        models = []
        for path, extra in ((data, ("--sample-weight", "w")), (copies, ())):
            models.append(tmp_path / f"{learner}-{path.stem}.lp")
            params = (("--param", "random_state=0", "--param", "early_stopping=train")
                      if learner == "libre" else ())       # see LEARNERS: copies split apart
            done = run_aspml("learn", path, "--target", "label", "--positive", "yes",
                             "--learner", learner, *params, *extra, "-o", models[-1])
            assert done.returncode == 0, done.stderr
        weighted, repeated = (aspml.load(m) for m in models)
        assert weighted.rules == repeated.rules, learner
        assert "w" not in weighted.schema.names
    unweighted = run_aspml("learn", data, "--target", "label", "--positive", "yes",
                           "--ignore", "w", "-o", tmp_path / "plain.lp")
    assert unweighted.returncode == 0
    assert aspml.load(tmp_path / "plain.lp").rules != aspml.load(models[0].parent /
                                                                 "fold-se-weighted.lp").rules
    # a row with no label needs no weight (it is left out); one with a label does
    frame = X.assign(w=w.astype(object), label=y)
    frame.loc[0, ["w", "label"]] = ["", ""]
    frame.to_csv(tmp_path / "gap.csv", index=False)
    assert run_aspml("learn", tmp_path / "gap.csv", "--target", "label",
                     "--sample-weight", "w").returncode == 0
    for bad, words in (("", "line 3 of no weight"), ("-1", "line 3 of weight '-1'"),
                       ("heavy", "weight 'heavy'"), ("inf", "finite number >= 0")):
        frame = X.assign(w=w.astype(object), label=y)
        frame.loc[1, "w"] = bad
        frame.to_csv(tmp_path / "bad.csv", index=False)
        one_line_error(run_aspml("learn", tmp_path / "bad.csv", "--target", "label",
                                 "--sample-weight", "w"), "--sample-weight", *words.split())
    one_line_error(run_aspml("learn", data, "--target", "label", "--sample-weight", "weight"),
                   "has no column 'weight'")
    one_line_error(run_aspml("learn", data, "--target", "label", "--sample-weight", "label"),
                   "is the --target column")


def test_chimerge_with_huge_weights_keys_no_pair_nan():
    """Weights past 1e154 overflow ``row * col`` in the chi-square: its key must stay a
    number (inf at worst), else NaN keys would not sort and the merges would depend on
    the heap's layout (a review's case).  The cuts are those of a slow merge loop over
    the same keys, lowest key first, ties to the left."""
    from aspml.data.discretize import chimerge
    from aspml.kernels.chimerge import chi_square
    neg = [0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0]
    pos = [0.0, 0.0, 0.0, 1e200, 1.0, 1.0, 1.0]
    assert not np.isnan(chi_square(1e200, 1e200, 1.0, 1e200))
    assert not np.isnan(chi_square(1e308, 1e308, 1e308, 1e308))
    v, y, w = [], [], []
    for i, (a, b) in enumerate(zip(neg, pos)):
        v += [float(i), float(i)]
        y += [False, True]
        w += [a, b]
    for threshold, max_bins in ((0.2, None), (6.0, None), (6.0, 2), (1e300, None)):
        counts = [[a, b] for a, b in zip(neg, pos)]
        starts = list(range(len(counts)))
        while len(counts) > 1:
            keys = [chi_square(*counts[i], *counts[i + 1]) for i in range(len(counts) - 1)]
            i = int(np.argmin(keys))
            if keys[i] >= threshold and (max_bins is None or len(counts) <= max_bins):
                break
            counts[i] = [counts[i][0] + counts[i + 1][0], counts[i][1] + counts[i + 1][1]]
            del counts[i + 1], starts[i + 1]
        got = chimerge(np.array(v), np.array(y), threshold, max_bins, np.array(w))
        assert got.tolist() == [float(s) for s in starts[1:]], (threshold, max_bins)


def test_libre_with_huge_weights_fits():
    """Weights of 1e200 (a review's search: 4 of 60 such fits raised OverflowError while
    ChiMerge's keys could be NaN) give a program that reads back and predicts."""
    rng = np.random.default_rng(11)
    for t in range(9):
        n = int(rng.integers(20, 120))
        X = pd.DataFrame({"x": rng.integers(0, 12, n).astype(float),
                          "z": rng.integers(0, 4, n).astype(float)})
        y = (X.x + rng.normal(scale=3, size=n)) > 6
        w = rng.choice([1.0, 2.0, 1e200], n, p=[0.6, 0.3, 0.1])
        threshold = float(rng.choice([0.2, 1.0, 6.0]))
        if t not in (3, 8):
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AspmlWarning)
            clf = aspml.Libre(n_estimators=1, discretization_threshold=threshold, random_state=0,
                              max_bins=None).fit(X, y, sample_weight=w)
        assert aspml.parse(clf.program_.to_asp(), "asp") == clf.program_
        assert len(clf.predict(X)) == n


def test_class_weight_names_string_and_number_labels_from_python_and_the_cli(tmp_path):
    """A dict names classes as they are: string labels that read as numbers ("3",
    "not 3": scikit-learn's compute_sample_weight refused them) weigh like the rows
    repeated; from the command line, whose CLASS=W names are text, ``3=5`` names the
    class 3 of a label column of numbers, and the program is Python's."""
    rng = np.random.default_rng(2)
    X = pd.DataFrame({"a": rng.integers(0, 50, 300), "b": rng.integers(0, 9, 300)})
    y = np.where((X.a > 35) & (rng.random(300) < 0.8), "3", "not 3")
    weighted = aspml.FoldSE(positive="3", class_weight={"3": 5}).fit(X, y)
    copies = np.repeat(np.arange(300), np.where(y == "3", 5, 1))
    repeated = aspml.FoldSE(positive="3").fit(X.iloc[copies], y[copies])
    assert weighted.program_.rules == repeated.program_.rules
    # numbers: the CLI's names are text
    labels = np.where(X.a > 40, 3, np.where(X.b > 5, 2, 1))
    X.assign(NSP=labels).to_csv(tmp_path / "t.csv", index=False)
    py = aspml.FoldSE(class_weight={3: 5, 2: 2}, target="NSP").fit(X, labels)
    for option in ("3=5,2=2", '{"3": 5, "2": 2}'):
        done = run_aspml("learn", tmp_path / "t.csv", "--target", "NSP", "--class-weight",
                         option, "-o", tmp_path / "m.lp")
        assert done.returncode == 0, done.stderr
        assert aspml.load(tmp_path / "m.lp").rules == py.program_.rules
    done = run_aspml("learn", tmp_path / "t.csv", "--target", "NSP", "--class-weight", "7=5")
    assert done.returncode == 2 and "not among the classes" in done.stderr


def low_recall_table(n=1000, seed=0):
    """10% positives: 40% of them above x = 90 (no negative there), the rest scattered
    at random among the negatives."""
    rng = np.random.default_rng(seed)
    x = np.round(rng.uniform(0, 90, n), 1)
    y = np.zeros(n, dtype=bool)
    found = rng.choice(n, 40, replace=False)
    x[found] = np.round(rng.uniform(90.1, 100, 40), 1)
    y[found] = True
    y[rng.choice(np.flatnonzero(~y), 60, replace=False)] = True
    return pd.DataFrame({"x": x, "z": rng.choice(list("abc"), n)}), np.where(y, "yes", "no")


@pytest.mark.parametrize("name, found", [("FoldSE", "40.0"), ("FoldRpp", "41.0")])
def test_rules_that_find_few_of_a_rare_class_say_so(name, found, tmp_path):
    """A rule for 40% of a 10% class: accurate, but a user who asked "which rows?" hears
    how few it finds and what trades precision for them; weighted, nothing to say; LIBRE
    (its set cover weighs the positives already) says nothing either."""
    X, y = low_recall_table()
    with pytest.warns(AspmlWarning, match=rf'rules find {found}% of the "yes" rows in training '
                                          r'\(the class is 10\.0% of the rows\): '
                                          r'class_weight="balanced"') as caught:
        clf = getattr(aspml, name)(positive="yes").fit(X, y)
    assert caught[0].filename == __file__          # the user's line, not the learner's
    assert "x > 90" in clf.program_.to_text()
    with warnings.catch_warnings():
        warnings.simplefilter("error", AspmlWarning)
        getattr(aspml, name)(positive="yes", class_weight="balanced").fit(X, y)
        getattr(aspml, name)(positive="no").fit(X, y)      # the common class: no note
    X.assign(y=y).to_csv(tmp_path / "t.csv", index=False)
    out = run_aspml("learn", tmp_path / "t.csv", "--target", "y", "--positive", "yes",
                    "--learner", {"FoldSE": "fold-se", "FoldRpp": "fold-rpp"}[name])
    assert out.returncode == 0
    assert [line for line in out.stderr.splitlines() if "rules find" in line] == [
        f'aspml learn: note: {name}\'s rules find {found}% of the "yes" rows in training (the '
        'class is 10.0% of the rows): class_weight="balanced" may find more of them, at some '
        "cost in precision"]


@pytest.mark.parametrize("name", ["fold-se", "fold-rpp"])
@pytest.mark.parametrize("classes", [2, 3])
def test_fold_programs_do_not_depend_on_the_weights_scale(name, classes):
    """FOLD compares weighted counts as ratios, and its tail is a share of the total
    weight: weights normalised to sum to 1 (a common habit) learn the program of the
    same weights at any scale.  The tail's bar used to be rounded up to a whole weight,
    which made it the whole table's weight: an empty program that blamed the features."""
    X, y = table(n=400, seed=7)
    if classes == 3:
        y = np.where(X.c == "blue", "maybe", y)
    w = np.random.default_rng(8).integers(1, 4, len(y)).astype(float)
    make = (lambda: LEARNERS[name](positive="yes")) if classes == 2 else \
        (lambda: LEARNERS[name]())
    base = make().fit(X, y, sample_weight=w).program_
    assert base.n_rules > 0
    for scale in (2.0 ** -12, 2.0 ** 10, 1 / w.sum()):
        with warnings.catch_warnings():
            warnings.simplefilter("error", AspmlWarning)
            got = make().fit(X, y, sample_weight=w * scale).program_
        if scale != 1 / w.sum():            # powers of two: every sum exact
            assert got.rules == base.rules, scale
        else:                               # rounding may part near ties differently
            assert abs(got.n_rules - base.n_rules) <= 0.2 * base.n_rules
            assert np.mean(got.predict(X) == base.predict(X)) > 0.95


@pytest.mark.parametrize("name", ["libre", "mrs"])
def test_weights_far_below_one_a_row_are_said_to_shrink_the_table(name):
    """LIBRE's bins and MRS's likelihood count a weight as that many copies of a row:
    weights that sum to 1 are a table of one row, and the fit says so, with the factor
    that scales them back; "balanced" (summing to the rows) says nothing."""
    X, y = table(n=300, seed=9)
    with pytest.warns(AspmlWarning, match=r"sum to 1 over 300 rows: .*multiply them by 300"):
        LEARNERS[name](positive="yes").fit(X, y, sample_weight=np.full(len(y), 1 / 300))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        LEARNERS[name](positive="yes", class_weight="balanced").fit(X, y)
    assert not [w for w in caught if "copies of a row" in str(w.message)]


def test_cli_class_weight_names_a_class_with_spaces(tmp_path):
    """A quoted cell keeps its spaces (" b" is a class of its own); --class-weight names it
    as written, and a name with spaces around it that is no class names the class without
    them ("yes = 19" above)."""
    data = tmp_path / "sp.csv"
    rng = np.random.default_rng(0)
    u = rng.integers(0, 100, 120)
    y = np.where(u < 30, "a", np.where(u < 70, " b", "c"))
    data.write_text("u,y\n" + "".join(f'{a},"{b}"\n' for a, b in zip(u, y)))   # quoted
    from aspml.data.csvfile import read_csv
    assert " b" in set(read_csv(str(data))["y"])
    model = tmp_path / "sp.lp"
    done = run_aspml("learn", data, "--target", "y", "--class-weight", '{" b": 5}', "-o", model)
    assert done.returncode == 0, done.stderr
    want = aspml.FoldSE(target="y", class_weight={" b": 5}).fit(pd.DataFrame({"u": u}), y)
    assert aspml.load(model).rules == want.program_.rules


@pytest.mark.parametrize("learner", [aspml.FoldSE, aspml.FoldRpp,
                                     lambda **kw: aspml.Libre(random_state=0, **kw),
                                     lambda **kw: aspml.MultiValueRuleSet(
                                         random_state=0, n_iter=200, **kw)])
def test_balanced_default_class_is_not_chosen_by_name(learner):
    """Balanced weights make every class weigh the same: FOLD's default class (the rows no
    rule decides were too few to speak, so all rows vote) was the first class by name,
    a 3% class; LIBRE's and MRS's (the largest class) the one float rounding favoured.
    It is the class of the most rows, whatever the names."""
    rng = np.random.default_rng(0)
    n = 2000
    y = rng.choice(["a_rare", "b_mid", "z_big"], n, p=[0.03, 0.17, 0.8])
    x = np.where(y == "a_rare", rng.normal(0, 1, n),
                 np.where(y == "b_mid", rng.normal(4, 1, n), rng.normal(8, 1, n)))
    X = pd.DataFrame({"x": x.round(2), "n": rng.normal(size=n).round(2)})
    for big in ("z_big", "0_big"):
        yy = np.where(y == "z_big", big, y)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AspmlWarning)
            program = learner(class_weight="balanced").fit(X, yy).program_
        assert program.target.default == big


def test_libre_groups_a_many_valued_column_alike_for_weights_and_repeated_rows():
    """A category seen on one row of weight 3 was grouped as a category of one row (its
    repeated rows are three): the groups, and the rule's value set, differed."""
    rng = np.random.default_rng(0)
    n = 600
    code = rng.choice([f"C{i:03d}" for i in range(200)], n)
    y = np.where(np.isin(code, [f"C{i:03d}" for i in range(30)]) ^ (rng.random(n) < 0.05),
                 "yes", "no")
    X = pd.DataFrame({"code": code})
    w = rng.integers(1, 4, n)
    Xr, yr = X.loc[X.index.repeat(w)].reset_index(drop=True), np.repeat(y, w)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AspmlWarning)
        a = aspml.Libre(positive="yes", random_state=0, early_stopping="train").fit(
            X, y, sample_weight=w)
        b = aspml.Libre(positive="yes", random_state=0, early_stopping="train").fit(Xr, yr)
    assert a.program_.to_text() == b.program_.to_text()


@pytest.mark.parametrize("learner", [lambda **kw: aspml.Libre(random_state=0, **kw),
                                     lambda **kw: aspml.MultiValueRuleSet(
                                         random_state=0, n_iter=200, **kw)])
def test_balanced_weights_that_tie_exactly_keep_the_largest_class_the_default(learner):
    """84, 95 and 17 rows: "balanced" weighs each class 65.33... to the last bit, and
    LIBRE's and MRS's default (the largest class) was the first by name, a_mid."""
    rng = np.random.default_rng(0)
    y = np.repeat(["a_mid", "b_big", "c_rare"], [84, 95, 17])
    centre = np.select([y == "a_mid", y == "b_big"], [0.0, 4.0], 8.0)
    X = pd.DataFrame({"x": (centre + rng.normal(0, 1, len(y))).round(2)})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AspmlWarning)
        assert learner(class_weight="balanced").fit(X, y).program_.target.default == "b_big"


def test_a_very_rare_class_share_is_said_with_its_digits():
    """avila's class B, 10 rows of 16,000, was "0.0% of the rows" in the note."""
    from aspml.learners._base import balanced_hint, share_percent
    assert share_percent(10 / 16000) == "0.062%"
    assert share_percent(0.15) == "15.0%" and share_percent(0.001) == "0.1%"
    assert share_percent(1e-7) == "under 0.0001%"
    assert "(the class is 0.062% of the rows)" in balanced_hint(10 / 16000)


@pytest.mark.parametrize("seed", range(4))
def test_multiclass_whole_weights_equal_repeated_rows(seed):
    """FoldSE's multi-class rules must decide MIN_DECIDED rows of their class: weighted,
    that many times the least row weight, so whole weights learn what repeated rows
    learn (a review: the mean row's weight made them differ on 19 tables of 20), and
    class_weight={"maybe": 2} what the class repeated twice learns."""
    rng = np.random.default_rng(seed)
    n = 60      # two classes by a sign, and four small ones (1 to 4 rows) by b
    X = pd.DataFrame({"a": rng.normal(size=n).round(2), "b": rng.integers(0, 10, n),
                      "c": rng.choice(list("pqr"), n)})
    y = np.where(X.a > 0, "maybe", "no").astype(object)
    y[:10] = np.repeat(["s0", "s1", "s2", "s3"], [1, 2, 3, 4])
    X.loc[:9, "b"] = 20 + np.arange(10) % 3
    w = rng.integers(1, 4, len(y))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AspmlWarning)
        weighted = aspml.FoldSE().fit(X, y, sample_weight=w).program_
        copies = aspml.FoldSE().fit(*repeat(X, y, w)).program_
        doubled = aspml.FoldSE(class_weight={"maybe": 2}).fit(X, y).program_
        twice = aspml.FoldSE().fit(*repeat(X, y, np.where(y == "maybe", 2, 1))).program_
    assert weighted.rules == copies.rules and weighted.n_rules > 0
    assert doubled.rules == twice.rules
