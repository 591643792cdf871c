"""Tests of lecture_pkg.probabilistic.naive_bayes against the slides' examples and scikit-learn."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris, load_wine
from sklearn.naive_bayes import CategoricalNB, GaussianNB

from lecture_pkg import datasets
from lecture_pkg.probabilistic import (CategoricalNaiveBayes, GaussianNaiveBayes,
                                       UndefinedPosteriorWarning, UnseenCategoryWarning, m_estimate)

QUERY = [["medium", "red", "circle"]]


@pytest.fixture
def tables():
    return datasets.naive_bayes_tables()


@pytest.fixture
def given(tables):
    t = tables
    return CategoricalNaiveBayes.from_tables(t.classes, t.prior, t.categories, t.conditionals)


def column(model, label):
    return list(model.classes_).index(label)


# ---------------------------------------------------------------- the m-estimate

def test_m_estimate_slide_numbers():
    counts = datasets.m_estimate_counts()
    est = m_estimate(np.array(list(counts.values())), 10, m=2, p=1 / 3)
    assert np.round(est, 3).tolist() == [0.389, 0.056, 0.556]
    np.testing.assert_allclose(est, [7 / 18, 1 / 18, 10 / 18])
    assert est.sum() == pytest.approx(1.0)
    assert m_estimate(4, 10, m=0, p=0.3) == pytest.approx(0.4)          # raw frequency
    assert m_estimate(4, 10, m=3, p=1 / 3) == pytest.approx(5 / 13)     # add-one
    assert m_estimate(4, 10, m=1e12, p=0.25) == pytest.approx(0.25)     # -> p as m grows


@pytest.mark.parametrize("args, message", [
    ((0, 0, 0, 0.5), "0/0"), ((5, 4, 1, 0.5), "n_ijk"), ((1, 4, -1, 0.5), "'m' must"),
    ((1, 4, 1, 1.5), r"\[0, 1\]"),
])
def test_m_estimate_bad_input(args, message):
    with pytest.raises(ValueError, match=message):
        m_estimate(*args)


# ---------------------------------------------------------------- given tables

def test_given_tables_worked_example(given):
    scores = given.joint_scores(QUERY)[0]
    assert scores[column(given, "positive")] == pytest.approx(0.0405)
    assert scores[column(given, "negative")] == pytest.approx(0.009)
    assert given.predict(QUERY).tolist() == ["positive"]
    assert given.predict_proba(QUERY)[0, column(given, "positive")] == pytest.approx(9 / 11)
    np.testing.assert_allclose(given.predict_log_proba(QUERY), np.log(given.predict_proba(QUERY)))


def test_from_tables_refuses_bad_tables(tables):
    t = tables
    bad = list(t.conditionals)
    bad[0] = np.array([[0.4, 0.1, 0.6], [0.4, 0.2, 0.4]])
    with pytest.raises(ValueError, match="sum to one"):
        CategoricalNaiveBayes.from_tables(t.classes, t.prior, t.categories, bad)
    bad[0] = np.array([[0.6, -0.1, 0.5], [0.4, 0.2, 0.4]])
    with pytest.raises(ValueError, match="non-negative"):
        CategoricalNaiveBayes.from_tables(t.classes, t.prior, t.categories, bad)
    with pytest.raises(ValueError, match="sum to one"):
        CategoricalNaiveBayes.from_tables(t.classes, [0.5, 0.6], t.categories, t.conditionals)
    with pytest.raises(ValueError, match="shape"):
        CategoricalNaiveBayes.from_tables(t.classes, t.prior, t.categories,
                                          [c[:, :2] for c in t.conditionals])
    with pytest.raises(ValueError, match="features"):
        CategoricalNaiveBayes.from_tables(t.classes, t.prior, t.categories[:2], t.conditionals)


def test_scores_are_the_naive_bayes_products_and_scaling_invariant(tables):
    t = tables
    rng = np.random.default_rng(0)
    base = CategoricalNaiveBayes.from_tables(t.classes, t.prior, t.categories, t.conditionals)
    X = np.array([[rng.choice(c) for c in t.categories] for _ in range(40)])

    def products(conditionals):
        scores = np.ones((len(X), 2)) * t.prior
        for i, table in enumerate(conditionals):
            idx = [list(t.categories[i]).index(v) for v in X[:, i]]
            scores = scores * table[:, idx].T
        return scores

    order = [list(t.classes).index(c) for c in base.classes_]
    np.testing.assert_allclose(base.joint_scores(X), products(t.conditionals)[:, order])
    # with a uniform prior, multiplying P(X_2 = v | Y) by the same c_v for every class
    # multiplies every class's score by c_v and leaves every decision unchanged
    scaled = [c * np.array([1.0, 30.0, 0.01]) if i == 1 else c for i,
              c in enumerate(t.conditionals)]
    expected = np.array(t.classes)[np.argmax(products(scaled), axis=1)]
    assert base.predict(X).tolist() == expected.tolist()


# ---------------------------------------------------------------- learned from the four rows

def test_raw_frequencies_reproduce_the_slide_table(tables):
    X, y = datasets.naive_bayes_training_set()
    raw = CategoricalNaiveBayes(m=0, categories=tables.categories).fit(X, y)
    pos, neg = column(raw, "positive"), column(raw, "negative")
    expected = {  # (pos row, neg row) per feature, values in the slide order
        0: ([0.5, 0, 0.5], [0.5, 0, 0.5]),
        1: ([1, 0, 0], [0.5, 0.5, 0]),
        2: ([0, 0, 1], [0, 0.5, 0.5]),
    }
    for i, (p_row, n_row) in expected.items():
        assert raw.categories_[i].tolist() == list(tables.categories[i])
        np.testing.assert_array_equal(raw.feature_tables()[i][pos], p_row)
        np.testing.assert_array_equal(raw.feature_tables()[i][neg], n_row)
    np.testing.assert_array_equal(np.exp(raw.class_log_prior_), [0.5, 0.5])
    assert raw.class_count_.tolist() == [2.0, 2.0]


def test_unsmoothed_posterior_is_undefined_with_a_clear_warning(tables):
    X, y = datasets.naive_bayes_training_set()
    raw = CategoricalNaiveBayes(m=0, categories=tables.categories).fit(X, y)
    assert raw.joint_scores(QUERY).tolist() == [[0.0, 0.0]]
    with pytest.warns(UndefinedPosteriorWarning, match="0/0"):
        proba = raw.predict_proba(QUERY)
    assert np.isnan(proba).all()
    with pytest.raises(ValueError, match="0/0"):
        raw.predict(QUERY)
    # rows whose posterior exists are unaffected
    with pytest.warns(UndefinedPosteriorWarning):
        proba = raw.predict_proba(np.vstack([QUERY, X]))
    assert np.isnan(proba[0]).all() and np.allclose(proba[1:].sum(axis=1), 1)


@pytest.mark.parametrize("params, expected", [
    ({}, 9 / 13),                            # add-one Laplace
    ({"m": 3.0}, 9 / 13),                    # the same as an m-estimate
    ({"m": 2.0, "p": 1 / 3}, 0.719101),      # the slides' m = 2, p = 1/3
])
def test_smoothed_posterior_of_the_query(tables, params, expected):
    X, y = datasets.naive_bayes_training_set()
    model = CategoricalNaiveBayes(categories=tables.categories, **params).fit(X, y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        proba = model.predict_proba(QUERY)
    assert proba[0, column(model, "positive")] == pytest.approx(expected, abs=1e-6)
    assert model.predict(QUERY).tolist() == ["positive"]


def test_posterior_moves_to_the_prior_as_m_grows(tables):
    X, y = datasets.naive_bayes_training_set()
    post = [CategoricalNaiveBayes(m=m, categories=tables.categories).fit(X, y)
            .predict_proba(QUERY)[0, 1] for m in (0.01, 1, 10, 100, 1e6)]
    assert post[0] == pytest.approx(0.8, abs=1e-2)       # the limit m -> 0+ is 4/5
    assert np.all(np.diff(post) < 0) and post[-1] == pytest.approx(0.5, abs=1e-5)


def test_equals_scikit_learn_categorical_nb_with_laplace():
    # sklearn's CategoricalNB with alpha=1 is add-one smoothing over the seen categories
    rng = np.random.default_rng(3)
    X = rng.integers(0, 4, size=(200, 5))
    y = rng.integers(0, 3, size=200)
    ours = CategoricalNaiveBayes().fit(X, y)
    sk = CategoricalNB(alpha=1.0).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), sk.predict_proba(X), rtol=1e-10)
    assert (ours.predict(X) == sk.predict(X)).all()
    # and the m-estimate with p = 1/|V| is alpha = m / |V|
    ours = CategoricalNaiveBayes(m=2.0).fit(X, y)
    sk = CategoricalNB(alpha=0.5).fit(X, y)
    np.testing.assert_allclose(ours.predict_proba(X), sk.predict_proba(X), rtol=1e-10)


def test_string_and_object_inputs_and_any_labels():
    X, y = datasets.naive_bayes_training_set()
    a = CategoricalNaiveBayes().fit(X, y)
    b = CategoricalNaiveBayes().fit(X.astype(object).tolist(), np.where(y == "positive", 1, 0))
    np.testing.assert_allclose(a.predict_proba(X), b.predict_proba(X))   # same class order
    assert [c.tolist() for c in a.categories_] == [["large", "small"], ["blue", "red"],
                                                   ["circle", "triangle"]]


def test_unseen_categories_raise_or_warn():
    X, y = datasets.naive_bayes_training_set()
    model = CategoricalNaiveBayes().fit(X, y)
    with pytest.raises(ValueError, match="not seen in fitting"):
        model.predict([["medium", "red", "circle"]])
    warn = CategoricalNaiveBayes(handle_unknown="warn").fit(X, y)
    with pytest.warns(UnseenCategoryWarning, match="medium"):
        proba = warn.predict_proba([["medium", "red", "circle"]])
    # the unseen feature is left out: same as a model trained without it
    reduced = CategoricalNaiveBayes().fit(X[:, 1:], y)
    np.testing.assert_allclose(proba, reduced.predict_proba([["red", "circle"]]))
    with pytest.raises(ValueError, match="not seen"):
        model.predict([[1.0, 2.0, 3.0]])      # numbers where strings were fitted


@pytest.mark.parametrize("params, message", [
    ({"m": -1}, "'m' must"), ({"m": 1, "p": 2.0}, "'p' must"), ({"m": 1, "p": [0.5, 0.5]},
                                                                "p must"),
    ({"handle_unknown": "ignore"}, "handle_unknown"),
    ({"categories": [["small"], ["red"], ["circle"]]}, "not among"),
    ({"categories": [["a", "b"]]}, "one list"),
    ({"categories": [[1, 2], [1, 2], [1, 2]]}, "same kind"),
])
def test_bad_parameters_give_clear_errors(params, message):
    X, y = datasets.naive_bayes_training_set()
    with pytest.raises(ValueError, match=message):
        CategoricalNaiveBayes(**params).fit(X, y)


def test_bad_values_give_clear_errors():
    X = np.empty((2, 1), dtype=object)
    X[0, 0], X[1, 0] = "a", {"b": 1}
    with pytest.raises(TypeError, match="numbers or strings"):
        CategoricalNaiveBayes().fit(X, [0, 1])
    with pytest.raises(ValueError, match="NaN"):
        CategoricalNaiveBayes().fit([[np.nan], [1.0]], [0, 1])
    with pytest.raises(ValueError, match="Unknown label type"):
        CategoricalNaiveBayes().fit([[0], [1]], [0.5, 1.5])


# ---------------------------------------------------------------- Gaussian naive Bayes

def test_gaussian_nb_equals_scikit_learn_on_iris_and_wine():
    for loader in (load_iris, load_wine):
        X, y = loader(return_X_y=True)
        ours = GaussianNaiveBayes(var_smoothing=0).fit(X, y)
        sk = GaussianNB(var_smoothing=0).fit(X, y)
        assert (ours.predict(X) == sk.predict(X)).all()
        np.testing.assert_allclose(ours.predict_proba(X), sk.predict_proba(X), atol=1e-9)
        np.testing.assert_allclose(ours.theta_, sk.theta_, rtol=1e-12)
        np.testing.assert_allclose(ours.var_, sk.var_, rtol=1e-10)
        for k in range(3):
            np.testing.assert_allclose(ours.var_[k], X[y == k].var(axis=0), rtol=1e-12)   # ddof 0
        # the default smoothing matches too
        np.testing.assert_allclose(GaussianNaiveBayes().fit(X, y).predict_proba(X),
                                   GaussianNB().fit(X, y).predict_proba(X), atol=1e-9)


def test_gaussian_nb_log_space_survives_far_away_points():
    X, y = load_iris(return_X_y=True)
    model = GaussianNaiveBayes(var_smoothing=0).fit(X, y)
    far = np.array([[1e3, 1e3, 1e3, 1e3]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        proba = model.predict_proba(far)
    assert np.isfinite(proba).all() and proba.sum() == pytest.approx(1.0)


def test_gaussian_nb_priors_and_bad_input():
    X, y = load_iris(return_X_y=True)
    fixed = GaussianNaiveBayes(priors=[0.8, 0.1, 0.1]).fit(X, y)
    np.testing.assert_allclose(fixed.predict_proba(X),
                               GaussianNB(priors=[0.8, 0.1, 0.1]).fit(X, y).predict_proba(X),
                               atol=1e-9)
    with pytest.raises(ValueError, match="sum to one"):
        GaussianNaiveBayes(priors=[0.5, 0.1, 0.1]).fit(X, y)
    with pytest.raises(ValueError, match="priors"):
        GaussianNaiveBayes(priors=[0.5, 0.5]).fit(X, y)
    with pytest.raises(ValueError, match="var_smoothing"):
        GaussianNaiveBayes(var_smoothing=-1).fit(X, y)
    Xc = X.copy()
    Xc[y == 0, 1] = 3.0                    # constant within class 0
    with pytest.raises(ValueError, match="constant within class 0"):
        GaussianNaiveBayes(var_smoothing=0).fit(Xc, y)
    GaussianNaiveBayes().fit(Xc, y)        # smoothing makes it well defined
    with pytest.raises(ValueError, match="every feature is constant"):
        GaussianNaiveBayes().fit(np.ones((4, 2)), [0, 1, 0, 1])


# ---------------------------------------------------------------- scikit-learn conventions

# No check is skipped: the estimator checks give categorical estimators (input tag
# ``categorical``) small non-negative integers, which are valid category values, so every
# check applies.  The instance with handle_unknown="warn" covers the train/test checks
# where the test split could hold a value unseen in fitting.
