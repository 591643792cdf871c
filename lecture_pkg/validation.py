"""Input checks shared by the modules of lecture_pkg.

Plain functions (the estimators use scikit-learn's ``validate_data`` instead) that turn
bad input into a clear ``ValueError`` naming the problem.
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["as_plus_minus", "check_inputs", "check_positive", "check_positive_int", "resolve_rng"]


def as_plus_minus(y: np.ndarray) -> np.ndarray:
    """Check that ``y`` holds only the labels ``+1`` and ``-1`` and return it as floats.

    The plain functions of lecture_pkg work with ``+-1`` labels; the estimators accept
    any two labels and map them themselves.
    """
    y = np.asarray(y, dtype=float)
    if y.ndim != 1:
        raise ValueError(f"labels must be a 1-d array, got shape {y.shape}")
    bad = ~np.isin(y, (-1.0, 1.0))
    if bad.any():
        raise ValueError(
            f"labels must be +1 or -1; found {np.unique(y[bad])[:5]} "
            "(the estimators accept other label values)"
        )
    return y


def check_inputs(X: np.ndarray, name: str = "X") -> np.ndarray:
    """Return ``X`` as a finite 2-d float array (examples x features) or raise ``ValueError``."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"{name} must be a 2-d array (examples x features), got shape {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return X


def check_positive(value, name: str) -> None:
    """Raise ``ValueError`` unless ``value`` is a real number ``> 0`` (``inf`` is allowed)."""
    if not (isinstance(value, numbers.Real) and value > 0):
        raise ValueError(f"{name} must be a positive number, got {value!r}")


def check_positive_int(value, name: str) -> None:
    """Raise ``ValueError`` unless ``value`` is an integer ``>= 1``."""
    if not (isinstance(value, numbers.Integral) and value >= 1):
        raise ValueError(f"{name} must be a positive integer, got {value!r}")


def resolve_rng(random_state):
    """A numpy Generator from a seed, ``None`` or a Generator; a legacy RandomState passes through."""
    if isinstance(random_state, np.random.RandomState):
        return random_state
    return np.random.default_rng(random_state)
