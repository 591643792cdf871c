"""Tests of lecture_pkg.datasets' examples (datasets/_examples.py): the lectures' small data sets
and tables, iris, standardisation and the teacher-student generator."""

import numpy as np
import pytest

from lecture_pkg import datasets
from lecture_pkg.linear import geometric_margin, max_margin_hyperplane
from lecture_pkg.learning import regression as reg


def test_koski_example_variants_differ_only_in_point_six():
    X1, y1 = datasets.koski_example(1)
    X2, y2 = datasets.koski_example(2)
    assert X1.shape == (6, 2) and y1.tolist() == [1, 1, 1, -1, -1, -1]
    assert (y1 == y2).all()
    assert X1[5].tolist() == [-2, -2] and X2[5].tolist() == [-2, -1]
    np.testing.assert_array_equal(X1[:5], X2[:5])
    with pytest.raises(ValueError):
        datasets.koski_example(3)


def test_mooney_example_has_zero_one_labels():
    X, c = datasets.mooney_example()
    assert X.tolist() == [[2, -1], [2, 1], [1, 3]] and c.tolist() == [1, 1, 0]


def test_fig34_example_is_separable_through_the_origin():
    X, y = datasets.biehl_fig34_example()
    _, _, gamma = max_margin_hyperplane(X, y, fit_intercept=False)
    assert gamma > 0


def test_xor_is_the_exclusive_or():
    X, y = datasets.xor()
    assert ((X[:, 0] != X[:, 1]) == (y == 1)).all()


def test_iris_setosa_vs_rest():
    X, y = datasets.iris_setosa_vs_rest()
    assert X.shape == (150, 2) and (y == -1).sum() == 50
    # scikit-learn's corrected copy: row 38 (index 37) has sepal width 3.6, the UCI file 3.1
    assert X[37].tolist() == [4.9, 3.6]
    Xp, _ = datasets.iris_setosa_vs_rest(("petal length",))
    assert Xp.shape == (150, 1)
    with pytest.raises(ValueError, match="features"):
        datasets.iris_setosa_vs_rest(("colour",))


def test_standardize_uses_population_std():
    X, _ = datasets.iris_setosa_vs_rest()
    Z, mean, std = datasets.standardize(X)
    np.testing.assert_allclose(Z.mean(axis=0), 0, atol=1e-12)
    np.testing.assert_allclose(Z.std(axis=0, ddof=0), 1, atol=1e-12)
    np.testing.assert_allclose(mean, [5.843333, 3.057333], atol=1e-6)
    Z2, _, _ = datasets.standardize(X[:10], mean, std)
    np.testing.assert_allclose(Z2, Z[:10])
    with pytest.raises(ValueError, match="zero standard deviation"):
        datasets.standardize(np.ones((3, 2)))


def test_teacher_student_labels_and_gap():
    rng = np.random.default_rng(0)
    X, y, w = datasets.teacher_student(200, 5, random_state=rng, teacher_bias=0.5, gap=0.25)
    assert X.shape == (200, 5) and np.linalg.norm(w) == pytest.approx(1.0)
    assert set(np.unique(y)) == {-1, 1}
    b = 0.5  # teacher bias for a unit teacher vector equals teacher_bias / |teacher|
    margins = y * (X @ w + b)
    assert margins.min() >= 0  # every label agrees with the teacher
    X, y, w = datasets.teacher_student(200, 5, random_state=np.random.default_rng(1), gap=0.25)
    assert geometric_margin(X, y, w) >= 0.25


def test_teacher_student_is_reproducible_and_checks_arguments():
    a = datasets.teacher_student(10, 3, random_state=np.random.default_rng(7))
    b = datasets.teacher_student(10, 3, random_state=np.random.default_rng(7))
    np.testing.assert_array_equal(a[0], b[0])
    with pytest.raises(ValueError):
        datasets.teacher_student(10, 3, random_state=np.random.default_rng(0), gap=5.0)
    with pytest.raises(ValueError):
        datasets.teacher_student(10, 3, random_state=np.random.default_rng(0), teacher=np.zeros(3))


def test_fair_die():
    die = datasets.fair_die()
    assert die.variables == ("roll",)
    np.testing.assert_allclose(die.table, np.full(6, 1 / 6))


def test_shapes_joint_matches_the_slide_tables():
    j = datasets.shapes_joint()
    assert j.variables == ("color", "shape", "category")
    assert j.prob({"category": "pos", "color": "red", "shape": "circle"}) == 0.2
    assert j.prob({"category": "pos", "color": "blue", "shape": "square"}) == 0.01
    assert j.prob({"category": "neg", "color": "red", "shape": "square"}) == 0.3
    assert j.prob({"category": "neg", "color": "blue"}) == pytest.approx(0.4)
    assert j.table.sum() == pytest.approx(1.0)


def test_naive_bayes_tables_are_distributions_and_match_the_slide():
    t = datasets.naive_bayes_tables()
    assert t.classes == ("positive", "negative") and t.features == ("size", "color", "shape")
    np.testing.assert_allclose(t.prior, [0.5, 0.5])
    for table, values in zip(t.conditionals, t.categories):
        assert table.shape == (2, len(values))
        np.testing.assert_allclose(table.sum(axis=1), 1.0)
    assert t.conditionals[0][:, 1].tolist() == [0.1, 0.2]        # P(medium | Y)
    assert t.conditionals[1][:, 0].tolist() == [0.9, 0.3]        # P(red | Y)
    assert t.conditionals[2][:, 2].tolist() == [0.9, 0.3]        # P(circle | Y)


def test_naive_bayes_training_set():
    X, y = datasets.naive_bayes_training_set()
    assert X.shape == (4, 3) and y.tolist() == ["positive", "positive", "negative", "negative"]
    cats = datasets.naive_bayes_tables().categories
    for i in range(3):
        assert set(X[:, i]) <= set(cats[i])
    assert X[3].tolist() == ["large", "blue", "circle"]


def test_m_estimate_counts():
    counts = datasets.m_estimate_counts()
    assert counts == {"small": 4, "medium": 0, "large": 6} and sum(counts.values()) == 10


def test_oaks_data_and_its_least_squares_fit():
    X, f = datasets.oaks()
    assert X.shape == (12, 1) and f.shape == (12,)
    assert X[:3, 0].tolist() == [97, 93, 88] and f[:3].tolist() == [12.5, 12.5, 8.0]
    assert X.mean() == 54.5 and f.mean() == 8.25
    Xa = reg.add_clamped_input(X, 1.0)
    w = reg.least_squares(Xa, f)
    assert w[1] == pytest.approx(1.285354, abs=1e-6) and w[0] == pytest.approx(0.1277917, abs=1e-7)
    assert reg.residual_variance(w, Xa, f) == pytest.approx(7.113562, abs=1e-6)
    # independent oracle: cov / var
    slope = np.cov(X[:, 0], f, bias=True)[0, 1] / X[:, 0].var()
    assert slope == pytest.approx(w[0], rel=1e-12)
