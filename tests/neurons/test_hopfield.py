"""Tests of lecture_pkg.neurons.hopfield: storage, dynamics, energy and retrieval
(Biehl sec. 1.3.1)."""

import numpy as np
import pytest

from lecture_pkg.neurons import hopfield as hp


@pytest.fixture
def rng():
    return np.random.default_rng(11)


def test_batch_and_incremental_hebb_weights_agree_and_are_valid(rng):
    xi = hp.random_patterns(7, 40, random_state=rng)
    W = hp.hebb_weights(xi)
    steps = hp.hebb_weights_incremental(xi, return_steps=True)
    assert steps.shape == (8, 40, 40)
    np.testing.assert_array_equal(steps[0], 0.0)                # tabula rasa
    np.testing.assert_allclose(steps[-1], W, atol=1e-14)
    np.testing.assert_allclose(hp.hebb_weights_incremental(xi), W, atol=1e-14)
    np.testing.assert_array_equal(W, W.T)
    np.testing.assert_array_equal(np.diag(W), 0.0)
    # the definition entry by entry
    i, j = 3, 17
    assert W[i, j] == pytest.approx(np.mean(xi[:, i] * xi[:, j]), abs=1e-15)
    hp.check_weights(W)


def test_masked_stack_of_weights_equals_separate_constructions(rng):
    xi = hp.random_patterns(6, 30, random_state=rng, batch=(3,))
    mask = np.array([[1, 1, 0, 0, 0, 0], [1, 1, 1, 1, 1, 1], [1, 0, 0, 0, 0, 0]], dtype=bool)
    W = hp.hebb_weights(xi, mask)
    for r in range(3):
        np.testing.assert_allclose(W[r], hp.hebb_weights(xi[r, mask[r]]), atol=1e-14)
    with pytest.raises(ValueError, match="at least one"):
        hp.hebb_weights(xi, np.zeros((3, 6), bool))
    with pytest.raises(ValueError, match="mask"):
        hp.hebb_weights(xi, np.ones((3, 5), bool))


def test_bad_patterns_and_weights_give_clear_errors(rng):
    with pytest.raises(ValueError, match=r"\+1 and -1.*2\*S - 1"):
        hp.hebb_weights(np.array([[0, 1, 1], [1, 0, 1]]))
    with pytest.raises(ValueError, match=r"\+1 and -1"):
        hp.hebb_weights(np.array([[0.5, 1, -1]]))
    with pytest.raises(ValueError, match="dtype"):
        hp.check_patterns(np.array([[True, False]]))
    with pytest.raises(ValueError, match="2-d"):
        hp.hebb_weights_incremental(np.ones(4))
    W = hp.hebb_weights(hp.random_patterns(3, 10, random_state=rng))
    A = W.copy()
    A[0, 1] += 0.5
    with pytest.raises(ValueError, match="symmetric"):
        hp.run(np.ones(10), A, random_state=rng)
    D = W + np.eye(10)
    with pytest.raises(ValueError, match="zero diagonal"):
        hp.energy(np.ones(10), D)
    with pytest.raises(ValueError, match="square"):
        hp.check_weights(np.ones((3, 4)))
    with pytest.raises(ValueError, match="NaN"):
        hp.check_weights(np.full((2, 2), np.nan))
    with pytest.raises(ValueError, match="neurons"):
        hp.energy(np.ones(9), W)
    with pytest.raises(ValueError, match="stack of 2"):
        hp.run(np.ones((3, 10)), np.stack([W, W]), random_state=rng)
    with pytest.raises(ValueError, match=r"\+1 and -1"):
        hp.run(np.zeros(10), W, random_state=rng)
    with pytest.raises(ValueError, match="dynamics"):
        hp.run(np.ones(10), W, dynamics="chaotic")
    a, _ = hp.sequential_sweep(-np.ones(10), W, random_state=3)     # the same seed, the same order
    b, _ = hp.sequential_sweep(-np.ones(10), W, random_state=3)
    np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="order"):
        hp.sequential_sweep(np.ones(10), W, order="backwards")
    with pytest.raises(ValueError, match="fraction"):
        hp.corrupt(np.ones(10), 1.5, random_state=rng)


def test_energy_is_minus_sum_over_pairs(rng):
    W = hp.hebb_weights(hp.random_patterns(4, 12, random_state=rng))
    S = hp.random_patterns(1, 12, random_state=rng)[0]
    direct = -sum(W[i, j] * S[i] * S[j] for i in range(12) for j in range(i + 1, 12))
    assert hp.energy(S, W) == pytest.approx(direct, abs=1e-12)
    batch = np.stack([S, -S, np.ones(12)])
    np.testing.assert_allclose(hp.energy(batch, W), [direct, direct, -W.sum() / 2], atol=1e-12)
    np.testing.assert_allclose(hp.local_fields(S, W), W @ S, atol=1e-12)


@pytest.mark.parametrize("order", ["random", "cyclic"])
def test_energy_never_increases_at_any_single_spin_update(rng, order):
    # also for a general symmetric zero-diagonal matrix, not only Hebbian weights
    A = rng.normal(size=(60, 60))
    W = (A + A.T) / 2
    np.fill_diagonal(W, 0)
    S = hp.random_patterns(4, 60, random_state=rng)
    for _ in range(5):
        S, flips, traj = hp.sequential_sweep(S, W, order=order, random_state=rng,
                                             return_trajectory=True)
        H = np.array([hp.energy(s, W) for s in traj])       # (N+1, R)
        assert traj.shape == (61, 4, 60)
        assert np.all(np.diff(H, axis=0) <= 1e-12)
        assert flips.shape == (4,)


def test_cyclic_sweep_visits_neurons_in_order():
    W = np.array([[0.0, 1.0], [1.0, 0.0]])
    S, flips, traj = hp.sequential_sweep(np.array([1.0, -1.0]), W, order="cyclic",
                                         return_trajectory=True)
    # neuron 1 first: field -1 -> flips to -1; then neuron 2 sees -1 and stays
    np.testing.assert_array_equal(traj, [[1, -1], [-1, -1], [-1, -1]])
    assert flips == 1


def test_sign_zero_is_plus_one_in_the_dynamics():
    W = np.zeros((3, 3))
    S, flips = hp.sequential_sweep(-np.ones(3), W, order="cyclic")
    np.testing.assert_array_equal(S, 1.0)
    np.testing.assert_array_equal(hp.update_parallel(-np.ones(3), W), 1.0)


def test_sequential_run_ends_in_a_fixed_point_and_stored_patterns_are_fixed_points(rng):
    xi = hp.random_patterns(5, 500, random_state=rng)
    W = hp.hebb_weights(xi)
    np.testing.assert_array_equal(hp.update_parallel(xi, W), xi)      # P/N = 0.01
    res = hp.run(hp.random_patterns(3, 500, random_state=rng), W, random_state=rng, max_sweeps=100)
    assert res.converged.all()
    np.testing.assert_array_equal(hp.update_parallel(res.state, W), res.state)
    assert np.all(np.diff(res.energies, axis=0) <= 1e-9)
    assert res.flips[-1].sum() == 0


def test_retrieval_from_a_corrupted_pattern(rng):
    xi = hp.random_patterns(10, 400, random_state=rng)
    S0 = hp.corrupt(xi[3], 0.2, random_state=rng)
    assert hp.overlap(S0, xi[3]) == pytest.approx(0.6)
    res = hp.run(S0, hp.hebb_weights(xi), random_state=rng, record_states=True)
    assert res.converged and hp.overlap(res.state, xi[3]) == 1.0
    assert res.states.shape == (res.n_sweeps + 1, 400)
    assert res.energies[-1] < res.energies[0]


def test_corrupt_flips_exactly_the_requested_number_per_row(rng):
    xi = hp.random_patterns(6, 50, random_state=rng)
    C = hp.corrupt(xi, 0.1, random_state=rng)
    np.testing.assert_array_equal((C != xi).sum(axis=1), 5)
    assert not np.array_equal(C[0] != xi[0], C[1] != xi[1])   # different neurons per row
    np.testing.assert_array_equal(hp.corrupt(xi, 0.0, random_state=rng), xi)


def test_overlap_shapes_and_values(rng):
    xi = hp.random_patterns(3, 20, random_state=rng)
    m = hp.overlap(xi, xi)
    np.testing.assert_allclose(np.diag(m), 1.0)
    assert hp.overlap(-xi[0], xi[0]) == -1.0
    assert m.shape == (3, 3)
    with pytest.raises(ValueError, match="neurons"):
        hp.overlap(xi[:, :10], xi)


def test_parallel_dynamics_can_end_in_a_two_cycle():
    # two ferromagnetically coupled neurons started anti-aligned swap forever in parallel
    W = np.array([[0.0, 1.0], [1.0, 0.0]])
    res = hp.run(np.array([1.0, -1.0]), W, dynamics="parallel", max_sweeps=10)
    assert res.cycle and not res.converged
    assert res.flips.shape[0] == 2            # the cycle is detected at the second step
    seq = hp.run(np.array([1.0, -1.0]), W, dynamics="cyclic")
    assert seq.converged and not seq.cycle


def test_batched_run_with_one_network_per_run_matches_separate_runs():
    rng = np.random.default_rng(5)
    xi = hp.random_patterns(8, 100, random_state=rng, batch=(3,))
    W = hp.hebb_weights(xi)
    S0 = hp.corrupt(xi[:, 0], 0.2, random_state=rng)
    batch = hp.run(S0, W, dynamics="cyclic")
    for r in range(3):
        single = hp.run(S0[r], W[r], dynamics="cyclic")
        np.testing.assert_array_equal(single.state, batch.state[r])
        assert single.n_sweeps == batch.n_sweeps[r]


def test_capacity_experiment_below_and_above_alpha_r():
    rng = np.random.default_rng(2024)
    res = hp.retrieval_experiment(500, [0.05, 0.3], 0.1, 3, random_state=rng)
    np.testing.assert_allclose(res.initial_overlap, 0.8)
    assert res.n_patterns.tolist() == [25, 150]
    np.testing.assert_allclose(res.actual_alphas, [0.05, 0.3])
    assert res.final_overlap[0].min() >= 0.95
    assert res.final_overlap[1].max() <= 0.6
    with pytest.raises(ValueError, match="alphas"):
        hp.retrieval_experiment(100, [-0.1], 0.1, 1, random_state=rng)


def test_demo_images_are_balanced_enough_to_be_retrieved():
    imgs = hp.demo_images(16)
    assert imgs.shape == (4, 256)
    m = hp.overlap(imgs, imgs)
    assert np.abs(m - np.eye(4)).max() < 0.3
    W = hp.hebb_weights(imgs)
    np.testing.assert_array_equal(hp.update_parallel(imgs, W), imgs)
    with pytest.raises(ValueError, match=r"'side' must be an integer in \[8, inf\)"):
        hp.demo_images(4)


def _exact_hebb(xi):
    """The integer Hebb matrix ``J = sum_mu xi^mu xi^mu^T`` with zero diagonal (``W = J / P``)."""
    J = np.einsum("...pi,...pj->...ij", xi.astype(np.int64), xi.astype(np.int64))
    idx = np.arange(xi.shape[-1])
    J[..., idx, idx] = 0
    return J


def _exact_sign(h):
    return np.where(h >= 0, 1.0, -1.0)                    # sign(0) = +1 on integers


@pytest.mark.parametrize("P", [3, 5, 6, 7, 10])
def test_ties_follow_the_exact_integer_rule_in_every_mode(P):
    # Small networks with P patterns: many local fields are exactly zero in exact arithmetic,
    # and 1/P is not a binary fraction for P = 3, 5, 6, 7, 10, so the float fields are +-1e-16.
    gen = np.random.default_rng(1982 + P)
    R, N = 300, 11
    xi = hp.random_patterns(P, N, random_state=gen, batch=(R,))
    S = hp.random_patterns(1, N, random_state=gen, batch=(R,))[:, 0]
    J, W = _exact_hebb(xi), hp.hebb_weights(xi)
    exact_fields = np.einsum("rij,rj->ri", J, S.astype(np.int64))
    assert np.mean(exact_fields == 0) > 0.05              # the test really is about ties
    # parallel step
    np.testing.assert_array_equal(hp.update_parallel(S, W), _exact_sign(exact_fields))
    # one cyclic sweep, against the same sweep in integers
    expected = S.copy()
    for i in range(N):
        h = np.einsum("rj,rj->r", J[:, i], expected.astype(np.int64))
        expected[:, i] = _exact_sign(h)
    np.testing.assert_array_equal(hp.sequential_sweep(S, W, order="cyclic")[0], expected)
    # a run reports convergence only on exact fixed points, and reaches them
    for dynamics in ("cyclic", "random", "parallel"):
        res = hp.run(S, W, dynamics=dynamics, random_state=gen, max_sweeps=200)
        fields = np.einsum("rij,rj->ri", J, res.state.astype(np.int64))
        fixed = np.all(_exact_sign(fields) == res.state, axis=1)
        np.testing.assert_array_equal(res.converged, fixed)
        if dynamics != "parallel":                          # sequential dynamics always settle
            assert res.converged.all()


def test_an_exact_zero_field_keeps_plus_one_although_rounding_makes_it_negative():
    # Hebb weights k/3 are not exact in binary: among all states of this small network
    # there are neurons whose field is exactly 0 but computes as a tiny negative number.
    gen = np.random.default_rng(3)
    xi = hp.random_patterns(3, 7, random_state=gen)
    W = hp.hebb_weights(xi)
    states = np.array(np.meshgrid(*[[-1.0, 1.0]] * 7)).reshape(7, -1).T      # all 128
    exact = states.astype(np.int64) @ _exact_hebb(xi).T
    rounded = states @ W.T
    ties = (exact == 0) & (rounded < 0)
    assert ties.any()
    np.testing.assert_array_equal(hp.update_parallel(states, W)[ties], 1.0)


def test_tie_bound_is_far_below_the_smallest_nonzero_hebbian_field():
    # The rule is exact when P (N - 1) < 1 / TIE_RTOL: the largest tie bound,
    # TIE_RTOL * (N - 1), then lies below 1/P, the smallest nonzero field.
    N, P = 1000, 150
    assert hp.TIE_RTOL * (N - 1) < 1 / P



def test_the_sweeps_sign_rule_is_the_snapped_sign_bit_for_bit():
    # _sign_on_grid(x, TIE_RTOL * scale) decides as _sign(x, scale), also exactly at the
    # edge of the grid cell around 0 and one ulp on either side of it
    gen = np.random.default_rng(0)
    scale = gen.uniform(0.5, 50.0, 2000)
    step = hp.TIE_RTOL * scale
    np.testing.assert_array_equal(hp._grid_steps(-np.diag(scale)), step)   # sum_j |w_ij|
    np.testing.assert_array_equal(hp._grid_steps(np.zeros((2, 2))), [hp.TIE_RTOL] * 2)
    edge = -0.5 * step
    x = np.concatenate([gen.normal(scale=1e-9, size=2000) * scale, edge,
                        np.nextafter(edge, -np.inf), np.nextafter(edge, np.inf),
                        np.zeros(2000), -np.zeros(2000)])
    expected = hp._sign(x, np.tile(scale, 6))
    assert (expected == 1).any() and (expected == -1).any()
    np.testing.assert_array_equal(hp._sign_on_grid(x, np.tile(step, 6)), expected)


def test_a_run_keeps_the_energy_of_settled_runs_and_updates_the_others():
    # one network per run: the runs settle after different numbers of sweeps, and the
    # energy recorded after every sweep is the energy of the state after that sweep
    gen = np.random.default_rng(11)
    xi = hp.random_patterns(30, 120, random_state=gen, batch=(6,))
    W = hp.hebb_weights(xi)
    res = hp.run(hp.corrupt(xi[:, 0], 0.3, random_state=gen), W, random_state=gen, max_sweeps=60,
                 record_states=True)
    assert res.converged.all() and len(set(res.n_sweeps.tolist())) > 1
    for t in range(len(res.energies)):
        np.testing.assert_allclose(res.energies[t], hp.energy(res.states[t], W), rtol=0, atol=1e-9)


def test_weights_symmetric_up_to_rounding_are_accepted_and_asymmetric_ones_refused(rng):
    W = hp.hebb_weights(hp.random_patterns(7, 30, random_state=rng))
    nudged = W.copy()
    nudged[2, 5] += 1e-14                                  # rounding-sized asymmetry
    hp.check_weights(nudged)
    nudged[2, 5] += 1e-6
    with pytest.raises(ValueError, match="symmetric"):
        hp.check_weights(nudged)
    with pytest.raises(ValueError, match="symmetric"):
        hp.check_weights(np.stack([W, nudged]))
    with pytest.raises(ValueError, match="NaN or infinite"):
        hp.check_weights(np.where(np.eye(30, dtype=bool), 0.0, np.inf))
