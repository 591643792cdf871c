"""Tests of lecture_pkg.linear.separability: planes, linear separability by LP, Boolean functions,
Cover's count and convex hulls."""

import warnings
from math import comb

import numpy as np
import pytest
from scipy.spatial import Delaunay

from lecture_pkg import datasets
from lecture_pkg.linear import (BOOLEAN_INPUTS, Perceptron, boolean_functions, boolean_gate,
                                count_separable_dichotomies, cover_count, cover_fraction,
                                hyperplane_distance, is_linearly_separable, max_margin_hyperplane,
                                project_onto_hyperplane, separable_fraction_mc,
                                separating_hyperplane, hull_intersection)


# ---------------------------------------------------------------- geometry (3.1-3.2)

def test_distance_of_plane_from_origin_is_theta_over_norm():
    w, theta = np.array([3.0, 4.0]), 2.5
    assert hyperplane_distance(w, theta) == pytest.approx(0.5)       # not theta |w| = 12.5
    foot = project_onto_hyperplane(np.zeros(2), w, theta)
    assert foot @ w == pytest.approx(theta)
    assert np.linalg.norm(foot) == pytest.approx(theta / 5.0)
    # scaling (w, theta) by lambda > 0 leaves the plane unchanged (3.10)
    assert hyperplane_distance(7 * w, 7 * theta) == pytest.approx(0.5)
    with pytest.raises(ValueError, match="zero"):
        hyperplane_distance([0.0, 0.0], 1.0)


def test_projection_is_orthogonal_and_lands_on_the_plane():
    rng = np.random.default_rng(0)
    w, theta = rng.normal(size=4), 0.7
    x = rng.normal(size=(10, 4))
    xp = project_onto_hyperplane(x, w, theta)
    np.testing.assert_allclose(xp @ w, theta, atol=1e-12)
    d = x - xp
    np.testing.assert_allclose(np.abs(d @ w), np.linalg.norm(d, axis=1) * np.linalg.norm(w))
    np.testing.assert_allclose(np.linalg.norm(d, axis=1), np.abs(x @ w - theta) / np.linalg.norm(w))
    with pytest.raises(ValueError, match="components"):
        project_onto_hyperplane(np.zeros(3), w)


# ---------------------------------------------------------------- LP test

def test_lp_solution_separates_teacher_data():
    rng = np.random.default_rng(1)
    X, y, _ = datasets.teacher_student(40, 5, random_state=rng, teacher_bias=0.4)
    coef, b = separating_hyperplane(X, y)
    assert np.all(y * (X @ coef + b) >= 1 - 1e-7)
    assert is_linearly_separable(X, y)
    X0, y0, _ = datasets.teacher_student(40, 5, random_state=rng)
    coef0, b0 = separating_hyperplane(X0, y0, fit_intercept=False)
    assert b0 == 0.0 and np.all(y0 * (X0 @ coef0) >= 1 - 1e-7)


def test_xor_is_not_separable_and_the_answer_agrees_with_max_margin():
    X, y = datasets.xor()
    assert separating_hyperplane(X, y) is None
    assert not is_linearly_separable(X, y)
    with pytest.raises(ValueError):
        max_margin_hyperplane(X, y)          # independent solver agrees


def test_homogeneous_and_inhomogeneous_differ():
    # all points on one side of the origin with label +1 vs -1 split by a line x = 1
    X = np.array([[0.5, 0.0], [1.5, 0.0]])
    y = np.array([-1, 1])
    assert is_linearly_separable(X, y)
    assert not is_linearly_separable(X, y, fit_intercept=False)   # same direction, opposite labels


def test_lp_agrees_with_perceptron_convergence_on_random_labels():
    rng = np.random.default_rng(2)
    for _ in range(30):
        X = rng.normal(size=(8, 3))
        y = rng.choice([-1, 1], size=8)
        if len(np.unique(y)) < 2:
            continue
        sep = is_linearly_separable(X, y)
        model = Perceptron(max_epochs=3000)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(X, y)
        if model.converged_:
            assert sep                        # a converged perceptron proves separability
        if sep:
            assert model.converged_           # the convergence theorem (generous epoch limit)


def test_bad_input():
    with pytest.raises(ValueError, match="rows"):
        is_linearly_separable(np.zeros((3, 2)), [1, -1])
    with pytest.raises(ValueError, match=r"\+1 or -1"):
        is_linearly_separable(np.zeros((2, 2)), [0, 1])
    with pytest.raises(ValueError, match="NaN"):
        is_linearly_separable(np.array([[np.nan, 0.0]]), [1])


# ---------------------------------------------------------------- Boolean functions

def test_sixteen_functions_fourteen_separable():
    funcs = boolean_functions()
    assert len(funcs) == 16 and len({t for _, t in funcs}) == 16
    bad = [name for name, t in funcs if not is_linearly_separable(*boolean_gate(t))]
    assert sorted(bad) == ["XNOR", "XOR"]


def test_gate_lookup_and_and_weights():
    X, y = boolean_gate("and")
    np.testing.assert_array_equal(X, BOOLEAN_INPUTS)
    assert y.tolist() == [-1, -1, -1, 1]
    w = np.array([-1.5, 1.0, 1.0])                 # Deckert's (2): (w0, w1, w2)
    assert np.where(w[0] + X @ w[1:] >= 0, 1, -1).tolist() == y.tolist()
    assert boolean_gate((0, 1, 1, 0))[1].tolist() == datasets.xor()[1].tolist()
    assert boolean_gate("nand")[1].tolist() == [1, 1, 1, -1]
    with pytest.raises(ValueError, match="unknown gate"):
        boolean_gate("implies")
    with pytest.raises(ValueError, match="truth table"):
        boolean_gate((0, 1, 2, 0))


# ---------------------------------------------------------------- Cover's count [ext]

def test_cover_count_values_and_identities():
    assert [cover_count(4, 2), cover_count(5, 3), cover_count(6, 3), cover_count(8, 4)] == [8, 22,
                                                                                            32, 128]
    for N in range(1, 8):
        assert cover_count(N, N) == 2 ** N                     # P <= N: every labelling
        assert cover_count(2 * N, N) == 2 ** (2 * N - 1)       # half at alpha = 2
        for P in range(2, 12):                                 # Cover's recursion
            assert cover_count(P, N + 1) == cover_count(P - 1, N + 1) + cover_count(P - 1, N)
    with pytest.raises(ValueError):
        cover_count(0, 3)


def test_cover_fraction_matches_exact_integers_and_has_a_step_at_two():
    for P in range(1, 20):
        for N in range(1, 8):
            assert cover_fraction(P, N) == pytest.approx(cover_count(P, N) / 2 ** P, rel=1e-12)
    assert cover_fraction(2000, 1000) == pytest.approx(0.5)
    assert cover_fraction(1800, 1000) > 0.99 and cover_fraction(2200, 1000) < 0.01
    f = cover_fraction(np.arange(1, 40), 10)
    assert np.all(np.diff(f) <= 0)
    with pytest.raises(ValueError):
        cover_fraction(0, 2)


@pytest.mark.parametrize("N, P", [(2, 4), (3, 5), (3, 6), (2, 7)])
def test_exhaustive_count_equals_cover(N, P):
    rng = np.random.default_rng(10 * N + P)
    assert count_separable_dichotomies(rng.normal(size=(P, N))) == cover_count(P, N) == \
        2 * sum(comb(P - 1, k) for k in range(N))


def test_exhaustive_count_needs_general_position():
    # four points on a line through the origin in 2-d: only 2 * (number of sign cuts)
    X = np.array([[1.0, 1.0], [2.0, 2.0], [-1.0, -1.0], [-3.0, -3.0]])
    assert count_separable_dichotomies(X) < cover_count(4, 2)
    with pytest.raises(ValueError, match="1..16"):
        count_separable_dichotomies(np.zeros((17, 2)))


def test_monte_carlo_fraction_agrees_with_cover():
    rng = np.random.default_rng(3)
    for P, N in [(10, 5), (14, 5)]:
        frac, se = separable_fraction_mc(P, N, 300, random_state=rng)
        assert abs(frac - cover_fraction(P, N)) <= 4 * max(se, 0.01)
    assert separable_fraction_mc(3, 5, 20, random_state=rng) == (1.0, 0.0)
    with pytest.raises(ValueError, match="n_trials"):
        separable_fraction_mc(3, 2, 0, random_state=rng)


# ------------------------------------------------------------------ convex hulls

def test_hull_intersection_on_the_boolean_gates():
    for name, table in boolean_functions():
        X, y = boolean_gate(table)
        if len(set(table)) < 2:
            continue
        meet = hull_intersection(X[y == 1], X[y == -1])
        assert (meet is None) == is_linearly_separable(X, y), name
    X, y = boolean_gate("xor")
    np.testing.assert_allclose(hull_intersection(X[y == 1], X[y == -1]), [0.5, 0.5], atol=1e-9)


@pytest.mark.parametrize("seed", range(3))
def test_hulls_disjoint_iff_separable_on_random_sets(seed):
    rng = np.random.default_rng(seed)
    both = 0
    for _ in range(100):
        d = int(rng.integers(2, 4))
        na, nb = rng.integers(1, 10, size=2)
        A = rng.standard_normal((na, d))
        B = rng.standard_normal((nb, d)) + rng.uniform(0, 4) * rng.standard_normal(d) / np.sqrt(d)
        point = hull_intersection(A, B)
        separable = is_linearly_separable(np.vstack([A, B]), np.r_[np.ones(na), -np.ones(nb)])
        assert (point is None) == separable
        if point is not None:                          # the point lies in both hulls
            for S in (A, B):
                if len(S) > d:
                    assert Delaunay(S).find_simplex(point, tol=1e-9) >= 0
        both += separable
    assert 10 < both < 90                              # both answers occur


def test_hull_intersection_checks_dimensions():
    with pytest.raises(ValueError, match="different dimensions"):
        hull_intersection(np.zeros((2, 2)), np.zeros((2, 3)))
