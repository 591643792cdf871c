"""Tests of lecture_pkg.evaluation.metrics: ROC curves, AUC, rates and confusion matrices."""

import numpy as np
import pytest
from scipy.stats import mannwhitneyu, norm
from sklearn import metrics

from lecture_pkg import evaluation as ev


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
    with pytest.raises(ValueError, match="'theta' must be a number; got nan"):
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
