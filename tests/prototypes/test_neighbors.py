"""Tests of lecture_pkg.prototypes.neighbors: k-NN, the nearest prototype classifier, the condensed
nearest neighbour rule and the Cover-Hart bound."""

import numpy as np
import pytest
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid

from lecture_pkg.prototypes import NearestNeighborClassifier, NearestPrototypeClassifier, distances


# ---------------------------------------------------------------- k-NN and nearest prototypes (V.1)

def test_one_nn_has_zero_training_error_and_matches_scikit_learn(iris):
    X, y = iris
    nn = NearestNeighborClassifier().fit(X, y)
    assert nn.score(X, y) == 1.0
    rng = np.random.default_rng(2)
    Q = rng.normal(size=(500, 4)) * 1.5
    for k in (1, 3, 5, 8):
        ours = NearestNeighborClassifier(n_neighbors=k).fit(X, y)
        theirs = KNeighborsClassifier(n_neighbors=k, algorithm="brute").fit(X, y)
        np.testing.assert_array_equal(ours.predict(Q), theirs.predict(Q))
        np.testing.assert_allclose(ours.predict_proba(Q), theirs.predict_proba(Q), atol=1e-12)


def test_knn_minkowski_and_callable_metrics_match_scikit_learn(iris):
    X, y = iris
    Q = np.random.default_rng(3).normal(size=(300, 4))
    for p in (1, 3):
        ours = NearestNeighborClassifier(3, metric="minkowski", p=p).fit(X, y).predict(Q)
        theirs = KNeighborsClassifier(3, p=p, algorithm="brute").fit(X, y).predict(Q)
        np.testing.assert_array_equal(ours, theirs)
    # squared and plain Euclidean distances rank neighbours alike
    a = NearestNeighborClassifier(5, metric="euclidean").fit(X, y).predict(Q)
    b = NearestNeighborClassifier(5, metric=distances.squared_euclidean).fit(X, y).predict(Q)
    np.testing.assert_array_equal(a, b)


def test_knn_with_k_equal_p_predicts_the_majority_and_large_k_fails():
    X = np.arange(7.0)[:, None]
    y = np.array(["a", "b", "b", "a", "b", "c", "b"])
    assert set(NearestNeighborClassifier(7).fit(X, y).predict(X)) == {"b"}
    with pytest.raises(ValueError, match="larger than the 7 sample"):
        NearestNeighborClassifier(8).fit(X, y)
    with pytest.raises(ValueError, match="metric"):
        NearestNeighborClassifier(metric="cosine").fit(X, y)


def test_nearest_prototype_with_class_means_is_nearest_centroid(iris, toy):
    for X, y in (iris, toy):
        npc = NearestPrototypeClassifier().fit(X, y)
        nc = NearestCentroid().fit(X, y)
        np.testing.assert_allclose(npc.prototypes_, nc.centroids_, atol=1e-12)
        Q = np.random.default_rng(4).normal(size=(400, X.shape[1])) * 2
        np.testing.assert_array_equal(npc.predict(Q), nc.predict(Q))
        np.testing.assert_array_equal(npc.predict(X), nc.predict(X))


def test_prototypes_at_every_example_give_one_nn(toy):
    X, y = toy
    npc = NearestPrototypeClassifier.from_prototypes(X, y)
    Q = np.random.default_rng(5).normal(size=(300, 2)) * 3
    np.testing.assert_array_equal(npc.predict(Q), NearestNeighborClassifier().fit(X, y).predict(Q))


def test_two_prototypes_give_the_perpendicular_bisector():
    npc = NearestPrototypeClassifier.from_prototypes([[-1.0, 0.0], [1.0, 0.0]], ["left", "right"])
    rng = np.random.default_rng(6)
    Q = rng.uniform(-3, 3, size=(200, 2))
    Q = Q[np.abs(Q[:, 0]) > 1e-9]
    np.testing.assert_array_equal(npc.predict(Q), np.where(Q[:, 0] > 0, "right", "left"))
    dec = npc.decision_function(Q)
    assert np.all((dec > 0) == (Q[:, 0] > 0)) and np.all(np.abs(dec) <= 1)
    with pytest.raises(ValueError, match="labels"):
        NearestPrototypeClassifier.from_prototypes([[0.0, 0.0]], ["a", "b"])


def test_multiclass_decision_function_is_minus_the_class_distance(toy):
    X, y = toy
    npc = NearestPrototypeClassifier().fit(X, y)
    dec = npc.decision_function(X[:10])
    np.testing.assert_allclose(dec, -distances.squared_euclidean(X[:10], npc.prototypes_),
                               atol=1e-12)


# ---------------------------------------------------------------- Hart's CNN and Cover-Hart

def test_condensed_set_is_consistent_and_matches_sklearn_knn(toy):
    from lecture_pkg.prototypes import condensed_nearest_neighbor
    X, y = toy
    for order in (None, "random"):
        store = condensed_nearest_neighbor(X, y, order=order, random_state=3)
        assert len(set(store.tolist())) == len(store) < len(y) // 2
        own = NearestNeighborClassifier().fit(X[store], y[store])
        oracle = KNeighborsClassifier(1, algorithm="brute").fit(X[store], y[store])
        np.testing.assert_array_equal(own.predict(X), y)            # consistent
        np.testing.assert_array_equal(oracle.predict(X), y)         # the oracle agrees
        Q = np.random.default_rng(0).normal(size=(500, 2)) * 3
        np.testing.assert_array_equal(own.predict(Q), oracle.predict(Q))


def test_condensed_set_follows_harts_passes_by_hand():
    from lecture_pkg.prototypes import condensed_nearest_neighbor
    X = np.array([[0.0], [4.0], [1.0], [3.0], [2.6]])
    y = np.array([0, 1, 0, 1, 0])
    # pass 1: store 0; 4.0 is nearer 0 -> wrong, store 1; 1.0 right; 3.0 right;
    # 2.6 is nearer 4.0 (1.4 < 2.6) -> wrong, store 4.  Pass 2: 3.0 now nearer 2.6 -> store 3
    assert condensed_nearest_neighbor(X, y).tolist() == [0, 1, 4, 3]


def test_condensed_set_depends_on_the_order(toy):
    from lecture_pkg.prototypes import condensed_nearest_neighbor
    X, y = toy
    stores = {tuple(sorted(condensed_nearest_neighbor(X, y, order="random", random_state=s)))
              for s in range(5)}
    assert len(stores) > 1
    perm = np.random.default_rng(1).permutation(len(y))
    assert condensed_nearest_neighbor(X, y, order=perm)[0] == perm[0]
    with pytest.raises(ValueError, match="label"):
        condensed_nearest_neighbor(X, y[:-1])
    with pytest.raises(ValueError, match="permutation"):
        condensed_nearest_neighbor(X, y, order=[0, 1])


def test_cover_hart_bound():
    from lecture_pkg.prototypes import cover_hart_bound
    r = np.linspace(0, 0.5, 11)
    lower, upper = cover_hart_bound(r)
    np.testing.assert_allclose(upper, 2 * r * (1 - r), atol=1e-15)    # c = 2
    assert np.all(lower <= upper + 1e-15) and np.all(upper <= 2 * r + 1e-15)
    assert cover_hart_bound(0.5)[1] == 0.5                              # no information
    lo3, up3 = cover_hart_bound(2 / 3, n_classes=3)
    assert up3 == pytest.approx(2 / 3)
    with pytest.raises(ValueError, match="bayes_error"):
        cover_hart_bound(0.6)
    with pytest.raises(ValueError, match="n_classes"):
        cover_hart_bound(0.1, n_classes=1)
