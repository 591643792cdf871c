"""A small ALVINN: synthetic road images, Gaussian steering targets, centre-of-gravity readout.

Pomerleau's ALVINN (slides 003) maps a 30 x 32 grey image of the road to 30 output units
that stand for steering directions, left to right.  Its target for an example whose true
direction is output unit ``c`` is a Gaussian bump over the outputs,

    ``d_i = exp(-D_i^2 / 10)``,  ``D_i = i - c``  (:func:`alvinn_targets`),

and the network's steering direction is the *centre of gravity* of its outputs, the
outputs taken as masses at equally spaced points (:func:`centre_of_gravity`).  Training
used 15 laterally shifted copies of every camera image (:func:`shifted_copies`) and a
buffer of 200 images in which the 15 new copies replace the 10 buffered images with the
smallest training error and 5 random ones (:func:`buffer_replacements`).

The images here are synthetic (:func:`road_images`): a bright road on a dark ground,
narrowing towards the horizon, whose centre line starts at an offset from the car and
bends sideways; the correct direction points at the road centre a fixed distance ahead.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..neurons.units import sigmoid
import numbers

from ..validation import (ARRAY, COUNT, FINITE, NON_NEGATIVE, POSITIVE, VECTOR, Array, Interval,
                          resolve_rng, validate_args)

__all__ = [
    "alvinn_targets",
    "centre_of_gravity",
    "road_images",
    "shifted_copies",
    "buffer_replacements",
]

#: Image rows and columns, output units, and the row the steering looks at.
ROWS, COLS, N_OUT, LOOKAHEAD = 30, 32, 30, 10


@validate_args(centres=ARRAY, n_out=COUNT, scale=POSITIVE)
def alvinn_targets(centres: np.ndarray | float, n_out: int = N_OUT,
                   scale: float = 10.0) -> np.ndarray:
    """Gaussian target coding ``d_i = exp(-(i - c)^2 / scale)``, ``i = 0, ..., n_out - 1``.

    ``centres`` (one number or a vector, in units of the output index, fractional values
    allowed) give one row of targets each; the result is ``(len(centres), n_out)``.
    """
    c = np.atleast_1d(np.asarray(centres, dtype=float))
    if c.ndim != 1:
        raise ValueError("centres must be finite numbers (one per example)")
    D = np.arange(n_out) - c[:, None]
    return np.exp(-D * D / scale)


@validate_args(outputs=Array(within=NON_NEGATIVE))
def centre_of_gravity(outputs: np.ndarray) -> np.ndarray:
    """The steering direction ``sum_i i y_i / sum_i y_i`` of every row of outputs ``y >= 0``."""
    Y = np.atleast_2d(np.asarray(outputs, dtype=float))
    mass = Y.sum(axis=1)
    if np.any(mass <= 0):
        raise ValueError("every row of outputs needs a positive total mass")
    return Y @ np.arange(Y.shape[1]) / mass


def _road(offset: np.ndarray, bend: np.ndarray, noise: float, rng) -> np.ndarray:
    depth = (ROWS - 1 - np.arange(ROWS)) / (ROWS - 1)              # 0 at the bottom row, 1 at
                                                                   # the top
    centre = (COLS - 1) / 2 + offset[:, None] + bend[:, None] * depth ** 2      # (n, ROWS)
    half_width = 2.0 + 4.0 * (1.0 - depth)                          # perspective: wide near the car
    dist = np.abs(np.arange(COLS)[None, None, :] - centre[:, :, None])
    img = sigmoid(2.0 * (half_width[None, :, None] - dist))
    if noise > 0:
        img = img + noise * rng.normal(size=img.shape)
    return img


def _direction(offset: np.ndarray, bend: np.ndarray) -> np.ndarray:
    depth = (ROWS - 1 - LOOKAHEAD) / (ROWS - 1)
    return (N_OUT - 1) / 2 + offset + bend * depth ** 2


@validate_args(n=COUNT, random_state="random_state", noise=NON_NEGATIVE,
               max_offset=NON_NEGATIVE, max_bend=NON_NEGATIVE)
def road_images(n: int, *, random_state: np.random.Generator | int | None = None,
                noise: float = 0.1, max_offset: float = 5.0,
                max_bend: float = 8.0) -> tuple[np.ndarray, np.ndarray]:
    """``n`` synthetic road images ``(n, 960)`` and their steering directions ``(n,)``.

    Image row 0 is the horizon, row 29 the road just in front of the car.  The road's
    centre line is at column ``15.5 + offset + bend * depth^2`` (depth 0 at the bottom
    row, 1 at the top), with ``offset`` and ``bend`` uniform in ``[-max_offset, max_offset]``
    and ``[-max_bend, max_bend]``; its half-width shrinks from 6 to 2 columns towards
    the horizon; pixels are a smooth step (the package's sigmoid) plus Gaussian noise of
    standard deviation ``noise``.  The correct direction, in output units (0 = hard left,
    29 = hard right, 14.5 straight on), points at the road centre on row 10:
    ``14.5 + offset + bend * (19/29)^2``, within ``[4, 25]`` for the default ranges.
    """
    rng = resolve_rng(random_state)
    offset = rng.uniform(-max_offset, max_offset, size=n)
    bend = rng.uniform(-max_bend, max_bend, size=n)
    return _road(offset, bend, noise, rng).reshape(n, ROWS * COLS), _direction(offset, bend)


@validate_args(image=ARRAY, direction=FINITE,
               shifts=Array(within=Interval(numbers.Integral, None, None)))
def shifted_copies(image: np.ndarray, direction: float,
                   shifts: Sequence[float] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Laterally shifted copies of one image and their corrected directions.

    Shifting the picture by ``s`` columns (positive: to the right) is what the camera
    would see with the car ``s`` columns further left; the road centre ahead moves by
    ``s`` columns too, so the correct direction becomes ``direction + s``.  Columns
    uncovered by the shift repeat the edge column (ALVINN extrapolated the missing
    part of the scene in a similar, simple way).  ``shifts`` are whole numbers of columns
    (in any dtype: ``2.0`` is 2).  Returns ``(len(shifts), 960)`` images and
    ``(len(shifts),)`` directions.
    """
    img = np.asarray(image, dtype=float)
    if img.size != ROWS * COLS:
        raise ValueError(f"image must have {ROWS} x {COLS} = {ROWS * COLS} pixels, got {img.size}")
    img = img.reshape(ROWS, COLS)
    shifts = np.atleast_1d(shifts).astype(int)
    cols = np.clip(np.arange(COLS)[None, :] - shifts[:, None], 0, COLS - 1)   # (k, COLS)
    copies = img[:, cols].transpose(1, 0, 2)                                    # (k, ROWS, COLS)
    return copies.reshape(len(shifts), ROWS * COLS), float(direction) + shifts.astype(float)


@validate_args(errors=VECTOR, n_lowest=COUNT, n_random=COUNT, random_state="random_state")
def buffer_replacements(errors: np.ndarray, n_lowest: int = 10, n_random: int = 5, *,
                        random_state: np.random.Generator | int | None = None) -> np.ndarray:
    """Which buffered images the new copies replace: the ``n_lowest`` with the smallest
    training error, and ``n_random`` others drawn at random (ALVINN: 10 + 5 of 200).

    ``errors`` holds the current training error of every buffered image; the result is
    ``n_lowest + n_random`` distinct indices into the buffer.
    """
    if n_lowest + n_random > len(errors):
        raise ValueError(f"cannot replace {n_lowest + n_random} of {len(errors)} buffered images")
    rng = resolve_rng(random_state)
    lowest = np.argsort(errors, kind="stable")[:n_lowest]
    rest = np.setdiff1d(np.arange(len(errors)), lowest)
    return np.concatenate([lowest, rng.choice(rest, size=n_random, replace=False)])
