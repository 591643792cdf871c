"""Tests of lecture_pkg.linear.perceptron against the lecture notes and scikit-learn: the
perceptron and its trainer (and the family's sign and augment, from its _base.py)."""

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import Perceptron as SkPerceptron

from lecture_pkg import datasets
from lecture_pkg.linear import (Perceptron, RosenblattTrainer, augment, data_radius,
                                local_potentials, max_margin_hyperplane, novikoff_bound, sign)


# --------------------------------------------------------- sign and augment (the family's _base.py)

def test_sign_maps_zero_to_plus_one():
    assert sign(np.array([-2.0, -0.0, 0.0, 3.0])).tolist() == [-1, 1, 1, 1]


def test_augment_puts_the_clamped_input_first():
    X = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert augment(X, 5.0).tolist() == [[5.0, 1.0, 2.0], [5.0, 3.0, 4.0]]
    with pytest.raises(ValueError, match="NaN"):
        augment(np.array([[np.nan, 1.0]]))
    with pytest.raises(ValueError, match="2-d"):
        augment(np.array([1.0, 2.0]))


def test_augmented_inner_product_equals_affine_score():
    rng = np.random.default_rng(0)
    X, w, b = rng.normal(size=(20, 3)), rng.normal(size=3), 0.7
    for s in (1.0, -1.0, 2.5):
        np.testing.assert_allclose(augment(X, s) @ np.r_[b / s, w], X @ w + b, atol=1e-12)


# ---------------------------------------------------------------- the trainer

def test_trainer_reproduces_koski_hand_updates():
    X, y = datasets.koski_example()
    t = RosenblattTrainer(augment(X), y, [0.0, 1.0, 0.5], eta=0.2)
    expected = {4: (-0.2, 0.6, 0.9), 2: (0.0, 0.2, 1.1), 0: (0.2, 0.5, 1.0)}
    for idx, weights in expected.items():
        assert t.update(idx)
        np.testing.assert_allclose(t.weights, weights, atol=1e-12)
    assert np.all(t.local_potentials() > 0)
    assert not t.update(3)  # a correct example does not move the weights
    with pytest.raises(IndexError):
        t.update(6)


def test_trainer_mooney_trace_step_by_step():
    X, c = datasets.mooney_example()
    t = RosenblattTrainer(augment(X), 2 * c - 1, [0.0, -1.0, 1.0], eta=1.0)
    trace = []
    for _ in range(5):
        t.step()
        trace.append(t.weights.tolist())
    assert trace == [[1, 1, 0], [1, 1, 0], [0, 0, -3], [0, 0, -3], [1, 2, -2]]
    assert (augment(X) @ t.weights).tolist() == [7.0, 3.0, -3.0]


def test_next_update_equals_stepping_one_example_at_a_time():
    rng = np.random.default_rng(1)
    X, y, _ = datasets.teacher_student(40, 3, random_state=rng)
    a = RosenblattTrainer(augment(X), y, np.zeros(4), shuffle=True,
                          random_state=np.random.default_rng(5))
    b = RosenblattTrainer(augment(X), y, np.zeros(4), shuffle=True,
                          random_state=np.random.default_rng(5))
    while not a.converged:
        a.next_update()
    while not b.converged:
        b.step()
    np.testing.assert_array_equal(a.weights, b.weights)
    assert a.errors_per_epoch == b.errors_per_epoch
    assert a.n_updates == b.n_updates == a.update_counts.sum()


@pytest.mark.parametrize("shuffle", [False, True])
def test_implicit_clamped_input_makes_the_same_updates_as_stepping(shuffle):
    # The block scan with the clamped input prepended implicitly (no augmented copy) and
    # the skip of the last epoch's verified tail must make the updates that presenting
    # the augmented examples one at a time makes, epoch by epoch.
    rng = np.random.default_rng(3)
    X, y, _ = datasets.teacher_student(3000, 8, random_state=rng, gap=0.05)
    s = 0.7
    fast = RosenblattTrainer(X, y, np.zeros(9), eta=0.5, margin=0.1, bias_input=s,
                             shuffle=shuffle, random_state=np.random.default_rng(9))
    slow = RosenblattTrainer(augment(X, s), y, np.zeros(9), eta=0.5, margin=0.1,
                             shuffle=shuffle, random_state=np.random.default_rng(9))
    fast.run(1000)
    while not slow.converged:
        slow.step()
    assert fast.converged and fast.epoch == slow.epoch > 2
    assert fast.errors_per_epoch == slow.errors_per_epoch
    np.testing.assert_array_equal(fast.update_counts, slow.update_counts)
    np.testing.assert_allclose(fast.weights, slow.weights, rtol=0, atol=1e-12)


def _planted_mistakes(P, positions, rng):
    """Integer data (exact potentials) on which, from the start ``(b, w) = (0, 1, 0)`` with
    ``eta = 1``, ``s = 1`` and a margin ``0 <= c < 2``, only the examples at ``positions``
    are ever updates; in the cyclic order every one of them is, in every epoch.

    The planted ones are ``(0, 1)`` with alternating labels, starting with -1: the bias
    and ``w_2`` move together, by ``y`` at each update, so each planted example has
    ``E = 2 y b``, which is 0 or -2 in the cyclic order (``b`` goes 0, -1, 0, ...) and
    never leaves ``{-2, 0, 2}`` in any order.  The others are ``(k, 0)`` with ``|k| >= 3``
    and ``y = sign(k)``: ``E = |k| + y b >= 2``, since ``|b| <= 1``.
    """
    k = rng.integers(3, 6, size=P) * rng.choice([-1, 1], size=P)
    X = np.stack([k, np.zeros(P)], axis=1).astype(float)
    y = np.sign(k).astype(float)
    X[positions] = [0.0, 1.0]
    y[positions] = np.resize([-1.0, 1.0], len(positions))
    return X, y


@pytest.mark.parametrize("margin, shuffle", [(0.0, False), (1.5, False), (1.0, True)])
def test_updates_at_block_boundaries_and_epoch_ends_equal_stepping(margin, shuffle):
    # Updates planted on the first and the last example of scan blocks, on consecutive
    # examples, after long gaps and on the last example of the epoch; the blocked scan
    # must make them in the same order as presenting one example at a time, epoch after
    # epoch (the run never converges: the planted examples keep undoing each other).
    # Shuffled, the planted examples are presented in random orders instead.
    rng = np.random.default_rng(7)
    P = 20_000
    gaps = np.r_[rng.choice([1, 2, 63, 64, 65, 127, 128, 129, 255, 256], size=150),
                 [1023, 1024, 4095, 4096, 4097]]
    positions = np.cumsum(rng.permutation(gaps))
    positions = np.unique(np.r_[0, positions[positions < P - 1], P - 1])
    X, y = _planted_mistakes(P, positions, rng)
    start = np.array([0.0, 1.0, 0.0])
    slow = RosenblattTrainer(augment(X), y, start, margin=margin, record_history=True,
                             shuffle=shuffle, random_state=np.random.default_rng(3))
    while slow.epoch < 3:
        slow.step()
    fast = RosenblattTrainer(X, y, start, margin=margin, bias_input=1.0, record_history=True,
                             shuffle=shuffle, random_state=np.random.default_rng(3))
    blocks = []
    rows = fast._rows
    fast._rows = lambda a, b: blocks.append((fast.epoch, a, b)) or rows(a, b)
    for _ in range(slow.n_updates):                       # the updates of three epochs
        fast.next_update()
    h_fast, h_slow = fast.history(), slow.history()
    np.testing.assert_array_equal(h_fast.example, h_slow.example)
    np.testing.assert_array_equal(h_fast.epoch, h_slow.epoch)
    np.testing.assert_array_equal(h_fast.coef, h_slow.coef)
    np.testing.assert_array_equal(h_fast.intercept, h_slow.intercept)
    np.testing.assert_array_equal(fast.update_counts, slow.update_counts)
    closed = len(fast.errors_per_epoch)
    assert fast.errors_per_epoch == slow.errors_per_epoch[:closed] and not fast.converged
    assert set(h_fast.example) <= set(positions)          # only planted examples update
    if shuffle:
        return
    assert closed == 3            # the last example of every epoch is an update
    # cyclic: all of them in the first epoch (in the next ones the first may pass, when
    # the epoch before ended on the label it starts with)
    assert fast.errors_per_epoch[0] == len(positions) <= fast.errors_per_epoch[-1] + 1
    # what the comparison covered: updates on the first and on the last row of a block
    updates = set(zip(h_fast.epoch.tolist(), h_fast.example.tolist()))
    assert any((e, a) in updates for e, a, b in blocks)
    assert any((e, b - 1) in updates and b - a > 1 and b < P for e, a, b in blocks)
    assert {(e, P - 1) for e in range(3)} <= updates


def test_converged_epoch_checks_only_what_the_previous_epoch_left_unchecked():
    # Cyclic order: after the last update at position p, the next epoch need only check
    # the examples before p; the trainer scores fewer than P rows in it.
    rng = np.random.default_rng(4)
    X, y, _ = datasets.teacher_student(5000, 5, random_state=rng, gap=0.05)
    t = RosenblattTrainer(X, y, np.zeros(6), bias_input=1.0)
    scored = []
    original = t._scores
    t._scores = lambda rows: scored.append((t.epoch, len(np.atleast_2d(rows)))) or original(rows)
    t.run(1000)
    assert t.converged and t.errors_per_epoch[-1] == 0
    full = RosenblattTrainer(augment(X), y, np.zeros(6))
    while not full.converged:
        full.step()
    assert t.errors_per_epoch == full.errors_per_epoch
    last = t.epoch - 1
    assert t.errors_per_epoch[last - 1] > 0
    assert sum(n for epoch, n in scored if epoch == last) < len(y)


def test_trainer_embedding_strengths_give_the_weights():
    # Biehl (3.13): from w = 0, w = eta * sum_mu x^mu y^mu xi^mu
    rng = np.random.default_rng(2)
    X, y, _ = datasets.teacher_student(30, 5, random_state=rng)
    Xa = augment(X)
    t = RosenblattTrainer(Xa, y, np.zeros(6), eta=0.3)
    t.run(100)
    np.testing.assert_allclose(t.weights, 0.3 * (t.update_counts * y) @ Xa, atol=1e-12)


def test_trainer_validates_its_inputs():
    X, y = datasets.koski_example()
    with pytest.raises(ValueError, match="shape"):
        RosenblattTrainer(augment(X), y, [0.0, 0.0])
    with pytest.raises(ValueError, match="RosenblattTrainer: the parameter 'eta' must be"):
        RosenblattTrainer(augment(X), y, [0.0, 0.0, 0.0], eta=0.0)
    with pytest.raises(RuntimeError, match="record_history"):
        RosenblattTrainer(augment(X), y, [0.0, 0.0, 0.0]).history()


# ---------------------------------------------------------------- the estimator

def test_koski_cyclic_sweep():
    X, y = datasets.koski_example()
    for variant in (1, 2):
        X, y = datasets.koski_example(variant)
        p = Perceptron(eta=0.2).fit(X, y, coef_init=[1.0, 0.5], intercept_init=0.0)
        assert p.errors_per_epoch_ == [2, 1, 0]
        assert p.converged_ and p.n_updates_ == 3 and p.n_epochs_ == 3
        np.testing.assert_allclose(p.coef_, [0.5, 1.0], atol=1e-12)
        assert p.intercept_ == pytest.approx(0.2, abs=1e-12)


def test_rosenblatt_radius_bias_on_koski_data():
    X, y = datasets.koski_example()
    p1 = Perceptron(eta=1.0, bias_input="radius").fit(X, y)
    assert p1.n_updates_ == 11
    assert p1.errors_per_epoch_ == [3, 3, 2, 2, 1, 0]
    np.testing.assert_allclose(p1.coef_, [1.5, 7.5], atol=1e-12)
    assert p1.intercept_ == pytest.approx(8.0, abs=1e-12)
    assert p1.bias_input_ == pytest.approx(2 * np.sqrt(2))
    # the learning rate only rescales the iterates from a zero start
    p2 = Perceptron(eta=0.2, bias_input="radius").fit(X, y)
    np.testing.assert_allclose(p2.coef_, 0.2 * p1.coef_, atol=1e-12)
    assert p2.intercept_ == pytest.approx(0.2 * p1.intercept_, abs=1e-12)
    assert p2.errors_per_epoch_ == p1.errors_per_epoch_
    _, _, kappa = max_margin_hyperplane(X, y)
    assert p1.n_updates_ <= novikoff_bound(data_radius(X), kappa)


def test_biehl_fig34_walkthrough():
    X, y = datasets.biehl_fig34_example()
    p = Perceptron(eta=1 / 2, fit_intercept=False, record_history=True).fit(X, y)
    assert p.history_.example.tolist() == [0, 2, 4]
    np.testing.assert_allclose(p.history_.coef[1:], [[2, 2], [1, 2], [-1, 1.5]], atol=1e-12)
    assert p.errors_per_epoch_ == [3, 0]
    assert p.intercept_ == 0.0
    np.testing.assert_allclose(local_potentials(X, y, p.coef_), [2, 8, 2, 4, 2.5, 2], atol=1e-12)


def test_history_records_every_update():
    X, y = datasets.koski_example()
    p = Perceptron(eta=0.2, record_history=True).fit(X, y, coef_init=[1.0, 0.5], intercept_init=0.0)
    h = p.history_
    assert h.coef.shape == (4, 2) and h.intercept.shape == (4,)
    assert h.example.tolist() == [2, 4, 0] and h.epoch.tolist() == [0, 0, 1]
    np.testing.assert_allclose(h.coef[-1], p.coef_)
    np.testing.assert_allclose(h.intercept, [0.0, 0.2, 0.0, 0.2], atol=1e-12)


def test_margin_option_reaches_the_requested_local_potentials():
    rng = np.random.default_rng(4)
    X, y, _ = datasets.teacher_student(50, 4, random_state=rng, gap=0.3)
    p = Perceptron(margin=0.5, eta=0.1).fit(X, y)
    assert p.converged_
    assert local_potentials(X, y, p.coef_, p.intercept_).min() > 0.5


@pytest.mark.parametrize("seed", range(8))
def test_convergence_bound_holds_on_random_separable_data(seed):
    rng = np.random.default_rng(seed)
    X, y, _ = datasets.teacher_student(40, 3, random_state=rng, teacher_bias=0.3, gap=0.1)
    p = Perceptron(bias_input="radius", shuffle=True, random_state=seed).fit(X, y)
    _, _, kappa = max_margin_hyperplane(X, y)
    assert p.converged_
    assert p.n_updates_ <= novikoff_bound(data_radius(X), kappa)
    assert p.score(X, y) == 1.0


def test_equals_scikit_learn_perceptron_weight_for_weight():
    for seed in range(5):
        rng = np.random.default_rng(seed)
        X, y, _ = datasets.teacher_student(80, 4, random_state=rng, teacher_bias=-0.4, gap=0.05)
        ours = Perceptron(eta=0.7).fit(X, y)
        sk = SkPerceptron(eta0=0.7, shuffle=False, tol=None, max_iter=ours.n_epochs_).fit(X, y)
        np.testing.assert_allclose(ours.coef_, sk.coef_[0], rtol=1e-12, atol=1e-12)
        assert ours.intercept_ == pytest.approx(sk.intercept_[0], abs=1e-12)


def test_any_two_labels_are_accepted():
    X, y = datasets.koski_example()
    labels = np.where(y == 1, "yes", "no")
    p = Perceptron().fit(X, labels)
    assert p.classes_.tolist() == ["no", "yes"]
    assert (p.predict(X) == labels).all()
    q = Perceptron().fit(X, y)
    np.testing.assert_allclose(p.coef_, q.coef_)


def test_predict_uses_sign_zero_plus_one():
    p = Perceptron().fit(np.array([[1.0], [-1.0]]), [1, -1])
    p.coef_, p.intercept_ = np.array([1.0]), 0.0
    assert p.predict(np.array([[0.0]])).tolist() == [1]


def test_non_separable_data_stop_at_epoch_limit_with_warning():
    X, y = datasets.xor()
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        p = Perceptron(max_epochs=30).fit(X, y)
    assert not p.converged_
    assert p.n_epochs_ == 30 and len(p.errors_per_epoch_) == 30
    assert min(p.errors_per_epoch_) >= 1


def test_separable_data_give_no_warning():
    X, y = datasets.koski_example()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        Perceptron().fit(X, y)


@pytest.mark.parametrize("X, y, message", [
    (np.zeros((3, 2)), [0, 1, 2], "two classes"),
    (np.zeros((3, 2)), [1, 1, 1], "1 class"),
    (np.array([[np.nan, 1.0], [0.0, 1.0]]), [0, 1], "NaN"),
    (np.array([[np.inf, 1.0], [0.0, 1.0]]), [0, 1], "infinite"),
    (np.zeros((2, 2)), [np.nan, 1.0], "y contains NaN"),
    (np.zeros((2, 2)), [np.inf, 1.0], "y contains infinity"),
    (np.zeros((3, 2)), [0, 1], "inconsistent numbers of samples"),
])
def test_bad_input_gives_a_clear_error(X, y, message):
    with pytest.raises(ValueError, match=message):
        Perceptron().fit(X, y)


@pytest.mark.parametrize("params, message", [
    ({"eta": 0}, "eta"), ({"max_epochs": 0}, "max_epochs"), ({"bias_input": 0.0}, "bias_input"),
    ({"bias_input": "diameter"}, "bias_input"), ({"margin": "big"}, "margin"),
])
def test_bad_parameters_give_a_clear_error(params, message):
    X, y = datasets.koski_example()
    with pytest.raises(ValueError, match=message):
        Perceptron(**params).fit(X, y)


def test_bad_initial_weights_give_a_clear_error():
    X, y = datasets.koski_example()
    with pytest.raises(ValueError, match="coef_init"):
        Perceptron().fit(X, y, coef_init=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="intercept_init"):
        Perceptron(fit_intercept=False).fit(X, y, intercept_init=1.0)


def test_predict_checks_feature_count():
    X, y = datasets.koski_example()
    p = Perceptron().fit(X, y)
    with pytest.raises(ValueError, match="features"):
        p.predict(np.zeros((2, 3)))


def test_the_epoch_limit_takes_no_update_from_the_next_epoch():
    # XOR-like data never converge; with max_epochs=k the run makes exactly the updates
    # of k epochs presented one example at a time, as scikit-learn's max_iter=k does
    X = np.array([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 1.0], [0.5, 0.4]])
    y = np.array([-1, -1, 1, 1, 1])
    for k in (1, 2, 3, 7):
        blocked = Perceptron(max_epochs=k)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            blocked.fit(X, y)
        trainer = RosenblattTrainer(augment(X), y, np.zeros(3), eta=1.0)
        for _ in range(k * len(y)):
            trainer.step()
        assert blocked.n_epochs_ == k
        assert blocked.n_updates_ == trainer.n_updates
        assert np.allclose(np.r_[blocked.intercept_, blocked.coef_], trainer.weights)
