"""Tests of lecture_pkg.datasets' generators (datasets/_synthetic.py)."""

import numpy as np
import pytest
import matplotlib.pyplot as plt

from lecture_pkg.datasets import is_mirror_symmetric, mirror_symmetry, two_spirals, three_clusters
from lecture_pkg import datasets
from lecture_pkg.learning import regression as reg


def test_two_spirals_benchmark_geometry():
    X, y = two_spirals()
    assert X.shape == (194, 2) and np.sum(y == 1) == 97 and np.sum(y == -1) == 97
    np.testing.assert_array_equal(X[y == -1], -X[y == 1])        # point symmetry
    r = np.hypot(*X[y == 1].T)
    assert r[0] == pytest.approx(6.5) and r[-1] == pytest.approx(0.5)
    assert np.all(np.diff(r) < 0)
    theta = np.unwrap(np.arctan2(X[y == 1, 0], X[y == 1, 1]))     # x = r sin, y = r cos
    assert theta[-1] - theta[0] == pytest.approx(6 * np.pi)       # three turns
    with pytest.raises(ValueError, match="points_per_class"):
        two_spirals(0)


def test_mirror_symmetry_labels_balance_and_determinism():
    X, y = mirror_symmetry(301, length=20, random_state=3)
    assert X.shape == (301, 20) and set(np.unique(X)) <= {0.0, 1.0}
    np.testing.assert_array_equal(is_mirror_symmetric(X), y == 1)
    assert np.sum(y == 1) == 150
    X2, y2 = mirror_symmetry(301, length=20, random_state=3)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    assert not np.array_equal(X, mirror_symmetry(301, length=20, random_state=4)[0])


def test_mirror_symmetry_bad_input():
    with pytest.raises(ValueError, match="even"):
        mirror_symmetry(10, length=7)
    with pytest.raises(ValueError, match="n_samples"):
        mirror_symmetry(1)
    with pytest.raises(ValueError, match="2-d"):
        is_mirror_symmetric(np.zeros(4))


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_moons_and_circles_are_scikit_learns_with_plus_minus_labels():
    from sklearn.datasets import make_circles, make_moons
    X, y = datasets.moons(50, noise=0.1, random_state=3)
    Xs, ys = make_moons(50, noise=0.1, random_state=3)
    np.testing.assert_array_equal(X, Xs)
    np.testing.assert_array_equal(y, np.where(ys == 1, 1, -1))
    X, y = datasets.circles(40, noise=0.05, factor=0.3, random_state=1)
    Xs, ys = make_circles(40, noise=0.05, factor=0.3, random_state=1)
    np.testing.assert_array_equal(X, Xs)
    assert set(y.tolist()) == {-1, 1} and np.all(np.linalg.norm(X[y == 1], axis=1) < 0.6)
    with pytest.raises(ValueError, match="factor"):
        datasets.circles(40, factor=1.0)
    with pytest.raises(ValueError, match="n_samples"):
        datasets.moons(0)


def test_three_clusters_generator():
    X, y = three_clusters(random_state=np.random.default_rng(0), n_per_class=25)
    assert X.shape == (75, 2) and np.bincount(y).tolist() == [25, 25, 25]
    Xn, yn = three_clusters(random_state=np.random.default_rng(0), n_per_class=200, label_noise=0.2)
    X0, y0 = three_clusters(random_state=np.random.default_rng(0), n_per_class=200)
    assert 0.1 < np.mean(yn != y0) < 0.3
    with pytest.raises(ValueError, match="label_noise"):
        three_clusters(random_state=np.random.default_rng(0), n_per_class=10, label_noise=1.0)


def test_synthetic_hubble_data():
    d, v = datasets.synthetic_hubble(500, random_state=np.random.default_rng(0), slope=500.0,
                                     sigma=100.0)
    assert d.shape == (500, 1) and v.shape == (500,)
    assert 0.05 <= d.min() and d.max() <= 2.0
    assert reg.least_squares(d, v)[0] == pytest.approx(500.0, abs=15)
    with pytest.raises(ValueError, match="n_galaxies"):
        datasets.synthetic_hubble(0, random_state=np.random.default_rng(0))


def test_add_spurious_feature():
    rng = np.random.default_rng(11)
    y = rng.choice([-1, 1], 400)
    X = rng.normal(size=(400, 3))
    Xs = datasets.add_spurious_feature(X, y, 0.9, random_state=rng)
    assert Xs.shape == (400, 4)
    np.testing.assert_array_equal(Xs[:, :3], X)
    acc = np.mean(np.sign(Xs[:, 3]) == y)
    assert 0.85 < acc < 0.95
    useless = datasets.add_spurious_feature(X, y, 0.5, random_state=rng)
    assert abs(np.mean(np.sign(useless[:, 3]) == y) - 0.5) < 0.1
    with pytest.raises(ValueError, match="'strength' must be a finite number in \\[0, 1\\]"):
        datasets.add_spurious_feature(X, y, 1.5, random_state=rng)
