"""Generators of the course's synthetic data (all deterministic given a seed or Generator).
"""

from __future__ import annotations

import numbers

import numpy as np

from ..validation import (COUNT, MATRIX, NON_NEGATIVE, POSITIVE, FINITE, Interval, resolve_rng,
                          validate_args)

_SEED = "random_state"          # an integer seed, a numpy Generator or None

__all__ = [
    "moons",
    "circles",
    "three_clusters",
    "synthetic_hubble",
    "add_spurious_feature",
    "two_spirals",
    "is_mirror_symmetric",
    "mirror_symmetry",
]


# ---------------------------------------------------------------- example data

@validate_args(n_per_class=COUNT, random_state=_SEED, spread=POSITIVE,
               label_noise=Interval(numbers.Real, 0, 1, closed="left"))
def three_clusters(n_per_class: int = 40, *, random_state: np.random.Generator | int | None = None,
                   spread: float = 0.9, label_noise: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A 2-d three-class toy set in the spirit of Biehl's Fig. 5.1.

    Class ``k`` (0, 1, 2) is a Gaussian cloud of width ``spread`` around a centre on a
    circle of radius 2; class 2 is stretched into an elongated cloud so that a single
    prototype represents it less well.  A fraction ``label_noise`` of the examples gets a
    different, random label (mislabelled points make the NN boundary ragged).

    Returns ``X`` (3 n_per_class, 2) and integer labels ``y``.
    """
    rng = resolve_rng(random_state)
    angles = np.deg2rad([90.0, 210.0, 330.0])
    centres = 2.0 * np.c_[np.cos(angles), np.sin(angles)]
    scales = np.array([[1.0, 1.0], [1.0, 1.0], [1.8, 0.6]]) * spread
    y = np.repeat(np.arange(3), n_per_class)
    X = centres[y] + scales[y] * rng.standard_normal((len(y), 2))
    flip = rng.random(len(y)) < label_noise
    y = y.copy()
    y[flip] = (y[flip] + rng.integers(1, 3, size=flip.sum())) % 3
    return X, y


# ---------------------------------------------------------------- example data

@validate_args(n_galaxies=COUNT, random_state=_SEED, slope=FINITE, sigma=POSITIVE,
               max_distance=Interval(numbers.Real, 0.05, None, closed="neither"))
def synthetic_hubble(n_galaxies: int, *, random_state: np.random.Generator | int | None = None,
                     slope: float = 500.0, sigma: float = 150.0,
                     max_distance: float = 2.0) -> tuple[np.ndarray, np.ndarray]:
    """Synthetic galaxies obeying Hubble's law ``v = H_0 d`` (Biehl eq. 2.1) plus noise.

    Distances (Mpc) uniform in ``(0.05, max_distance)``, velocities (km/s)
    ``slope * d + sigma * eta`` with standard normal ``eta``.  The defaults mimic the
    scale of Hubble's 1929 diagram (about 24 nebulae within 2 Mpc, a slope of about
    500 km/s/Mpc); they are *not* his measurements.

    Returns
    -------
    d : array (n_galaxies, 1)
        Distances as a one-feature input matrix.
    v : array (n_galaxies,)
    """
    rng = resolve_rng(random_state)
    d = rng.uniform(0.05, max_distance, size=n_galaxies)
    v = slope * d + sigma * rng.normal(size=n_galaxies)
    return d[:, None], v


# ==================================================================== interpretability

@validate_args(X=MATRIX, strength=Interval(numbers.Real, 0, 1), random_state=_SEED,
               noise=NON_NEGATIVE)
def add_spurious_feature(X: np.ndarray, y: np.ndarray, strength: float, *,
                         random_state: np.random.Generator | int | None = None,
                         pos_label: int | str = 1, noise: float = 0.1) -> np.ndarray:
    """Append a "tank legend" feature that encodes the label with probability ``strength``.

    The new column is ``+1`` for positive and ``-1`` for negative examples (plus Gaussian
    ``noise``), except for a random fraction ``1 - strength`` whose sign is flipped.  In
    data where it was recorded like this (say, the weather on the day the photographs of
    each class were taken) it predicts the label; ``strength = 0.5`` makes it useless.
    """
    rng = resolve_rng(random_state)
    y = np.asarray(y)
    if y.ndim != 1:
        raise ValueError(f"y must be a 1-d array, got shape {y.shape}")
    t = y == pos_label
    if t.size != len(X):
        raise ValueError(f"X has {len(X)} rows but y has {t.size} labels")
    sign = np.where(t, 1.0, -1.0)
    flip = rng.random(len(X)) >= strength
    feature = np.where(flip, -sign, sign) + noise * rng.standard_normal(len(X))
    return np.column_stack([X, feature])


@validate_args(points_per_class=Interval(numbers.Integral, 1, 104))
def two_spirals(points_per_class: int = 97) -> tuple[np.ndarray, np.ndarray]:
    """The two-spirals benchmark: ``2 * 97 = 194`` points, three turns per spiral.

    Point ``i = 0, ..., 96`` of the first spiral (label ``+1``) lies at angle
    ``theta_i = i pi / 16`` and radius ``r_i = 6.5 (104 - i) / 104``,
    ``x = (r_i sin theta_i, r_i cos theta_i)``; the second spiral (label ``-1``) is its
    point reflection ``-x``.  The radius shrinks from 6.5 to 0.5 while the angle
    grows to ``6 pi``.  Rows alternate between the spirals, as in the benchmark file.
    """
    i = np.arange(points_per_class)
    theta = i * np.pi / 16.0
    r = 6.5 * (104 - i) / 104.0
    first = np.column_stack([r * np.sin(theta), r * np.cos(theta)])
    X = np.empty((2 * points_per_class, 2))
    X[0::2], X[1::2] = first, -first
    y = np.tile([1.0, -1.0], points_per_class)
    return X, y


@validate_args(X=MATRIX)
def is_mirror_symmetric(X: np.ndarray) -> np.ndarray:
    """True for every row that reads the same backwards (``x_j = x_{L+1-j}``)."""
    return np.all(X == X[:, ::-1], axis=1)


@validate_args(n_samples=Interval(numbers.Integral, 2, None),
               length=Interval(numbers.Integral, 2, None), random_state=_SEED)
def mirror_symmetry(n_samples: int, length: int = 20, *,
                    random_state: np.random.Generator | int | None = None
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Bit strings that are mirror-symmetric (label ``+1``) or not (label ``-1``).

    This book's choice (the paper specifies no generator): patterns of ``length`` bits
    coded ``0/1``; half of them (rounded down) are symmetric, made from a uniformly
    random first half and its mirror image; the others are uniformly random strings,
    redrawn until they are *not* symmetric.  The rows are shuffled.  With
    ``length = 20`` typical squared distances are about 10, which suits the paper's
    widths ``sigma = 5, 6, 7`` of ``exp(-d^2 / sigma^2)``, and on 200 training and 100
    test patterns nearest neighbours err on roughly a quarter of the test set while a
    support vector machine errs on about 5 in 100, the pattern of Table 2.  (The
    classic 6-bit task of Rumelhart, Hinton and Williams has only 64 distinct patterns,
    too few for 300.)

    Parameters
    ----------
    n_samples : int, at least 2
    length : even int, at least 2
    random_state : seed, ``None`` or numpy Generator
    """
    if length % 2:
        raise ValueError(f"mirror_symmetry: the parameter 'length' must be even; got {length!r}")
    rng = resolve_rng(random_state)
    half = length // 2
    n_sym = n_samples // 2
    A = rng.integers(0, 2, size=(n_sym, half))
    S = np.hstack([A, A[:, ::-1]])
    N = rng.integers(0, 2, size=(n_samples - n_sym, length))
    while True:
        redo = is_mirror_symmetric(N)
        if not redo.any():
            break
        N[redo] = rng.integers(0, 2, size=(int(redo.sum()), length))
    X = np.vstack([S, N]).astype(float)
    y = np.r_[np.ones(n_sym), -np.ones(n_samples - n_sym)]
    order = rng.permutation(n_samples)
    return X[order], y[order]


@validate_args(n_samples=COUNT, noise=NON_NEGATIVE, random_state=_SEED)
def moons(n_samples: int = 120, *, noise: float = 0.2,
          random_state: np.random.Generator | int | None = 0) -> tuple[np.ndarray, np.ndarray]:
    """Two interleaving half circles (scikit-learn's ``make_moons``) with labels ``+1``/``-1``.

    The explorers of the SVM and of the LP machine draw on them; ``noise`` is the standard
    deviation of the Gaussian noise added to the points.
    """
    from sklearn.datasets import make_moons

    X, y = make_moons(n_samples, noise=noise, random_state=random_state)
    return X, np.where(y == 1, 1, -1)


@validate_args(n_samples=COUNT, noise=NON_NEGATIVE,
               factor=Interval(numbers.Real, 0, 1, closed="neither"), random_state=_SEED)
def circles(n_samples: int = 120, *, noise: float = 0.1, factor: float = 0.5,
            random_state: np.random.Generator | int | None = 0) -> tuple[np.ndarray, np.ndarray]:
    """A small circle inside a large one (scikit-learn's ``make_circles``), labels ``+1`` inside.

    ``factor`` is the ratio of the radii; ``noise`` the standard deviation of the Gaussian
    noise added to the points.
    """
    from sklearn.datasets import make_circles

    X, y = make_circles(n_samples, noise=noise, factor=factor, random_state=random_state)
    return X, np.where(y == 1, 1, -1)
