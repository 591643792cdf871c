"""Tests of lecture_pkg.evaluation.cross_validation: splitters, model selection and nested
cross-validation."""

import math

import numpy as np
import pytest
from sklearn.dummy import DummyClassifier
from sklearn.model_selection import (GridSearchCV, KFold, LeaveOneOut as SkLeaveOneOut,
                                     cross_val_score)
from sklearn.neighbors import KNeighborsClassifier

from lecture_pkg import evaluation as ev


# ------------------------------------------------------------------ splitters

@pytest.mark.parametrize("P,n", [(10, 10), (23, 7), (100, 10), (5, 2)])
def test_nfold_equals_sklearn_kfold_and_partitions(P, n):
    ours = list(ev.NFold(n).split(P))
    theirs = list(KFold(n).split(np.zeros(P)))
    assert len(ours) == len(theirs) == ev.NFold(n).get_n_splits()
    for (a, b), (c, d) in zip(ours, theirs):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
    ev.check_partition(ours, P)
    sizes = [len(t) for _, t in ours]
    assert max(sizes) - min(sizes) <= 1
    assert all(len(tr) == P - len(te) for tr, te in ours)


def test_shuffled_and_stratified_folds():
    y = np.r_[np.zeros(30, int), np.ones(12, int), 2 * np.ones(7, int)]
    cv = ev.NFold(5, shuffle=True, random_state=4, stratified=True)
    splits = list(cv.split(np.zeros((49, 2)), y))
    ev.check_partition(splits, 49)
    for _, test in splits:
        for label in (0, 1, 2):
            expected = np.sum(y == label) / 5
            assert abs(np.sum(y[test] == label) - expected) <= 1
    again = list(cv.split(np.zeros((49, 2)), y))
    assert all(np.array_equal(a[1], b[1]) for a, b in zip(splits, again))   # int seed: reproducible
    shuffled = list(ev.NFold(5, shuffle=True, random_state=0).split(49))
    ev.check_partition(shuffled, 49)
    assert not np.array_equal(shuffled[0][1], np.arange(10))
    with pytest.raises(ValueError, match="needs the class labels"):
        list(ev.NFold(5, stratified=True).split(49))


def test_loo_repeated_monte_carlo_and_leave_p_out():
    loo = list(ev.LeaveOneOut().split(12))
    sk = list(SkLeaveOneOut().split(np.zeros(12)))
    assert ev.LeaveOneOut().get_n_splits(np.zeros(12)) == 12 == len(loo)
    for (a, b), (c, d) in zip(loo, sk):
        np.testing.assert_array_equal(a, c)
        np.testing.assert_array_equal(b, d)
    rep = list(ev.RepeatedNFold(4, 3, random_state=0).split(20))
    assert len(rep) == 12 == ev.RepeatedNFold(4, 3).get_n_splits()
    for r in range(3):
        ev.check_partition(rep[4 * r: 4 * r + 4], 20)
    assert not np.array_equal(rep[0][1], rep[4][1])
    mc = list(ev.MonteCarloSplits(6, test_size=5, random_state=1).split(20))
    ev.check_partition(mc, 20, partition=False)
    assert all(len(t) == 5 for _, t in mc)
    assert [len(t) for _, t in ev.MonteCarloSplits(2, 0.25).split(20)] == [5, 5]
    assert ev.leave_p_out_count(20, 3) == math.comb(20, 3)
    lpo = list(ev.leave_p_out_splits(6, 2))
    assert len(lpo) == 15 and len({tuple(t) for _, t in lpo}) == 15
    ev.check_partition(lpo, 6, partition=False)


def test_classwise_leave_one_out_holds_one_example_per_class():
    y = np.r_[np.zeros(6, int), np.ones(4, int), 2 * np.ones(5, int)]
    cv = ev.ClasswiseLeaveOneOut(shuffle=True, random_state=0)
    splits = list(cv.split(np.zeros((15, 1)), y))
    assert len(splits) == 6 == cv.get_n_splits(y=y)
    for train, test in splits:
        assert sorted(y[test].tolist()) == [0, 1, 2]
    validated = np.unique(np.concatenate([t for _, t in splits]))
    np.testing.assert_array_equal(validated, np.arange(15))
    ev.check_partition(splits, 15, partition=False)
    with pytest.raises(ValueError, match="single example"):
        list(ev.ClasswiseLeaveOneOut().split(3, [0, 1, 1]))


def test_loo_pitfall_and_its_fix():
    """X.3: majority vote, balanced data: LOO accuracy exactly 0, class-wise LOO 0.5."""
    y = np.r_[np.zeros(10, int), np.ones(10, int)]
    X = np.zeros((20, 1))
    dummy = DummyClassifier(strategy="most_frequent")
    assert ev.cross_validation_scores(dummy, X, y, ev.LeaveOneOut()).mean() == 0.0
    assert cross_val_score(dummy, X, y, cv=ev.LeaveOneOut()).mean() == 0.0
    assert ev.cross_validation_scores(dummy, X, y, ev.ClasswiseLeaveOneOut()).mean() == 0.5


def test_bad_splitter_input_is_named():
    with pytest.raises(ValueError, match="cannot split 5 examples into n_splits=10"):
        list(ev.NFold(10).split(np.zeros(5)))
    with pytest.raises(ValueError, match=r"'n_splits' must be an integer in \[2, inf\)"):
        ev.NFold(1)
    with pytest.raises(ValueError, match="integer"):
        ev.NFold(2.5)
    with pytest.raises(ValueError, match="no training examples"):
        list(ev.MonteCarloSplits(2, test_size=5).split(5))
    with pytest.raises(ValueError, match="fraction"):
        ev.MonteCarloSplits(2, test_size=1.5)
    with pytest.raises(ValueError, match="smaller than"):
        ev.leave_p_out_count(3, 3)
    with pytest.raises(ValueError, match="overlap"):
        ev.check_partition([(np.array([0, 1]), np.array([1, 2]))], 3)
    with pytest.raises(ValueError, match="do not partition"):
        ev.check_partition([(np.array([1, 2]), np.array([0])), (np.array([0, 2]), np.array([1]))],
                           3)
    with pytest.raises(ValueError, match="at least 2 examples"):
        list(ev.LeaveOneOut().split(1))


# ------------------------------------------------------------------ model selection

class RecordingKNN(KNeighborsClassifier):
    """A k-NN that records the first feature (the row id) of everything it sees."""

    log: list = []

    def fit(self, X, y):
        RecordingKNN.log.append(("fit", X[:, 0].astype(int).copy()))
        return super().fit(X[:, 1:], y)

    def predict(self, X):
        RecordingKNN.log.append(("predict", X[:, 0].astype(int).copy()))
        return super().predict(X[:, 1:])


def test_select_by_cv_equals_grid_search():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 80)
    X = rng.normal(size=(80, 2)) + y[:, None]
    grid = {"n_neighbors": [1, 3, 7, 15]}
    best, means, cands = ev.select_by_cv(KNeighborsClassifier(), grid, X, y, ev.NFold(5))
    gs = GridSearchCV(KNeighborsClassifier(), grid, cv=ev.NFold(5)).fit(X, y)
    np.testing.assert_allclose(means, gs.cv_results_["mean_test_score"], atol=1e-12)
    assert best == gs.best_params_ and len(cands) == 4
    with pytest.raises(TypeError, match="param_grid"):
        ev.select_by_cv(KNeighborsClassifier(), [1, 2], X, y)


def test_nested_cv_never_touches_the_outer_test_fold():
    """X.4: the recorded rows of every inner fit/predict avoid the outer test fold."""
    rng = np.random.default_rng(6)
    y = rng.integers(0, 2, 60)
    X = np.column_stack([np.arange(60), rng.normal(size=(60, 2)) + y[:, None]])
    RecordingKNN.log = []
    res = ev.nested_cross_validation(RecordingKNN(), {"n_neighbors": [1, 5]}, X, y,
                                     ev.NFold(5, shuffle=True, random_state=0), ev.NFold(4))
    assert res.leaks() == 0 and len(res.outer_scores) == 5 and res.inner_means.shape == (5, 2)
    per_outer = 4 * 2 * 2 + 2          # 4 inner folds x 2 candidates x (fit, predict), refit, test
    assert len(RecordingKNN.log) == 5 * per_outer
    for k, (train, test) in enumerate(res.outer_splits):
        block = RecordingKNN.log[k * per_outer: (k + 1) * per_outer]
        for _, rows in block[:-2]:
            assert np.intersect1d(rows, test).size == 0
        np.testing.assert_array_equal(np.sort(block[-2][1]), train)     # refit on the outer
                                                                        # training part
        np.testing.assert_array_equal(np.sort(block[-1][1]), test)      # scored on the test fold
    # changing the test fold's labels cannot change the choice made for it
    y2 = y.copy()
    y2[res.outer_splits[0][1]] = 1 - y2[res.outer_splits[0][1]]
    res2 = ev.nested_cross_validation(KNeighborsClassifier(), {"n_neighbors": [1, 5]}, X[:, 1:], y2,
                                      ev.NFold(5, shuffle=True, random_state=0), ev.NFold(4))
    assert res2.chosen[0] == res.chosen[0]
    np.testing.assert_array_equal(res2.inner_means[0], res.inner_means[0])


def test_nested_cv_is_honest_on_noise_labels():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(60, 5))
    y = rng.integers(0, 2, 60)
    grid = {"n_neighbors": list(range(1, 30, 2))}
    res = ev.nested_cross_validation(KNeighborsClassifier(), grid, X, y, 5, 5)
    assert res.best_inner_scores.mean() > res.outer_scores.mean()   # selection is optimistic
