"""Tests of lecture_pkg.evaluation: Biehl ch. 6 equations, and scikit-learn as the oracle."""

import math

import numpy as np
import pytest
from scipy.stats import mannwhitneyu, norm
from sklearn import metrics
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.model_selection import LeaveOneOut as SkLeaveOneOut
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures

from lecture_pkg import datasets
from lecture_pkg import evaluation as ev


def cube(x):
    return x**3


X11 = np.linspace(-1, 1, 11)


# ------------------------------------------------------------------ bias and variance

def test_polynomial_fit_matches_numpy_polyfit():
    rng = np.random.default_rng(0)
    y = cube(X11) + 0.1 * rng.normal(size=11)
    for K in (0, 1, 3, 7):
        coef = ev.fit_polynomial(X11, y, K)
        np.testing.assert_allclose(coef, np.polyfit(X11, y, K)[::-1], atol=1e-8)
        np.testing.assert_allclose(ev.polynomial_predict(coef, X11), np.polyval(np.polyfit(X11, y,
                                                                                           K), X11),
                                   atol=1e-8)
    # degree P - 1 interpolates the data exactly (E.20: K = P - 1 suffices)
    np.testing.assert_allclose(ev.polynomial_predict(ev.fit_polynomial(X11, y, 10), X11), y,
                               atol=1e-8)
    ridge = ev.fit_polynomial(X11, y, 3, lam=0.5)
    assert np.linalg.norm(ridge) < np.linalg.norm(ev.fit_polynomial(X11, y, 3))


def test_smoother_reproduces_the_fit_for_any_targets():
    rng = np.random.default_rng(1)
    x_eval = np.array([-1.1, 0.05, 1.1])
    for K, lam in ((1, 0.0), (5, 0.0), (5, 0.3)):
        L = ev.polynomial_smoother(X11, x_eval, K, lam=lam)
        y = rng.normal(size=11)
        np.testing.assert_allclose(L @ y, ev.polynomial_predict(ev.fit_polynomial(X11, y, K,
                                                                                  lam=lam),
                                                                x_eval), atol=1e-10)


def test_closed_form_x2_numbers():
    """X.2: slope 0.712, zero bias for K >= 3, mean variance (K+1)/P rho^2 at the sample points."""
    L1 = ev.polynomial_smoother(X11, X11, 1)
    # sum x^4 / sum x^2 = 0.712
    np.testing.assert_allclose(L1 @ cube(X11), 0.712 * X11, atol=1e-12)
    bv = ev.bias_variance_linear(ev.polynomial_smoother(X11, [-1.0, 1.1], 1), cube, X11, [-1.0,
                                                                                          1.1], 1.0)
    np.testing.assert_allclose(bv.bias2, [0.288**2, (1.1**3 - 0.712 * 1.1) ** 2], atol=1e-12)
    for K in (1, 3, 7, 10):
        bv = ev.bias_variance_linear(ev.polynomial_smoother(X11, X11, K), cube, X11, X11, 0.2)
        assert bv.variance.mean() == pytest.approx(0.2**2 * (K + 1) / 11, rel=1e-10)
        if K >= 3:
            assert np.max(bv.bias2) < 1e-20
    var_11 = [ev.bias_variance_linear(ev.polynomial_smoother(X11, [1.1], K), cube, X11, [1.1],
                                      1.0).variance[0]
              for K in range(11)]
    assert np.all(np.diff(var_11) > 0)                        # more complexity, more variance
    assert var_11[7] == pytest.approx(38.7, rel=2e-3)         # the reference's value


def test_monte_carlo_identity_and_agreement_with_closed_form():
    rng = np.random.default_rng(2)
    x_eval = np.linspace(-1.1, 1.1, 9)
    L = ev.polynomial_smoother(X11, x_eval, 7)
    mc = ev.bias_variance_monte_carlo(L, cube, X11, x_eval, 0.1, 20000, random_state=rng)
    exact = ev.bias_variance_linear(L, cube, X11, x_eval, 0.1)
    np.testing.assert_allclose(mc.bias2 + mc.variance, mc.mse, rtol=1e-12)   # (6.7) exactly
    np.testing.assert_allclose(mc.variance, exact.variance, rtol=0.05)
    np.testing.assert_allclose(mc.mse, exact.mse, rtol=0.05)


def test_monte_carlo_for_any_estimator_agrees_with_the_vectorised_path():
    x_eval = np.array([-1.1, 0.0, 1.1])
    L = ev.polynomial_smoother(X11, x_eval, 3)
    fast = ev.bias_variance_monte_carlo(L, cube, X11, x_eval, 0.2, 200,
                                        random_state=np.random.default_rng(3),
                                        keep_predictions=True)
    by_fn = ev.bias_variance_monte_carlo(
        lambda x, y, xe: ev.polynomial_predict(ev.fit_polynomial(x, y, 3), xe),
        cube, X11, x_eval, 0.2, 200, random_state=np.random.default_rng(3))
    sk = ev.bias_variance_monte_carlo(make_pipeline(PolynomialFeatures(3), LinearRegression()),
                                      cube, X11, x_eval, 0.2, 200,
                                      random_state=np.random.default_rng(3))
    assert fast.predictions.shape == (200, 3)
    for other in (by_fn, sk):
        np.testing.assert_allclose(other.mean_prediction, fast.mean_prediction, atol=1e-9)
        np.testing.assert_allclose(other.variance, fast.variance, atol=1e-9)
    with pytest.raises(TypeError, match="estimator"):
        ev.bias_variance_monte_carlo(3, cube, X11, x_eval, 0.2, 5,
                                     random_state=np.random.default_rng(0))
    with pytest.raises(ValueError, match="shape"):
        ev.bias_variance_monte_carlo(np.ones((2, 11)), cube, X11, x_eval, 0.2, 5,
                                     random_state=np.random.default_rng(0))
    with pytest.raises(ValueError, match="noise"):
        ev.bias_variance_linear(L, cube, X11, x_eval, -1.0)
    with pytest.raises(ValueError, match="NaN"):
        ev.polynomial_design([0.0, np.nan], 2)


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
    with pytest.raises(ValueError, match=r"n_splits must be an integer in \[2, inf\)"):
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


# ------------------------------------------------------------------ ROC, AUC

@pytest.fixture
def gaussian_scores():
    rng = np.random.default_rng(8)
    y = np.r_[np.ones(300, int), -np.ones(500, int)]
    s = rng.normal(size=800) + np.where(y == 1, 1.0, 0.0)
    return y, s


def test_roc_equals_sklearn_with_and_without_ties(gaussian_scores):
    y, s = gaussian_scores
    for scores in (s, np.round(s, 1)):
        f, t, th = ev.roc_curve(y, scores)
        f2, t2, th2 = metrics.roc_curve(y, scores, drop_intermediate=False)
        np.testing.assert_allclose(f, f2)
        np.testing.assert_allclose(t, t2)
        np.testing.assert_array_equal(th, th2)
        assert (f[0], t[0], f[-1], t[-1]) == (0, 0, 1, 1)
        assert np.all(np.diff(f) >= 0) and np.all(np.diff(t) >= 0)
        a = ev.auc_trapezoid(f, t)
        assert a == pytest.approx(ev.auc_pairs(y, scores), abs=1e-12)
        assert a == pytest.approx(metrics.roc_auc_score(y, scores), abs=1e-12)
        u = mannwhitneyu(scores[y == 1], scores[y == -1]).statistic
        assert a == pytest.approx(u / (300 * 500), abs=1e-12)
    # every ROC point is a threshold working point (6.9), (6.11)
    f, t, th = ev.roc_curve(y, s)
    for k in (0, 5, 400, len(th) - 1):
        r = ev.rates(ev.confusion_counts(y, ev.threshold_predict(s, th[k])))
        assert (r["fpr"], r["tpr"]) == pytest.approx((f[k], t[k]))


def test_auc_properties(gaussian_scores):
    y, s = gaussian_scores
    a = ev.auc_pairs(y, s)
    assert ev.auc_pairs(y, np.exp(3 * s)) == pytest.approx(a, abs=1e-15)       # monotone invariance
    assert ev.auc_pairs(y, -s) == pytest.approx(1 - a, abs=1e-12)
    assert abs(a - norm.cdf(1 / np.sqrt(2))) < 0.04                           # Phi(Delta/sqrt 2)
    assert ev.auc_pairs(y, np.where(y == 1, 2.0, 1.0)) == 1.0
    assert ev.auc_pairs(y, np.zeros(800)) == 0.5                              # all ties: 1/2
    f, t, _ = ev.roc_curve(y, np.where(y == 1, 2.0, 1.0))
    assert any((fi == 0 and ti == 1) for fi, ti in zip(f, t))                 # through (0, 1)
    # labels 0/1 and a different positive class
    y01 = (y == 1).astype(int)
    assert ev.auc_pairs(y01, s) == pytest.approx(a)
    assert ev.auc_pairs(y01, -s, pos_label=0) == pytest.approx(a)


def test_rates_identities_and_counts():
    rng = np.random.default_rng(9)
    y = rng.choice([-1, 1], 50)
    p = rng.choice([-1, 1], 50)
    c = ev.confusion_counts(y, p)
    (tn, fp), (fn, tp) = metrics.confusion_matrix(y, p)
    assert c == (tp, fp, tn, fn)
    r = ev.rates(c)
    assert r["tpr"] + r["fnr"] == pytest.approx(1) and r["tnr"] + r["fpr"] == pytest.approx(1)
    assert r["tpr"] == pytest.approx(metrics.recall_score(y, p))
    assert r["bac"] == pytest.approx(metrics.balanced_accuracy_score(y, p))
    assert r["accuracy"] == pytest.approx(metrics.accuracy_score(y, p))
    np.testing.assert_array_equal(ev.threshold_predict([-1.0, 0.0, 2.0], 0.0), [-1, 1, 1])
    assert np.all(ev.threshold_predict(rng.normal(size=9), np.inf) == -1)
    assert np.all(ev.threshold_predict(rng.normal(size=9), -np.inf) == 1)


def test_roc_bad_input_is_named():
    with pytest.raises(ValueError, match="both classes.*only \\[1\\]"):
        ev.roc_curve([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="both classes"):
        ev.auc_pairs([-1, -1], [0.1, 0.2])
    with pytest.raises(ValueError, match="scores must not contain NaN"):
        ev.roc_curve([1, -1, 1], [0.1, np.nan, 0.3])
    with pytest.raises(ValueError, match="scores must not contain NaN"):
        ev.auc_pairs([1, -1, 1], [0.1, np.nan, 0.3])
    with pytest.raises(ValueError, match="infinite"):
        ev.auc_pairs([1, -1, 1], [0.1, np.inf, 0.3])
    with pytest.raises(ValueError, match="3 scores"):
        ev.roc_curve([1, -1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="non-decreasing"):
        ev.auc_trapezoid([0, 1, 0.5], [0, 1, 1])
    with pytest.raises(ValueError, match="no positive"):
        ev.rates((0, 3, 2, 0))
    with pytest.raises(ValueError, match="NaN"):
        ev.threshold_predict([0.0, 1.0], np.nan)


# ------------------------------------------------------------------ confusion matrices

def test_confusion_matrix_and_balanced_accuracy_equal_sklearn():
    rng = np.random.default_rng(10)
    y = rng.integers(0, 4, 200)
    p = np.where(rng.random(200) < 0.6, y, rng.integers(0, 4, 200))
    for norm_ in (None, "true", "pred", "all"):
        np.testing.assert_allclose(ev.confusion_matrix(y, p, normalize=norm_),
                                   metrics.confusion_matrix(y, p, normalize=norm_))
    labels = ["c", "a", "b"]
    ys, ps = np.array(labels)[y % 3], np.array(labels)[p % 3]
    np.testing.assert_array_equal(ev.confusion_matrix(ys, ps, labels=labels),
                                  metrics.confusion_matrix(ys, ps, labels=labels))
    assert ev.balanced_accuracy(y, p) == pytest.approx(metrics.balanced_accuracy_score(y, p))
    cm = ev.confusion_matrix(y, p)
    assert ev.balanced_accuracy(cm=cm) == pytest.approx(metrics.balanced_accuracy_score(y, p))
    np.testing.assert_allclose(ev.confusion_matrix(y, p, normalize="true").sum(axis=1), 1)
    s = ev.multiclass_summary(cm)
    assert s["accuracy"] == pytest.approx(metrics.accuracy_score(y, p))
    np.testing.assert_allclose(s["precision"], metrics.precision_score(y, p, average=None))
    np.testing.assert_allclose(s["f1"], metrics.f1_score(y, p, average=None))
    assert s["macro_f1"] == pytest.approx(metrics.f1_score(y, p, average="macro"))
    with pytest.raises(ValueError, match="not in `labels`"):
        ev.confusion_matrix([0, 1, 2], [0, 1, 1], labels=[0, 1])
    with pytest.raises(ValueError, match="square"):
        ev.per_class_rates(np.ones((2, 3)))
    with pytest.raises(ValueError, match="empty rows"):
        ev.per_class_rates([[1, 0], [0, 0]])


def test_worked_example_x6():
    """X.6: 95/5 data; trivial A: accuracy 0.95, BAC 0.5; B with 70 % per class: BAC 0.7."""
    y = np.r_[np.ones(950, int), 2 * np.ones(50, int)]
    a = np.ones(1000, int)
    b = y.copy()
    b[:285], b[950:965] = 2, 1
    assert metrics.accuracy_score(y, a) == 0.95 and ev.balanced_accuracy(y, a) == 0.5
    assert (metrics.accuracy_score(y, b) == pytest.approx(0.70)
            and ev.balanced_accuracy(y, b) == pytest.approx(0.7))


def test_fig_6_4_numbers_x7():
    M = ev.FIG_6_4_CONFUSION
    np.testing.assert_allclose(M.sum(axis=1), [100.1, 100, 100, 100, 100], atol=1e-9)
    assert round(np.diag(M).mean(), 2) == 73.08
    assert np.all(M.argmax(axis=1) == np.arange(5))
    s = ev.multiclass_summary(M, counts=False)
    assert s["balanced_accuracy"] == pytest.approx(np.mean(np.diag(M) / M.sum(axis=1)))
    assert "accuracy" not in s and s["worst_class_accuracy"] == pytest.approx(63.8 / 100.1)
    assert ev.most_confused(M, 2) == [(0, 2, 19.3), (2, 0, 18.4)]
    with pytest.raises(ValueError):
        M[0, 0] = 1.0                                  # the published table is read-only


def test_add_spurious_feature():
    rng = np.random.default_rng(11)
    y = rng.choice([-1, 1], 400)
    X = rng.normal(size=(400, 3))
    Xs = datasets.add_spurious_feature(X, y, 0.9, random_state=rng)
    assert Xs.shape == (400, 4)
    np.testing.assert_array_equal(Xs[:, :3], X)
    acc = np.mean(np.sign(Xs[:, 3]) == y)
    assert 0.85 < acc < 0.95
    useless = datasets.add_spurious_feature(X, y, 0.5, random_state=rng)
    assert abs(np.mean(np.sign(useless[:, 3]) == y) - 0.5) < 0.1
    with pytest.raises(ValueError, match="strength must be a finite number in \\[0, 1\\]"):
        datasets.add_spurious_feature(X, y, 1.5, random_state=rng)
