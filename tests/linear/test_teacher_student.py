"""Tests of lecture_pkg.linear.teacher_student: eq. (3.34), version space, Hebb, learning curves."""

import warnings

import numpy as np
import pytest
from sklearn.svm import SVC

from lecture_pkg import datasets
from lecture_pkg.linear import (LITERATURE_ASYMPTOTICS, center_of_mass, generalization_error,
                                hebb_error_theory, hebb_overlap_theory, hebb_student,
                                learning_curves, loglog_slope, max_margin_hyperplane,
                                max_stability_student, mc_generalization_error, overlap,
                                rosenblatt_student, sample_version_space, version_space_mask)

# ---------------------------------------------------------------- eq. (3.34)

def test_generalization_error_special_angles_and_scale_invariance():
    t = np.array([1.0, 0.0, 0.0])
    assert generalization_error(t, t) == 0.0
    assert generalization_error([0.0, 2.0, 0.0], t) == pytest.approx(0.5)
    assert generalization_error(-t, t) == pytest.approx(1.0)
    w = np.array([1.0, 1.0, 0.0])
    assert generalization_error(w, t) == pytest.approx(0.25)
    assert generalization_error(5 * w, 3 * t) == pytest.approx(0.25)
    stack = generalization_error(np.array([t, w, -t]), t)
    np.testing.assert_allclose(stack, [0.0, 0.25, 1.0])
    assert overlap(w, t) == pytest.approx(1 / np.sqrt(2))
    with pytest.raises(ValueError, match="zero"):
        generalization_error(np.zeros(3), t)
    with pytest.raises(ValueError, match="components"):
        overlap(np.ones(2), t)


def test_monte_carlo_matches_formula_within_three_standard_errors():
    rng = np.random.default_rng(0)
    t = rng.normal(size=10)
    W = rng.normal(size=(5, 10)) + 1.5 * t
    rate, se = mc_generalization_error(W, t, 100_000, random_state=rng)
    assert np.all(np.abs(rate - generalization_error(W, t)) <= 4 * se)
    r1, s1 = mc_generalization_error(W[0], t, 50_000, random_state=rng)
    assert isinstance(r1, float) and abs(r1 - generalization_error(W[0], t)) <= 4 * s1
    with pytest.raises(ValueError, match=r"'n_samples' must be an integer in \[1, inf\)"):
        mc_generalization_error(W, t, 0, random_state=rng)


def test_anisotropic_inputs_break_the_formula():
    # the formula needs isotropic inputs: stretch the input density along one axis
    rng = np.random.default_rng(1)
    t, w = np.array([1.0, 0.0]), np.array([1.0, 1.0])
    X = rng.normal(size=(200_000, 2)) * [1.0, 10.0]
    rate = np.mean(np.sign(X @ w) != np.sign(X @ t))
    assert abs(rate - generalization_error(w, t)) > 0.1


# ---------------------------------------------------------------- Hebb

def test_hebb_student_is_mean_of_labelled_inputs_and_batches():
    rng = np.random.default_rng(2)
    X, y, _ = datasets.teacher_student(30, 7, random_state=rng)
    np.testing.assert_allclose(hebb_student(X, y), (y[:, None] * X).sum(0) / 7)
    Xs = rng.normal(size=(4, 30, 7))
    ys = np.sign(rng.normal(size=(4, 30)))
    batch = hebb_student(Xs, ys)
    for k in range(4):
        np.testing.assert_allclose(batch[k], hebb_student(Xs[k], ys[k]))
    with pytest.raises(ValueError, match="shape"):
        hebb_student(Xs, ys[0])
    with pytest.raises(ValueError, match=r"\+1 or -1"):
        hebb_student(X, np.zeros(30))


def test_hebb_theory_values_and_simulation():
    # [ext] R = [1 + pi/(2 alpha)]^(-1/2); table of the reference notes
    np.testing.assert_allclose(hebb_error_theory([0.5, 1, 2, 5, 10]),
                               [0.3365, 0.2856, 0.2308, 0.1626, 0.1201], atol=1e-4)
    assert hebb_overlap_theory(np.pi / 2) == pytest.approx(1 / np.sqrt(2))
    a = 1e6
    assert hebb_error_theory(a) * np.sqrt(2 * np.pi * a) == pytest.approx(1.0, rel=1e-3)
    rng = np.random.default_rng(3)
    lc = learning_curves([1.0, 4.0], 200, 16, random_state=rng, algorithms=("hebb",))
    assert np.all(np.abs(lc.mean("hebb") - hebb_error_theory(lc.alphas)) < 0.01)
    with pytest.raises(ValueError):
        hebb_overlap_theory(0.0)


# ---------------------------------------------------------------- version space

def test_version_space_is_nested_and_contains_the_teacher():
    rng = np.random.default_rng(4)
    X, y, t = datasets.teacher_student(12, 3, random_state=rng)
    W = rng.normal(size=(20000, 3))
    masks = [version_space_mask(W, X[:P], y[:P]) for P in range(1, 13)]
    for a, b in zip(masks, masks[1:]):
        assert not np.any(b & ~a)                      # V(P+1) is a subset of V(P)
    assert masks[-1].sum() < masks[0].sum()
    assert version_space_mask(t, X, y).all()
    with pytest.raises(ValueError, match="components"):
        version_space_mask(np.ones((2, 4)), X, y)


def test_rejection_and_hit_and_run_sample_the_same_distribution():
    rng = np.random.default_rng(5)
    X, y, t = datasets.teacher_student(8, 3, random_state=rng)
    A = sample_version_space(X, y, 3000, random_state=rng)
    B = sample_version_space(X, y, 3000, random_state=rng, method="hit_and_run", n_steps=40)
    for S in (A, B):
        np.testing.assert_allclose(np.linalg.norm(S, axis=1), 1.0)
        assert version_space_mask(S, X, y).all()
    np.testing.assert_allclose(A.mean(0), B.mean(0), atol=0.02)
    np.testing.assert_allclose(np.cov(A.T), np.cov(B.T), atol=0.01)
    with pytest.raises(ValueError, match="method"):
        sample_version_space(X, y, 5, random_state=rng, method="gibbs")
    with pytest.raises(ValueError, match="not in the version space"):
        sample_version_space(X, y, 5, random_state=rng, method="hit_and_run", start=-t)
    with pytest.raises(RuntimeError, match="too small"):
        sample_version_space(X, y, 10**6, random_state=rng, batch=1000, max_draws=2000)


def test_hit_and_run_arc_is_the_part_of_the_circle_inside_the_version_space():
    from lecture_pkg.linear.teacher_student import _arc_inside

    rng = np.random.default_rng(11)
    X, y, t = datasets.teacher_student(15, 4, random_state=rng)
    Z = y[:, None] * X
    W = sample_version_space(X, y, 50, random_state=rng, method="hit_and_run", n_steps=20)
    D = rng.standard_normal(W.shape)
    D -= np.sum(D * W, axis=1, keepdims=True) * W
    D /= np.linalg.norm(D, axis=1, keepdims=True)
    down, up = _arc_inside(W, D, Z)
    assert np.all((-np.pi < down) & (down < 0) & (0 < up) & (up < np.pi))
    phi = np.linspace(-np.pi, np.pi, 20001)
    for w, d, lo, hi in zip(W, D, down, up):
        inside = np.all(np.outer(np.cos(phi), Z @ w) + np.outer(np.sin(phi), Z @ d) > 0, axis=1)
        away = np.minimum(np.abs(phi - lo), np.abs(phi - hi)) > 1e-9     # not at an end
        assert np.array_equal(inside[away], ((lo < phi) & (phi < hi))[away])


def test_centre_of_mass_is_consistent_and_beats_a_random_student():
    rng = np.random.default_rng(6)
    gain = []
    for _ in range(40):
        X, y, t = datasets.teacher_student(10, 3, random_state=rng)
        S = sample_version_space(X, y, 400, random_state=rng)
        cm = center_of_mass(S)
        assert version_space_mask(cm, X, y).all()      # convex cone: exact
        gain.append(np.mean(generalization_error(S, t)) - generalization_error(cm, t))
    gain = np.array(gain)
    assert gain.mean() > 3 * gain.std(ddof=1) / np.sqrt(len(gain))
    with pytest.raises(ValueError):
        center_of_mass(np.zeros((0, 3)))


# ---------------------------------------------------------------- trained students

def test_max_stability_solvers_agree_with_independent_references():
    rng = np.random.default_rng(7)
    X, y, _ = datasets.teacher_student(120, 10, random_state=rng)
    w = max_stability_student(X, y)
    kappa = np.min(y * (X @ w))
    for solver in ("svc", "slsqp"):
        np.testing.assert_allclose(max_stability_student(X, y, solver=solver), w, atol=1e-4)
    u, _, gamma = max_margin_hyperplane(X, y, fit_intercept=False)
    assert kappa == pytest.approx(gamma, rel=1e-5)
    # sklearn SVC directly on the mirrored data has a zero bias
    svc = SVC(kernel="linear", C=1e6, tol=1e-6).fit(np.vstack([X, -X]), np.r_[y, -y])
    assert abs(svc.intercept_[0]) < 1e-4
    # no other direction has a larger stability
    for _ in range(200):
        v = w + 0.05 * rng.normal(size=10)
        assert np.min(y * (X @ v)) / np.linalg.norm(v) <= kappa + 1e-9
    Xb, yb = datasets.xor()
    with pytest.raises(ValueError, match="not linearly separable"):
        max_stability_student(Xb, yb)
    with pytest.raises(ValueError, match="solver"):
        max_stability_student(X, y, solver="adatron")


def test_rosenblatt_student_lies_in_version_space():
    rng = np.random.default_rng(8)
    X, y, _ = datasets.teacher_student(60, 8, random_state=rng)
    w = rosenblatt_student(X, y)
    assert version_space_mask(w, X, y).all()
    Xb, yb = datasets.xor()
    with pytest.raises(RuntimeError, match="converge"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rosenblatt_student(Xb, yb, max_epochs=50)


def test_learning_curves_runner_shapes_order_and_slopes():
    rng = np.random.default_rng(9)
    lc = learning_curves([0.5, 2.0, 8.0], 40, 6, random_state=rng)
    for name in ("hebb", "rosenblatt", "max_stability"):
        assert lc.errors[name].shape == (3, 6)
        assert np.all(np.diff(lc.mean(name)) < 0)          # more data, smaller error
        assert np.all(lc.sem(name) > 0)
    assert lc.mean("max_stability")[-1] < lc.mean("hebb")[-1]
    assert loglog_slope([1, 10, 100], [1.0, 0.1, 0.01]) == pytest.approx(-1.0)
    with pytest.raises(ValueError, match="algorithms"):
        learning_curves([1.0], 10, 2, random_state=rng, algorithms=("minover",))
    with pytest.raises(ValueError, match="alphas"):
        learning_curves([-1.0], 10, 2, random_state=rng)
    with pytest.raises(ValueError):
        loglog_slope([1.0], [0.1])


def test_literature_constants_are_ordered():
    c = LITERATURE_ASYMPTOTICS
    assert (c["bayes (centre of mass)"] < c["maximal stability"]
            < c["gibbs (random version-space student)"])
