"""Choices that do not depend on the last bit of a floating-point number.

Where an algorithm picks the smallest or largest of several values (MinOver's least
stable example, the winning prototype, the nearest neighbours), values that are equal in
exact arithmetic come out of a computation a few units of rounding apart, and which one
is smaller depends on the CPU's summation order.  Rounding every value to a grid of
``TIE_RTOL`` times the scale of the values first turns such near-ties back into exact
ties, which numpy's ``argmin``/``argmax`` and a stable sort then decide by the lowest
index, on every machine (CONTRIBUTING.md, Portable outputs).
"""

from __future__ import annotations

import numpy as np

TIE_RTOL = 1e-10
"""Values closer than this, relative to their scale (by default the largest of them),
count as equal."""


def snap(values, scale=None, axis: int | None = None) -> np.ndarray:
    """``values`` rounded to the grid ``TIE_RTOL * scale`` (in grid units; infinities stay).

    ``scale`` defaults to the largest finite absolute value, of the whole array or, with
    ``axis``, of each slice along it (the values one choice is made among).  The result
    orders like ``values`` except that values within rounding error of each other become
    equal.
    """
    v = np.asarray(values, dtype=float)
    if scale is None:
        finite = np.where(np.isfinite(v), np.abs(v), 0.0)
        scale = finite.max(axis=axis, keepdims=axis is not None) if v.size else 1.0
    scale = np.where(np.asarray(scale) > 0, scale, 1.0)
    return np.round(v / (TIE_RTOL * scale))


def _first(choose, values, axis, scale):
    if axis is None and scale is None:
        # Fast path, same answer: when no other value lies within two grid units of the
        # extreme one, rounding cannot create a tie (round(v + 2) >= round(v) + 1), so the
        # plain argmin/argmax is the first index of the snapped extreme.
        v = np.asarray(values, dtype=float)
        if v.ndim == 1 and v.size:
            index = int(choose(v))
            top = float(np.abs(v).max())
            if np.isfinite(top):            # no infinity, no NaN: snap's scale is `top`
                margin = 2.0 * TIE_RTOL * (top if top > 0 else 1.0)
                near = (v <= v[index] + margin) if choose is np.argmin else (v >= v[index] - margin)
                if np.count_nonzero(near) == 1:
                    return index
    index = choose(snap(values, scale, axis), axis=axis)
    return int(index) if np.ndim(index) == 0 else index


def first_argmin(values, axis: int | None = None, scale: float | None = None):
    """Index of the smallest value; among values equal up to rounding, the first."""
    return _first(np.argmin, values, axis, scale)


def first_argmax(values, axis: int | None = None, scale: float | None = None):
    """Index of the largest value; among values equal up to rounding, the first."""
    return _first(np.argmax, values, axis, scale)


def stable_argsort(values, axis: int = -1, scale: float | None = None) -> np.ndarray:
    """``argsort`` in which values equal up to rounding keep their index order."""
    return np.argsort(snap(values, scale, axis), axis=axis, kind="stable")
