"""Tests of lecture_pkg.prototypes.lvq (and the prototypes' _base.py): initialisation, LVQ1, GLVQ,
GMLVQ."""

import copy
import time

import numpy as np
import pytest
from sklearn.datasets import make_blobs

from lecture_pkg.prototypes import (GLVQ, GMLVQ, LVQ1, NearestPrototypeClassifier, PrototypeTrainer,
                                    class_means, distances, glvq_cost, glvq_gradients,
                                    init_prototypes, normalize_omega, relative_distance_difference)


# ---------------------------------------------------------------- helpers and initialisation

def test_class_means_are_the_centroids(iris):
    X, y = iris
    means, classes = class_means(X, y)
    assert classes.tolist() == [0, 1, 2]
    np.testing.assert_allclose(means, [X[y == k].mean(axis=0) for k in range(3)], atol=1e-12)


def test_init_class_mean_and_random_example(iris):
    X, y = iris
    rng = np.random.default_rng(0)
    W, c = init_prototypes(X, y, [1, 1, 1], random_state=rng)
    np.testing.assert_allclose(W, class_means(X, y)[0], atol=1e-12)
    W, c = init_prototypes(X, y, [2, 1, 3], random_state=rng)
    assert c.tolist() == [0, 0, 1, 2, 2, 2]
    assert not np.allclose(W[0], W[1])                       # jitter separates them
    np.testing.assert_allclose(W[2], X[y == 1].mean(axis=0))  # a single prototype stays at the mean
    W, c = init_prototypes(X, y, [3, 3, 3], method="random-example", random_state=rng)
    for w, k in zip(W, c):                                   # each is an example of its own class
        assert np.any(np.all(X[y == k] == w, axis=1))
    assert len(np.unique(W, axis=0)) == 9


def test_init_refuses_empty_classes_and_too_many_prototypes(iris):
    X, y = iris
    with pytest.raises(ValueError, match="class 'b' has no prototypes"):
        init_prototypes(X, y, [1, 0, 1], class_names=["a", "b", "c"])
    with pytest.raises(ValueError, match="51 prototypes.*only 50 example"):
        init_prototypes(X, y, [1, 51, 1])
    with pytest.raises(ValueError, match="class-mean"):
        init_prototypes(X, y, [1, 1, 1], method="kmeans")


def test_relative_distance_difference_range_and_sign():
    rng = np.random.default_rng(1)
    dJ, dK = rng.exponential(size=1000), rng.exponential(size=1000)
    e = relative_distance_difference(dJ, dK)
    assert np.all((e >= -1) & (e <= 1))
    assert np.array_equal(e < 0, dJ < dK)
    assert relative_distance_difference(0.0, 0.0) == 0.0
    assert relative_distance_difference(0.0, 2.0) == -1.0
    with pytest.raises(ValueError, match=r"'d_correct' must be .* in \[0, inf\)"):
        relative_distance_difference(-1.0, 1.0)


def test_normalize_omega_and_zero_trace():
    om = normalize_omega(np.array([[3.0, 0.0], [0.0, 4.0]]))
    assert np.trace(om.T @ om) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="zero trace"):
        normalize_omega(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="omega contains NaN"):
        normalize_omega(np.array([[np.nan, 0.0]]))


# ---------------------------------------------------------------- LVQ1 (V.2)

def test_lvq1_step_moves_the_winner_by_exactly_eta_times_the_difference(toy):
    X, y = toy
    W0 = np.array([[0.0, 1.0], [-1.0, -0.5], [1.0, -0.5]])
    eta = 0.3
    for mu in range(len(y)):
        t = PrototypeTrainer(X, y, W0, [0, 1, 2], rule="lvq1", eta=eta)
        j = int(distances.squared_euclidean(X[mu], W0).argmin())
        t.step(mu)
        psi = 1.0 if j == y[mu] else -1.0
        change = t.W - W0
        np.testing.assert_allclose(change[j], psi * eta * (X[mu] - W0[j]), atol=1e-12)
        assert np.all(np.delete(change, j, axis=0) == 0)      # only the winner moves
        factor = 1 - eta if psi > 0 else 1 + eta               # new offset = factor (xi - w)
        np.testing.assert_allclose(X[mu] - t.W[j], factor * (X[mu] - W0[j]), atol=1e-12)


def test_lvq1_with_fixed_omega_follows_eq_5_9(toy):
    X, y = toy
    W0 = np.array([[0.0, 1.0], [-1.0, -0.5], [1.0, -0.5]])
    omega = np.array([[1.0, 0.5], [0.0, 0.7]])
    lam = omega.T @ omega
    t = PrototypeTrainer(X, y, W0, [0, 1, 2], rule="lvq1", eta=0.2, omega=omega)
    j = int(distances.relevance_distance(X[0], W0, omega).argmin())
    t.step(0)
    psi = 1.0 if j == y[0] else -1.0
    np.testing.assert_allclose(t.W[j] - W0[j], 0.2 * psi * lam @ (X[0] - W0[j]), atol=1e-12)
    # the identity as omega gives back plain LVQ1 exactly
    a = LVQ1(random_state=0, max_epochs=5).fit(X, y)
    b = LVQ1(random_state=0, max_epochs=5, omega=np.eye(2)).fit(X, y)
    np.testing.assert_array_equal(a.prototypes_, b.prototypes_)


def test_lvq1_records_history_and_learns_blobs():
    X, y = make_blobs(120, centers=[[-3, 0], [3, 0], [0, 4]], cluster_std=0.6, random_state=0)
    model = LVQ1(prototypes_per_class=[1, 2, 1], initial_prototypes="random-example",
                 random_state=1, max_epochs=20).fit(X, y)
    assert model.score(X, y) == 1.0
    assert model.prototype_history_.shape == (21, 4, 2)
    assert model.cost_per_epoch_.shape == model.errors_per_epoch_.shape == (21,)
    np.testing.assert_array_equal(model.prototype_history_[-1], model.prototypes_)
    assert model.prototype_labels_.tolist() == [0, 1, 1, 2]
    assert model.errors_per_epoch_[-1] == 0 and model.n_epochs_ == 20


def test_lvq1_on_iris_improves_on_the_class_means(iris):
    X, y = iris
    base = NearestPrototypeClassifier().fit(X, y).score(X, y)
    assert LVQ1(random_state=0).fit(X, y).score(X, y) >= base


# ---------------------------------------------------------------- GLVQ (V.3)

def _finite_difference(f, x, h=1e-6):
    g = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        E = np.zeros_like(x)
        E[idx] = h
        g[idx] = (f(x + E) - f(x - E)) / (2 * h)
    return g


@pytest.mark.parametrize("activation, steepness", [("identity", 1.0), ("sigmoid", 3.0)])
@pytest.mark.parametrize("use_omega", [False, True])
def test_glvq_gradients_match_finite_differences(toy, activation, steepness, use_omega):
    X, y = toy
    rng = np.random.default_rng(8)
    W, c = init_prototypes(X, y, [2, 1, 2], method="random-example", random_state=rng)
    W = W + 0.1 * rng.normal(size=W.shape)                    # away from the data points
    omega = rng.normal(size=(2, 2)) if use_omega else None
    kw = {"activation": activation, "steepness": steepness}
    gw, go = glvq_gradients(X, y, W, c, omega=omega, **kw)
    fd_w = _finite_difference(lambda V: glvq_cost(X, y, V, c, omega=omega, **kw), W)
    np.testing.assert_allclose(gw, fd_w, atol=1e-6)
    if use_omega:
        fd_o = _finite_difference(lambda O: glvq_cost(X, y, W, c, omega=O, **kw), omega)
        np.testing.assert_allclose(go, fd_o, atol=1e-6)
    else:
        assert go is None


def test_glvq_cost_terms_and_errors(toy):
    X, y = toy
    W, c = class_means(X, y)
    D = distances.squared_euclidean(X, W)
    dJ = D[np.arange(len(y)), y]
    dK = np.where(np.eye(3, dtype=bool)[y], np.inf, D).min(axis=1)
    e = relative_distance_difference(dJ, dK)
    assert glvq_cost(X, y, W, c) == pytest.approx(e.sum())
    assert np.array_equal(e < 0, NearestPrototypeClassifier().fit(X, y).predict(X) == y)
    sig = glvq_cost(X, y, W, c, activation="sigmoid", steepness=2.0)
    assert sig == pytest.approx(np.sum(1 / (1 + np.exp(-2 * e))))
    with pytest.raises(ValueError, match="class 2 has no prototypes"):
        glvq_cost(X, y, W[:2], c[:2])
    with pytest.raises(ValueError, match="two classes"):
        glvq_cost(X, y, W[:1], c[:1])
    with pytest.raises(ValueError, match="activation"):
        glvq_cost(X, y, W, c, activation="relu")


def test_batch_glvq_cost_never_rises_with_a_small_step(toy):
    X, y = toy
    model = GLVQ(solver="batch", eta=0.2, decay_epochs=None, max_epochs=60).fit(X, y)
    assert np.all(np.diff(model.cost_per_epoch_) <= 1e-12)
    assert model.cost_per_epoch_[-1] < model.cost_per_epoch_[0]


@pytest.mark.parametrize("solver, rule, omega", [("batch", "glvq", True), ("batch", "glvq", False),
                                                 ("sgd", "glvq", True), ("sgd", "lvq1", False)])
def test_recorded_cost_and_errors_are_those_of_the_state_after_each_epoch(iris, solver, rule,
                                                                          omega):
    # the trainer records cost and errors from one pass over the data and, in batch mode,
    # starts the next step from that pass's gradients: the same numbers as computed afresh,
    # also when the prototypes are changed between epochs
    X, y = iris
    W, c = init_prototypes(X, y, [2, 2, 2], random_state=np.random.default_rng(3),
                           method="random-example")
    kw = dict(rule=rule, solver=solver, eta=0.3, random_state=4)
    if omega:
        kw.update(omega=np.eye(4) / 2.0, learn_omega=True, eta_omega=0.05)
    trainer = PrototypeTrainer(X, y, W, c, **kw)
    for epoch in range(1, 6):
        if epoch == 3:
            trainer.W[0] += 0.25                        # a change the next step must see
            fresh = PrototypeTrainer(X, y, trainer.W, c, **{
                **kw, "omega": trainer.omega, "random_state": copy.deepcopy(trainer.rng)})
            fresh.epoch = trainer.epoch
            if omega:                                   # as it is (the start renormalises)
                fresh.omega = trainer.omega.copy()
        trainer.run_epoch()
        assert trainer.cost_per_epoch[-1] == trainer.cost()
        assert trainer.errors_per_epoch[-1] == trainer.errors()
        if epoch == 3:
            fresh.run_epoch()
            np.testing.assert_array_equal(fresh.W, trainer.W)
            assert fresh.cost_per_epoch[-1] == trainer.cost_per_epoch[-1]


def test_winner_among_many_prototypes_follows_the_tie_rule():
    # LVQ1's winner among 3 x 4 prototypes, two of them at the same distance up to
    # rounding: the first of them wins, as first_argmin decides
    X = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]])
    y = np.array([0, 1, 2])
    W = np.repeat(X, 4, axis=0) + np.tile([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]],
                                          (3, 1))
    W[2] = [-1.0 + 1e-14, 0.0]                         # ties with W[0] (distance 1 from X[0])
    trainer = PrototypeTrainer(X, y, W, np.repeat([0, 1, 2], 4), rule="lvq1", eta=0.5)
    trainer.step(0)
    moved = np.flatnonzero(np.any(trainer.W != W, axis=1))
    assert moved.tolist() == [0]


def test_sgd_glvq_cost_decreases_on_average(iris):
    X, y = iris
    for seed in range(3):
        cost = GLVQ(random_state=seed, max_epochs=30).fit(X, y).cost_per_epoch_
        assert cost[-1] < cost[0] and cost[-10:].mean() < cost[1:11].mean() + 1e-9


def test_glvq_step_moves_correct_winner_closer_and_wrong_winner_away(toy):
    X, y = toy
    W0, c = class_means(X, y)
    t = PrototypeTrainer(X, y, W0, c, rule="glvq", eta=0.1)
    t.step(0)
    moved = np.flatnonzero(np.any(t.W != W0, axis=1))
    assert len(moved) == 2
    d_old = distances.squared_euclidean(X[0], W0)[0]
    d_new = distances.squared_euclidean(X[0], t.W)[0]
    J = y[0]
    K = [k for k in moved if k != J][0]
    assert d_new[J] < d_old[J] and d_new[K] > d_old[K]


def test_glvq_sigmoid_and_iris_accuracy(iris):
    X, y = iris
    assert GLVQ(random_state=0).fit(X, y).score(X, y) >= 0.88
    model = GLVQ(activation="sigmoid", steepness=5.0, eta=0.2, random_state=0)
    assert model.fit(X, y).score(X, y) >= 0.85


# ---------------------------------------------------------------- GMLVQ (V.4)

@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gmlvq_on_iris_reproduces_the_relevance_pattern(iris, seed):
    X, y = iris
    # the issue asks for training in under 2 s; CPU time, so a busy machine does not flake it
    start = time.process_time()
    model = GMLVQ(random_state=seed).fit(X, y)
    assert time.process_time() - start < 2.0
    lam = model.lambda_
    np.testing.assert_allclose(lam, lam.T, atol=1e-14)
    assert np.trace(lam) == pytest.approx(1.0, abs=1e-12)
    assert np.linalg.eigvalsh(lam).min() >= -1e-12
    assert model.eigenvalues_.sum() == pytest.approx(1.0)
    r = model.relevances_
    assert r[2] + r[3] > r[0] + r[1] and min(r[2], r[3]) > max(r[0], r[1])
    off = np.abs(lam - np.diag(np.diag(lam)))
    assert np.unravel_index(off.argmax(), off.shape) in ((2, 3), (3, 2))
    assert model.eigenvalues_[0] > 0.9
    assert model.score(X, y) >= 0.95
    assert np.all(np.diff(model.eigenvalues_) <= 1e-15)


def test_gmlvq_batch_variant_agrees(iris):
    X, y = iris
    model = GMLVQ(solver="batch", eta=0.5, eta_omega=0.05, decay_epochs=None,
                  max_epochs=300).fit(X, y)
    assert np.all(np.diff(model.cost_per_epoch_) <= 1e-10)
    assert model.score(X, y) >= 0.95 and model.eigenvalues_[0] > 0.9
    assert np.trace(model.lambda_) == pytest.approx(1.0)


def test_gmlvq_diagonal_low_rank_and_projection(iris):
    X, y = iris
    diag = GMLVQ(relevance="diagonal", random_state=0).fit(X, y)
    assert np.count_nonzero(diag.lambda_ - np.diag(np.diag(diag.lambda_))) == 0
    assert diag.relevances_.sum() == pytest.approx(1.0) and diag.relevances_[2:].sum() > 0.5
    low = GMLVQ(rank=2, relevance_init="random", random_state=0).fit(X, y)
    assert low.omega_.shape == (2, 4)
    assert np.all(low.eigenvalues_[2:] < 1e-12)
    assert low.score(X, y) >= 0.95
    Z = low.project(X)
    assert Z.shape == (150, 2)
    np.testing.assert_allclose(Z, X @ low.eigenvectors_[:2].T)
    Zs = low.project(X, scale=True)
    # with rank 2, distances in the scaled projection are exactly delta_Lambda
    np.testing.assert_allclose(distances.squared_euclidean(Zs[:5], low.project(low.prototypes_,
                                                                               scale=True)),
                               distances.relevance_distance(X[:5], low.prototypes_,
                                                            low.omega_), atol=1e-10)
    with pytest.raises(ValueError, match="n_components"):
        low.project(X, n_components=5)


def test_gmlvq_trainer_keeps_trace_one_after_every_step(iris):
    X, y = iris
    rng = np.random.default_rng(9)
    W, c = init_prototypes(X, y, [1, 1, 1])
    t = PrototypeTrainer(X, y, W, c, rule="glvq", eta=0.05, eta_omega=0.05,
                         omega=rng.normal(size=(4, 4)), learn_omega=True, random_state=rng)
    for mu in rng.permutation(150)[:50]:
        t.step(mu)
        assert np.trace(t.lambda_) == pytest.approx(1.0, abs=1e-12)


def test_gmlvq_prediction_uses_the_learned_distance(iris):
    X, y = iris
    model = GMLVQ(random_state=0, max_epochs=20).fit(X, y)
    D = distances.relevance_distance(X, model.prototypes_, model.omega_)
    np.testing.assert_array_equal(model.predict(X), model.prototype_labels_[D.argmin(axis=1)])


# ---------------------------------------------------------------- bad input

def test_bad_input_gives_clear_errors(iris):
    X, y = iris
    with pytest.raises(ValueError, match="class 1 has no prototypes"):
        LVQ1(prototypes_per_class=[1, 0, 1]).fit(X, y)
    with pytest.raises(ValueError, match="only 50 example"):
        GLVQ(prototypes_per_class=60, initial_prototypes="random-example").fit(X, y)
    with pytest.raises(ValueError, match="only 50 example"):
        GMLVQ(prototypes_per_class=[1, 1, 51]).fit(X, y)
    with pytest.raises(ValueError, match="class 2 has no prototypes"):
        GLVQ().fit(X, y, initial_prototypes=X[:2], prototype_labels=[0, 1])
    with pytest.raises(ValueError, match="zero trace"):
        GMLVQ().fit(X, y, initial_omega=np.zeros((4, 4)))
    with pytest.raises(ValueError, match="1 class"):
        LVQ1().fit(X[:50], y[:50])
    with pytest.raises(ValueError, match="prototypes_per_class"):
        LVQ1(prototypes_per_class=[1, 1]).fit(X, y)
    with pytest.raises(ValueError, match="eta"):
        GLVQ(eta=-1).fit(X, y)
    with pytest.raises(ValueError, match="solver"):
        GLVQ(solver="adam").fit(X, y)
    with pytest.raises(ValueError, match="relevance"):
        GMLVQ(relevance="local").fit(X, y)
    with pytest.raises(ValueError, match="rank=9"):
        GMLVQ(rank=9).fit(X, y)
    with pytest.raises(ValueError, match="full rank"):
        GMLVQ(rank=2, relevance="diagonal").fit(X, y)
    with pytest.raises(ValueError, match="not a class"):
        LVQ1().fit(X, y, initial_prototypes=X[:3], prototype_labels=[0, 1, 7])
    with pytest.raises(ValueError, match="NaN"):
        LVQ1().fit(np.where(np.arange(600).reshape(150, 4) == 5, np.nan, X), y)
    with pytest.raises(ValueError, match="batch gradient"):
        PrototypeTrainer(X, y, X[:3], [0, 1, 2], rule="lvq1", solver="batch")


def test_fit_is_reproducible_and_seed_dependent(toy):
    X, y = toy
    a = GLVQ(initial_prototypes="random-example", random_state=3, max_epochs=5).fit(X, y)
    b = GLVQ(initial_prototypes="random-example", random_state=3, max_epochs=5).fit(X, y)
    c = GLVQ(initial_prototypes="random-example", random_state=4, max_epochs=5).fit(X, y)
    np.testing.assert_array_equal(a.prototypes_, b.prototypes_)
    assert not np.allclose(a.prototypes_, c.prototypes_)


@pytest.mark.parametrize("use_omega, activation", [(False, "identity"), (True, "identity"),
                                                   (True, "sigmoid")])
def test_single_example_step_equals_the_gradient_of_its_cost_term(toy, use_omega, activation):
    """The fast stochastic step is exactly -eta times the gradient of phi(e_mu) (5.7, 5.17)."""
    X, y = toy
    rng = np.random.default_rng(12)
    W0, c = init_prototypes(X, y, [2, 1, 2], method="random-example", random_state=rng)
    W0 = W0 + 0.1 * rng.normal(size=W0.shape)
    omega0 = normalize_omega(rng.normal(size=(2, 2))) if use_omega else None
    for mu in (0, 17, 44, 80):
        t = PrototypeTrainer(X, y, W0, c, rule="glvq", eta=0.03,
                             eta_omega=0.02, activation=activation, steepness=2.0,
                             omega=omega0, learn_omega=use_omega)
        t.step(mu)
        gw, go = glvq_gradients(X[mu:mu + 1], y[mu:mu + 1], W0, c, omega=omega0,
                                activation=activation, steepness=2.0)
        np.testing.assert_allclose(t.W, W0 - 0.03 * gw, atol=1e-12)
        if use_omega:
            np.testing.assert_allclose(t.omega, normalize_omega(omega0 - 0.02 * go), atol=1e-12)
