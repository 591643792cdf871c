"""Tests of lecture_pkg.networks.alvinn: Gaussian steering targets, centre of gravity, road
images."""

import numpy as np
import pytest

from lecture_pkg.networks import (MLP, alvinn_targets, buffer_replacements, centre_of_gravity,
                                  road_images, shifted_copies)


def test_targets_are_the_slides_gaussian():
    T = alvinn_targets([7, 12.5])
    assert T.shape == (2, 30)
    assert T[0, 7] == 1.0 and T[0, 8] == pytest.approx(np.exp(-0.1), rel=1e-15)
    assert T[0, 4] == pytest.approx(np.exp(-0.9), rel=1e-15)
    np.testing.assert_allclose(T[1, :13][::-1], T[1, 13:26], rtol=1e-15)     # symmetric about 12.5
    assert alvinn_targets(3, n_out=5, scale=2.0)[0].tolist() == pytest.approx(
        np.exp(-np.array([9, 4, 1, 0, 1]) / 2.0).tolist())


def test_centre_of_gravity_recovers_the_direction_away_from_the_edges():
    c = np.linspace(10, 19, 91)
    assert np.abs(centre_of_gravity(alvinn_targets(c)) - c).max() < 1e-4
    edge = centre_of_gravity(alvinn_targets([0.0]))[0]
    assert edge > 1.0                                        # the missing half of the bump biases
                                                             # it inwards
    assert centre_of_gravity([[0, 0, 2, 0, 2]])[0] == 3.0


def test_road_images_and_their_directions():
    X, c = road_images(200, random_state=np.random.default_rng(0), noise=0.0)
    assert X.shape == (200, 960) and np.all((X >= 0) & (X <= 1))
    assert c.min() >= 4.5 - 1e-12 and c.max() <= 24.5 + 1e-12
    img = X[0].reshape(30, 32)
    # the brightest column of the lookahead row lies within a column of the road centre there
    assert abs(np.argmax(img[10]) - (c[0] + 1.0)) <= 1.0
    X2, c2 = road_images(200, random_state=np.random.default_rng(0), noise=0.0)
    np.testing.assert_array_equal(X, X2)


def test_shifted_copies_move_the_road_and_the_direction_together():
    rng = np.random.default_rng(1)
    X, c = road_images(1, random_state=rng, noise=0.0, max_offset=0.0, max_bend=0.0)
    copies, dirs = shifted_copies(X[0], c[0], np.arange(-7, 8))
    assert copies.shape == (15, 960) and dirs.tolist() == (c[0] + np.arange(-7, 8)).tolist()
    centre = (copies.reshape(15, 30, 32)[:, 29] @ np.arange(32)
              / copies.reshape(15, 30, 32)[:, 29].sum(axis=1))
    # the road moves a column per shift
    np.testing.assert_allclose(np.diff(centre), 1.0, atol=0.05)
    np.testing.assert_array_equal(shifted_copies(X[0], c[0], [0])[0][0], X[0])
    with pytest.raises(ValueError, match="'shifts' must be an integer or an array of integers"):
        shifted_copies(X[0], c[0], [0.5])


def test_buffer_replacements_take_the_lowest_errors_and_random_others():
    errors = np.arange(200, 0, -1.0)                 # the lowest errors sit at the end
    idx = buffer_replacements(errors, random_state=0)
    assert len(idx) == 15 == len(set(idx.tolist()))
    assert sorted(idx[:10].tolist()) == list(range(190, 200))
    assert not set(idx[10:].tolist()) & set(range(190, 200))
    with pytest.raises(ValueError, match="cannot replace"):
        buffer_replacements(np.zeros(10), random_state=0)
    with pytest.raises(ValueError, match="errors must not contain NaN"):
        buffer_replacements(np.array([np.nan] * 20), random_state=0)


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="centres"):
        alvinn_targets([np.nan])
    with pytest.raises(ValueError, match="scale"):
        alvinn_targets([1.0], scale=0.0)
    with pytest.raises(ValueError, match=r"'outputs' must be .* in \[0, inf\)"):
        centre_of_gravity([[1.0, -1.0]])
    with pytest.raises(ValueError, match="positive total mass"):
        centre_of_gravity([[0.0, 0.0]])
    with pytest.raises(ValueError, match="noise"):
        road_images(3, random_state=0, noise=-1.0)
    with pytest.raises(ValueError, match="'n' must be"):
        road_images(0, random_state=0)


def test_a_small_network_learns_to_steer():
    rng = np.random.default_rng(2)
    X, c = road_images(200, random_state=rng)
    Xt, ct = road_images(100, random_state=rng)
    net = MLP((960, 4, 30), random_state=3, init_scale=0.05)
    net.fit(X, alvinn_targets(c), eta=0.01, n_epochs=300, batch_size=20, random_state=4)
    assert np.abs(centre_of_gravity(net.predict_proba(Xt)) - ct).mean() < 1.0
