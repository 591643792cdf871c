"""Deckert's one-dimensional demonstrations of gradient descent (Deckert, "First steps").

Plain gradient descent ``w <- w - eta L'(w)`` (Deckert's eq. 13) on losses of one weight:
the square loss of a single example, where the iteration converges exactly for
``0 < eta < 2 / xi^2``, and a non-convex double well with a global and a local minimum.
:func:`deckert_demo` gives the settings of Deckert's three learning-rate figures (too
large, too small, no convergence).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..validation import Interval, check_scalar

__all__ = [
    "gradient_descent_1d",
    "single_sample_loss",
    "single_sample_grad",
    "double_well_loss",
    "double_well_grad",
    "double_well_stationary_points",
    "GradientDescentDemo",
    "deckert_demo",
]


# ---------------------------------------------------------------- Deckert's 1-d demonstrations

def gradient_descent_1d(grad: Callable[[float], float], w0: float, eta: float, n_steps: int) -> np.ndarray:
    """Iterates ``w_{k+1} = w_k - eta L'(w_k)`` of plain gradient descent (Deckert eq. 13).

    Returns the ``n_steps + 1`` values ``w_0, ..., w_{n_steps}``.
    """
    check_scalar(n_steps, "n_steps", Interval(numbers.Integral, 0, None))
    ws = np.empty(n_steps + 1)
    ws[0] = w0
    for k in range(n_steps):
        ws[k + 1] = ws[k] - eta * grad(ws[k])
    return ws


def single_sample_loss(w, xi: float = 2.0, target: float = 1.0):
    """Deckert's loss (11) for one example: ``L(w) = 1/2 (target - xi w)^2``."""
    return 0.5 * (target - xi * np.asarray(w, dtype=float)) ** 2


def single_sample_grad(w, xi: float = 2.0, target: float = 1.0):
    """``L'(w) = -(target - xi w) xi``; gradient descent converges iff ``0 < eta < 2 / xi^2``."""
    return -(target - xi * np.asarray(w, dtype=float)) * xi


def double_well_loss(w):
    """Deckert's non-convex example ``L(w) = 0.001 w^4 - 5 (w - 5)^2``."""
    w = np.asarray(w, dtype=float)
    return 0.001 * w ** 4 - 5.0 * (w - 5.0) ** 2


def double_well_grad(w):
    """``L'(w) = 0.004 w^3 - 10 (w - 5)``."""
    w = np.asarray(w, dtype=float)
    return 0.004 * w ** 3 - 10.0 * (w - 5.0)


def double_well_stationary_points() -> dict[str, float]:
    """The roots of ``L'`` for :func:`double_well_loss`: global minimum, local maximum, local minimum."""
    roots = np.sort(np.roots([0.004, 0.0, -10.0, 50.0]).real)
    return {"global minimum": float(roots[0]), "local maximum": float(roots[1]),
            "local minimum": float(roots[2])}


@dataclass(frozen=True)
class GradientDescentDemo:
    """One of Deckert's learning-rate figures: the loss, the start, the rate and the plot range."""

    name: str
    loss: Callable
    grad: Callable
    w0: float
    eta: float
    n_steps: int
    wrange: tuple[float, float]

    def iterates(self, n_steps: int | None = None) -> np.ndarray:
        return gradient_descent_1d(self.grad, self.w0, self.eta, self.n_steps if n_steps is None else n_steps)


def deckert_demo(name: str) -> GradientDescentDemo:
    """Deckert's three learning-rate figures (MAML §3.3.4).

    ``"too_large"``: one example ``xi = 2`` with target 1, ``w0 = 5``, ``eta = 0.6``,
    4 steps (diverges, since ``eta > 2 / xi^2 = 0.5``); ``"too_small"``: the double well
    from ``w0 = 80`` with ``eta = 0.01``, 4 steps (heads for the local minimum);
    ``"no_convergence"``: the double well from ``w0 = 70`` with ``eta = 0.16``, 50 steps.
    """
    demos = {
        "too_large": GradientDescentDemo("too_large", single_sample_loss, single_sample_grad,
                                         5.0, 0.6, 4, (-20.0, 20.0)),
        "too_small": GradientDescentDemo("too_small", double_well_loss, double_well_grad,
                                         80.0, 0.01, 4, (-100.0, 100.0)),
        "no_convergence": GradientDescentDemo("no_convergence", double_well_loss, double_well_grad,
                                              70.0, 0.16, 50, (-80.0, 80.0)),
    }
    if name not in demos:
        raise ValueError(f"unknown demo {name!r}; choose from {sorted(demos)}")
    return demos[name]
