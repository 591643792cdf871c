"""Tests of the probabilistic-classification tables in lecture_pkg.datasets."""

import numpy as np
import pytest

from lecture_pkg import datasets
from lecture_pkg.learning import regression as reg


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
