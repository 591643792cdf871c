"""Biehl's generic perceptron update with a modulation function, eqs. (3.11)–(3.14)
(Biehl §3.3).

* :func:`modulation_function` -- ``f(E)`` by name: Hebb's ``f = 1``, Rosenblatt's
  ``f = Theta[c - E]`` and the Adaline step ``f = eta (1 - E)``;
* :func:`generic_perceptron` -- the update ``w <- w + (1/N) f(E) xi^nu y^nu`` (3.12), or
  the same in embedding strengths ``a^nu <- a^nu + f(E)`` (3.14; Biehl writes them
  ``x^nu``), from ``w = 0``; it returns a :class:`GenericRun`.

Its special cases are Hebb's rule, Rosenblatt's rule with learning rate ``1/N``
(:class:`~lecture_pkg.linear.Perceptron`), the sequential Adaline and, with ``a >= 0``,
the AdaTron.  The weights it records after every non-zero step are what Biehl's
convergence proof follows (:func:`~lecture_pkg.linear.overlap_and_norm`,
:func:`~lecture_pkg.linear.biehl_bound`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..validation import (COUNT, FINITE, POSITIVE, as_plus_minus, check_inputs, resolve_rng,
                          validate_args)

__all__ = [
    "modulation_function",
    "GenericRun",
    "generic_perceptron",
]


@validate_args(margin=FINITE, eta=POSITIVE)
def modulation_function(name: str, *, margin: float = 0.0,
                        eta: float = 1.0) -> Callable[[float], float]:
    """A modulation function ``f(E)`` of Biehl's generic update (3.12) by name.

    * ``"hebb"``: ``f(E) = 1``, every example adds its Hebbian term (3.13 with all ``a = 1``);
    * ``"rosenblatt"``: ``f(E) = Theta[c - E]`` with ``c = margin``, i.e. ``1`` if
      ``E <= c`` and ``0`` otherwise (eq. 3.15, with the book's ``<=`` at ``E = c``);
    * ``"adaline"``: ``f(E) = eta (1 - E)``, the sequential Adaline step in embedding form
      (3.64); with the constraint ``a >= 0`` of :func:`generic_perceptron`
      (``nonnegative=True``) the same ``f`` gives the AdaTron (3.76).

    The returned function takes one local potential (a float) and returns a float.
    ``margin`` (any finite number) and ``eta`` (``> 0``) are checked whichever function is
    asked for.
    """
    if name == "hebb":
        return lambda E: 1.0
    if name == "rosenblatt":
        return lambda E: 1.0 if E <= margin else 0.0
    if name == "adaline":
        return lambda E: eta * (1.0 - E)
    raise ValueError(f"unknown modulation function {name!r}; "
                     "choose 'hebb', 'rosenblatt' or 'adaline'")


@dataclass
class GenericRun:
    """Result of :func:`generic_perceptron`.

    ``coef`` is ``w``; ``embeddings`` the ``a^mu`` with ``w = (1/N) sum a^mu y^mu xi^mu``
    (3.13) from a zero start; ``n_updates`` counts the non-zero steps; ``converged`` says
    whether the last epoch left every example unchanged.  With ``record_history=True``,
    ``history`` holds ``w`` at the start and after every non-zero step: row ``ℳ`` is the
    weight vector after ``ℳ`` non-zero steps (Biehl's ``M(t)``, 3.21).
    """

    coef: np.ndarray
    embeddings: np.ndarray
    n_steps: int
    n_updates: int
    n_epochs: int
    converged: bool
    history: np.ndarray | None = None


@validate_args(n_epochs=COUNT, random_state="random_state")
def generic_perceptron(X: np.ndarray, y: np.ndarray, modulation: Callable[[float], float], *,
                       n_epochs: int = 1, representation: str = "weights",
                       nonnegative: bool = False, shuffle: bool = False,
                       random_state: np.random.Generator | int | None = None,
                       stop_when_unchanged: bool = True,
                       record_history: bool = False) -> GenericRun:
    """Biehl's generic iterative perceptron update, eqs. (3.11)--(3.14), from ``w = 0``.

    At every step ``t`` the example ``nu(t)`` is presented (cyclically, 3.11, or in a
    fresh random order per epoch with ``shuffle``), its local potential
    ``E = y^nu w . xi^nu`` is computed and

        ``w <- w + (1/N) f(E) xi^nu y^nu``       (3.12, ``representation="weights"``),
        ``a^nu <- a^nu + f(E)``                   (3.14, ``representation="embeddings"``).

    The two representations are the same algorithm: both keep ``w`` and the ``a^mu``
    (3.13); they differ in how ``E`` is obtained -- from ``w`` directly, or as
    ``E = [C a]^nu`` with Biehl's correlation matrix ``C`` (3.58), kept up to date column
    by column.  ``nonnegative=True`` imposes ``a^mu >= 0`` after each step,
    ``a^nu <- max(0, a^nu + f(E))``: the constraint that turns the Adaline step into the
    AdaTron (Biehl notes that it has no form in weights alone; here the step on the
    weights is the one the clipped embedding takes).

    Special cases: ``f = 1`` for one epoch is Hebb's rule
    (:func:`lecture_pkg.linear.hebb_student`); ``f = Theta[c - E]`` is Rosenblatt's rule
    with learning rate ``1/N`` (:class:`Perceptron`, ``eta=1/N``, ``margin=c``,
    ``fit_intercept=False``); ``f = eta (1 - E)`` in embeddings is the sequential Adaline
    and, with ``nonnegative``, the AdaTron (``adaline_embeddings``/``adatron_embeddings``
    of :mod:`lecture_pkg.kernel_machines` with ``normalize=False``).

    Parameters
    ----------
    X : array (P, N)
        Inputs as the perceptron sees them (augment them for a bias).
    y : array (P,)
        Labels ``+-1``.
    modulation : callable
        ``f(E)``, a float for a float, e.g. from :func:`modulation_function`.
    n_epochs : int
        Number of passes through the data.
    representation : {"weights", "embeddings"}
        Step the weights ``w`` (3.12) or the embedding strengths ``a`` (3.14).
    nonnegative : bool
        Clip the embedding strengths at 0.
    shuffle, random_state
        Random presentation order per epoch.
    stop_when_unchanged : bool
        Stop after an epoch in which no step changed anything (Rosenblatt's stopping rule).
    record_history : bool
        Keep ``w`` after every non-zero step.

    Returns
    -------
    GenericRun
    """
    X = check_inputs(X)
    y = as_plus_minus(y)
    if len(y) != len(X):
        raise ValueError(f"X has {len(X)} rows but y has {len(y)} labels")
    if not callable(modulation):
        raise TypeError(f"modulation must be a function f(E), got {type(modulation).__name__}")
    if representation not in ("weights", "embeddings"):
        raise ValueError(f"representation must be 'weights' or 'embeddings', "
                         f"got {representation!r}")
    rng = resolve_rng(random_state) if shuffle else None
    P, N = X.shape
    Z = y[:, None] * X                       # rows xi^mu y^mu
    C = Z @ Z.T / N if representation == "embeddings" else None
    E_all = np.zeros(P) if C is not None else None
    w = np.zeros(N)
    a = np.zeros(P)
    history = [w.copy()] if record_history else None
    n_steps = n_updates = epoch = 0
    converged = False
    for epoch in range(1, n_epochs + 1):
        changed = False
        order = rng.permutation(P) if shuffle else range(P)
        for nu in order:
            E = float(E_all[nu]) if C is not None else float(Z[nu] @ w)
            new = a[nu] + modulation(E)
            if nonnegative and new < 0.0:
                new = 0.0
            delta = new - a[nu]
            n_steps += 1
            if delta != 0.0:
                a[nu] = new
                w += (delta / N) * Z[nu]
                if C is not None:
                    E_all += delta * C[:, nu]
                n_updates += 1
                changed = True
                if record_history:
                    history.append(w.copy())
        if not changed:
            converged = True
            if stop_when_unchanged:
                break
    return GenericRun(w, a, n_steps, n_updates, epoch, converged,
                      np.array(history) if record_history else None)
