"""The Hopfield model: an associative memory of McCulloch--Pitts neurons.

Biehl's lecture notes, section 1.3.1:

* states ``S_i = +-1`` of ``N`` neurons, fully connected by symmetric weights with no
  self-coupling, ``w_ij = w_ji``, ``w_ii = 0`` (eq. 1.8);
* Hebbian storage of ``P`` patterns ``xi^mu in {-1, +1}^N``,
  ``w_ij = (1/P) sum_mu xi_i^mu xi_j^mu`` for ``i != j`` (eq. 1.11), built up one
  pattern at a time in eq. (1.12) (:func:`hebb_weights`, :func:`hebb_weights_incremental`);
* the dynamics ``S_i <- sign(sum_{j != i} w_ij S_j)`` with ``sign(0) = +1`` (eq. 1.9),
  all neurons at once (*parallel*, eq. 1.7) or one after the other in a fixed
  (*cyclic*) or random order (*sequential*).  Ties are decided exactly, not by rounding
  (see ``_sign``);
* the energy ``H(S) = -sum_{i<j} w_ij S_i S_j`` (eq. 1.10), which a sequential update
  can never increase;
* the overlap ``R = (1/N) xi . S`` with a stored pattern, which is 1 on the pattern.

Everything works on batches: a state may be a vector ``(N,)`` or a stack ``(n_runs, N)`` of
independent runs, and the weights a matrix ``(N, N)`` shared by the runs or a stack
``(n_runs, N, N)``, one network per run.  Sequential dynamics loops over the ``N`` update
steps of a sweep, never over runs or patterns, so a whole capacity experiment (many
loads, many seeds) is one array computation (:func:`retrieval_experiment`).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .._ties import TIE_RTOL, snap
from ..validation import (COUNT, NON_NEGATIVE, Array, Converted, Interval, Options, resolve_rng,
                          validate_args)

__all__ = [
    "TIE_RTOL",
    "ALPHA_R",
    "check_patterns",
    "check_weights",
    "random_patterns",
    "hebb_weights",
    "hebb_weights_incremental",
    "local_fields",
    "energy",
    "overlap",
    "corrupt",
    "update_parallel",
    "sequential_sweep",
    "HopfieldRun",
    "run",
    "RetrievalResult",
    "retrieval_experiment",
    "demo_images",
]

ALPHA_R = 0.138
"""Storage capacity of the Hopfield model for random patterns as N -> infinity
(Amit, Gutfreund and Sompolinsky; Biehl quotes alpha_r ~ 0.14)."""


# ---------------------------------------------------------------- validation

@validate_args(ndim=[Interval(numbers.Integral, 1, None), None])
def check_patterns(patterns: np.ndarray, name: str = "patterns", *,
                   ndim: int | None = None) -> np.ndarray:
    """Return ``patterns`` as a float array after checking every entry is ``+1`` or ``-1``.

    Raises
    ------
    ValueError
        If an entry is not ``+-1`` (0/1 patterns included: convert them with ``2 S - 1``),
        or the array has the wrong number of dimensions.
    """
    arr = np.asarray(patterns)
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number):
        raise ValueError(f"{name} must be numbers +1/-1, got dtype {arr.dtype}")
    arr = arr.astype(float)
    if arr.ndim == 0 or arr.size == 0:
        raise ValueError(f"{name} must be a non-empty array of +1/-1 values")
    if ndim is not None and arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-d, got shape {arr.shape}")
    bad = ~np.isin(arr, (-1.0, 1.0))
    if bad.any():
        found = np.unique(arr[bad])[:5]
        raise ValueError(
            f"{name} must contain only +1 and -1 (Biehl's symmetrised states); found {found}"
            + (" -- 0/1 states can be converted with 2*S - 1" if np.isin(found,
                                                                         (0.0,)).any() else "")
        )
    return arr


@validate_args(atol=NON_NEGATIVE)
def check_weights(W: np.ndarray, *, atol: float = 1e-12) -> np.ndarray:
    """Return ``W`` as floats after checking it is a valid Hopfield weight matrix (eq. 1.8).

    ``W`` is ``(N, N)`` or a stack ``(n_runs, N, N)``; each matrix must be finite, symmetric
    and have a zero diagonal.  These conditions make the energy (1.10) a Lyapunov
    function of the sequential dynamics.
    """
    W = np.asarray(W, dtype=float)
    if W.ndim not in (2, 3) or W.shape[-1] != W.shape[-2]:
        raise ValueError(f"weights must be a square matrix (N, N) or a stack (n_runs, N, N), "
                         f"got shape {W.shape}")
    top = float(np.abs(W).max())                # NaN or infinite if any entry is
    if not np.isfinite(top):
        raise ValueError("weights contain NaN or infinite values")
    scale = max(1.0, top)
    # Symmetric up to atol * scale; an exactly symmetric matrix (Hebb's) needs one comparison.
    transposed = np.swapaxes(W, -1, -2)
    if not np.array_equal(W, transposed):
        gap = np.subtract(W, transposed)
        if float(np.abs(gap, out=gap).max()) > atol * scale:
            raise ValueError("weights must be symmetric, w_ij = w_ji (Biehl eq. 1.8)")
    if np.any(np.abs(np.diagonal(W, axis1=-2, axis2=-1)) > atol * scale):
        raise ValueError("weights must have a zero diagonal, w_ii = 0 (Biehl eq. 1.8)")
    return W


class _PlusMinusOne(Converted):
    """Constraint for patterns and states: an array of +1 and -1, by :func:`check_patterns`
    (which hands it on as floats)."""

    def __init__(self, ndim: int | None = None):
        self.ndim = ndim

    def check(self, value, name: str, owner: str = "") -> np.ndarray:
        return check_patterns.__wrapped__(value, name, ndim=self.ndim)

    def __str__(self) -> str:
        return "an array of +1 and -1" + (f" ({self.ndim}-d)" if self.ndim else "")


class _Weights(_PlusMinusOne):
    """Constraint for weights: a finite, symmetric matrix (or stack) with a zero diagonal, by
    :func:`check_weights`."""

    def check(self, value, name: str, owner: str = "") -> np.ndarray:
        return check_weights.__wrapped__(value)

    def __str__(self) -> str:
        return "a symmetric weight matrix with a zero diagonal"


_PATTERNS, _STATE, _W = _PlusMinusOne(), _PlusMinusOne(), _Weights()
_RUNS = dict(dynamics=Options("random", "cyclic", "parallel"), max_sweeps=COUNT,
             random_state="random_state")


def _states_and_weights(S, W) -> tuple[np.ndarray, np.ndarray, bool]:
    """A state (N,) / batch (n_runs, N) against weights (N, N) / (n_runs, N, N), both checked
    by the public functions' ``validate_args``."""
    single = S.ndim == 1
    if S.ndim not in (1, 2):
        raise ValueError("a state must be a vector (N,) or a batch (n_runs, N), "
                         f"got shape {S.shape}")
    if S.shape[-1] != W.shape[-1]:
        raise ValueError(f"the state has {S.shape[-1]} neurons "
                         f"but the weights are for {W.shape[-1]}")
    if W.ndim == 3:
        if single or S.shape[0] != W.shape[0]:
            raise ValueError(
                f"a stack of {W.shape[0]} weight matrices needs a batch of {W.shape[0]} states, "
                f"got state shape {S.shape}"
            )
    return S, W, single


# ---------------------------------------------------------------- storage

@validate_args(n_patterns=COUNT, n_neurons=COUNT, random_state="random_state")
def random_patterns(n_patterns: int, n_neurons: int, *,
                    random_state: np.random.Generator | int | None = None,
                    batch: tuple[int, ...] = ()) -> np.ndarray:
    """Unbiased random patterns: entries ``+-1`` with probability 1/2, shape ``batch + (P, N)``."""
    rng = resolve_rng(random_state)
    return rng.choice(np.array([-1.0, 1.0]), size=(*batch, n_patterns, n_neurons))


@validate_args(patterns=_PATTERNS)
def hebb_weights(patterns: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Hebbian weights ``w_ij = (1/P) sum_mu xi_i^mu xi_j^mu``, ``w_ii = 0``, Biehl eq. (1.11).

    Parameters
    ----------
    patterns : array (P, N) or (n_runs, P, N)
        One pattern set or a stack of pattern sets, entries ``+-1``.
    mask : optional bool array (P,) or (n_runs, P)
        Store only the patterns marked ``True`` (``P`` is then their number, per set).
        This lets sets of different sizes share one array, so weights for many loads
        are built in one batched product.

    Returns
    -------
    W : array (N, N) or (n_runs, N, N)
        Symmetric, with a zero diagonal.
    """
    xi = patterns
    if xi.ndim not in (2, 3):
        raise ValueError(f"patterns must be (P, N) or (n_runs, P, N), got shape {xi.shape}")
    if mask is None:
        mask = np.ones(xi.shape[:-1], dtype=bool)
    mask = np.asarray(mask, dtype=bool)
    if mask.shape != xi.shape[:-1]:
        raise ValueError(f"mask has shape {mask.shape}, expected {xi.shape[:-1]}")
    counts = mask.sum(axis=-1)
    if np.any(counts == 0):
        raise ValueError("every pattern set must store at least one pattern")
    weighted = xi * (mask / counts[..., None])[..., None]
    W = np.swapaxes(weighted, -1, -2) @ xi
    idx = np.arange(xi.shape[-1])
    W[..., idx, idx] = 0.0
    return W


@validate_args(patterns=_PlusMinusOne(ndim=2))
def hebb_weights_incremental(patterns: np.ndarray, *, return_steps: bool = False) -> np.ndarray:
    """Hebbian storage one pattern at a time, Biehl eq. (1.12).

    Starting from the *tabula rasa* ``w_ij(0) = 0``, pattern ``mu`` adds
    ``(1/P) xi_i^mu xi_j^mu`` to every synapse ``i != j``: a change that depends only on
    the activities at its two ends (Hebb's rule, eq. 1.6).  The result equals
    :func:`hebb_weights`.

    Returns the final ``(N, N)`` matrix, or with ``return_steps=True`` the stack
    ``(P + 1, N, N)`` of ``w(0), w(1), ..., w(P)``.
    """
    xi = patterns
    P, N = xi.shape
    W = np.zeros((N, N))
    steps = [W.copy()] if return_steps else None
    off_diagonal = ~np.eye(N, dtype=bool)
    for mu in range(P):
        W += np.outer(xi[mu], xi[mu]) * off_diagonal / P
        if return_steps:
            steps.append(W.copy())
    return np.array(steps) if return_steps else W


# ---------------------------------------------------------------- state functions

@validate_args(S=_STATE, W=_W)
def local_fields(S: np.ndarray, W: np.ndarray) -> np.ndarray:
    """Local potentials ``x_i = sum_{j != i} w_ij S_j`` for a state or a batch (eq. 1.9)."""
    S, W, _ = _states_and_weights(S, W)
    return _fields(S, W)


def _fields(S: np.ndarray, W: np.ndarray) -> np.ndarray:
    if W.ndim == 3:
        return np.einsum("rij,rj->ri", W, S)
    return S @ W.T


def _energy(S: np.ndarray, W: np.ndarray) -> np.ndarray:
    """Energies of a validated batch (n_runs, N)."""
    return -0.5 * np.einsum("ri,ri->r", S, _fields(S, W))


@validate_args(S=_STATE, W=_W)
def energy(S: np.ndarray, W: np.ndarray) -> np.ndarray | float:
    """Energy ``H(S) = -sum_{i<j} w_ij S_i S_j = -1/2 S.W.S`` (Biehl eq. 1.10).

    For a batch of states ``(n_runs, N)`` returns ``n_runs`` energies.
    """
    S, W, single = _states_and_weights(S, W)
    H = _energy(np.atleast_2d(S), W)
    return float(H[0]) if single else H


@validate_args(S=_STATE, patterns=_PATTERNS)
def overlap(S: np.ndarray, patterns: np.ndarray) -> np.ndarray | float:
    """Overlap ``R = (1/N) sum_i xi_i S_i`` of states with patterns.

    ``S`` (N,) or (..., N); ``patterns`` (N,) gives one overlap per state, (P, N) one per
    state and pattern.  ``R = 1`` means the state is the pattern, ``R = -1`` its negative.
    """
    xi = patterns
    if S.shape[-1] != xi.shape[-1]:
        raise ValueError(f"states have {S.shape[-1]} neurons but patterns have {xi.shape[-1]}")
    if xi.ndim == 1:
        m = S @ xi / xi.shape[-1]
    elif xi.ndim == 2:
        m = S @ xi.T / xi.shape[-1]
    else:
        raise ValueError(f"patterns must be (N,) or (P, N), got shape {xi.shape}")
    return float(m) if np.ndim(m) == 0 else m


@validate_args(patterns=_PATTERNS, fraction=Interval(numbers.Real, 0, 1),
               random_state="random_state")
def corrupt(patterns: np.ndarray, fraction: float, *,
            random_state: np.random.Generator | int | None = None) -> np.ndarray:
    """Flip exactly ``round(fraction * N)`` randomly chosen entries of each pattern.

    ``patterns`` may have any leading shape ``(..., N)``; each row gets its own random
    set of flipped neurons, so the overlap with the original is exactly
    ``1 - 2 round(fraction N) / N``.
    """
    rng = resolve_rng(random_state)
    xi = patterns
    N = xi.shape[-1]
    k = int(round(fraction * N))
    order = np.argsort(rng.random(xi.shape), axis=-1)[..., :k]
    out = xi.copy()
    flips = np.ones(xi.shape)
    np.put_along_axis(flips, order, -1.0, axis=-1)
    return out * flips


# ---------------------------------------------------------------- dynamics

def _field_scales(W: np.ndarray) -> np.ndarray:
    """Per neuron, ``sum_j |w_ij|``, the scale of its local field: (N,) or (n_runs, N)."""
    return np.abs(W).sum(axis=-1)


def _sign(x: np.ndarray, scale) -> np.ndarray:
    """``sign(x)`` with ``sign(0) = +1``, deciding fields that are zero up to rounding as zero.

    Hebbian weights are ``k / P`` with integer ``k``, which floating point cannot represent,
    so a field that is exactly 0 comes out as a few times ``1e-16`` of either sign, and
    which sign depends on the CPU's summation order.  The field is therefore snapped to a
    grid of ``TIE_RTOL * sum_j |w_ij|`` first (:func:`lecture_pkg._ties.snap`).  With
    ``+-1`` states every exact field is a multiple of ``1 / P`` and the rounding error of a
    computed one is below ``(N + P) eps sum_j |w_ij|``, so this reproduces the exact integer
    rule whenever ``P (N - 1) < 1 / TIE_RTOL``, far beyond any network in the course.
    """
    return np.where(snap(x, scale) >= 0, 1.0, -1.0)


def _grid_steps(W: np.ndarray) -> np.ndarray:
    """Per neuron, the grid step ``TIE_RTOL * sum_j |w_ij|`` of ``_sign`` (1 where that
    sum is 0, as in :func:`lecture_pkg._ties.snap`): (N,) or (n_runs, N), computed once per run."""
    scales = _field_scales(W)
    return TIE_RTOL * np.where(scales > 0, scales, 1.0)


def _sign_on_grid(x: np.ndarray, step) -> np.ndarray:
    """``_sign`` with the grid step of :func:`_grid_steps`, in two operations.

    ``snap`` rounds ``x / step`` half to even, and that is ``>= 0`` exactly when
    ``x / step >= -0.5`` (``-0.5`` rounds to ``-0.0``), so the result is the same, bit for bit.
    """
    return np.where(x / step >= -0.5, 1.0, -1.0)


@validate_args(S=_STATE, W=_W)
def update_parallel(S: np.ndarray, W: np.ndarray) -> np.ndarray:
    """One synchronous step ``S_i(t+1) = sign(sum_{j != i} w_ij S_j(t))`` for all i (eqs. 1.7, 1.9).

    A field that is zero up to rounding gives ``+1`` (``_sign``).
    """
    S, W, _ = _states_and_weights(S, W)
    return _sign(_fields(S, W), _field_scales(W))


def _sweep(S: np.ndarray, W: np.ndarray, order: np.ndarray, trajectory: list | None,
           active: np.ndarray | None = None, steps: np.ndarray | None = None) -> np.ndarray:
    """Sequential sweep, in place, on validated 2-d states; ``order`` is (n_runs, N).

    Only the runs listed in ``active`` (sorted) are updated, all by default: runs already
    at a fixed point need no work.  ``steps`` is :func:`_grid_steps` of ``W``, which
    :func:`run` computes once for all its sweeps.  Returns the number of flips per run.
    """
    R, N = S.shape
    flips = np.zeros(R, dtype=int)
    runs = np.arange(R) if active is None else np.asarray(active)
    if runs.size == 0:
        return flips
    if steps is None:
        steps = _grid_steps(W)
    every = runs.size == R                      # then runs is 0, 1, ..., R - 1
    # The active states as one contiguous array (S itself when every run is active),
    # written back at the end; step k updates neuron columns[k][r] of active run r.
    active_S = S if every else S[runs]
    columns = np.ascontiguousarray(order[runs].T)
    at = np.arange(runs.size)
    stack = W.ndim == 3
    if stack and not every:
        steps = steps[runs]
    count = np.zeros(runs.size, dtype=int)
    for k in range(N):
        i = columns[k]
        rows = W[runs, i] if stack else W[i]
        h = np.einsum("rj,rj->r", rows, active_S)
        new = _sign_on_grid(h, steps[at, i] if stack else steps[i])
        count += new != active_S[at, i]
        active_S[at, i] = new
        if trajectory is not None:
            trajectory.append(S.copy())
    if not every:
        S[runs] = active_S
    flips[runs] = count
    return flips


def _orders(n_runs: int, N: int, order: str, rng) -> np.ndarray:
    if order == "cyclic":
        return np.broadcast_to(np.arange(N), (n_runs, N))
    if order == "random":
        return rng.permuted(np.broadcast_to(np.arange(N), (n_runs, N)), axis=1)
    raise ValueError(f"order must be 'random' or 'cyclic', got {order!r}")


@validate_args(S=_STATE, W=_W, order=Options("random", "cyclic"), random_state="random_state")
def sequential_sweep(S: np.ndarray, W: np.ndarray, *, order: str = "random",
                     random_state: np.random.Generator | int | None = None,
                     return_trajectory: bool = False
                     ) -> (tuple[np.ndarray, int | np.ndarray]
                           | tuple[np.ndarray, int | np.ndarray, np.ndarray]):
    """One sweep of sequential dynamics: every neuron updated once with eq. (1.9).

    Parameters
    ----------
    S : array (N,) or (n_runs, N) of +-1
    W : array (N, N) or (n_runs, N, N)
        The weights, or one network per run.
    order : {"random", "cyclic"}
        ``"random"`` (a fresh random permutation per run: zero-temperature Metropolis
        dynamics) or ``"cyclic"`` (neurons 1, 2, ..., N).
    random_state : seed, numpy Generator or None
        The source of the random order.
    return_trajectory : bool
        Also return the state after every single-neuron update, shape
        ``(N + 1, ...)`` starting with the initial state.

    Returns
    -------
    state : array of the same shape as ``S``
        The new state.
    flips : int or array (n_runs,)
        The number of flipped neurons (per run).
    trajectory : array (N + 1, ...)
        Only with ``return_trajectory``.
    """
    rng = resolve_rng(random_state)
    S, W, single = _states_and_weights(S, W)
    S2 = np.atleast_2d(S).copy()
    trajectory = [S2.copy()] if return_trajectory else None
    flips = _sweep(S2, W, _orders(len(S2), S2.shape[1], order, rng), trajectory)
    if single:
        out = (S2[0], int(flips[0]))
        if return_trajectory:
            out += (np.array(trajectory)[:, 0],)
    else:
        out = (S2, flips)
        if return_trajectory:
            out += (np.array(trajectory),)
    return out


@dataclass
class HopfieldRun:
    """Result of :func:`run` (arrays have a leading run axis for batched input).

    Attributes
    ----------
    state : array (N,) or (n_runs, N)
        Final state(s).
    converged : bool or array of bool
        Whether a fixed point was reached (sequential: a sweep without a flip;
        parallel: ``S(t+1) = S(t)``).
    n_sweeps : int or array of int
        Sweeps (or parallel steps) until the fixed point was confirmed, or ``max_sweeps``.
    cycle : bool or array of bool
        Parallel dynamics only -- ended in a 2-cycle ``S(t+1) = S(t-1) != S(t)``.
    flips : array (n_steps, ...)
        Number of flipped neurons in each sweep or step.
    energies : array (n_steps + 1, ...)
        Energy after each sweep or step, the initial first.
    states : array (n_steps + 1, ..., N) or None
        States after each sweep (only with ``record_states``).
    """

    state: np.ndarray
    converged: np.ndarray
    n_sweeps: np.ndarray
    cycle: np.ndarray
    flips: np.ndarray
    energies: np.ndarray
    states: np.ndarray | None = None


@validate_args(S0=_STATE, W=_W, **_RUNS)
def run(S0: np.ndarray, W: np.ndarray, *, dynamics: str = "random", max_sweeps: int = 50,
        random_state: np.random.Generator | int | None = None,
        record_states: bool = False) -> HopfieldRun:
    """Iterate the Hopfield dynamics from ``S0`` until a fixed point or ``max_sweeps``.

    ``dynamics`` is ``"random"`` or ``"cyclic"`` (sequential, one sweep = N single-neuron
    updates) or ``"parallel"`` (all neurons at once, eq. 1.7).  Batched over runs:
    ``S0`` (n_runs, N) with ``W`` (N, N) or (n_runs, N, N).  Runs that reach a fixed point stop
    changing; the loop ends when all have converged.
    """
    S, W, single = _states_and_weights(S0, W)
    result = _run(np.atleast_2d(S).copy(), W, dynamics, max_sweeps, resolve_rng(random_state),
                  record_states)
    if single:
        result = HopfieldRun(
            result.state[0], bool(result.converged[0]), int(result.n_sweeps[0]),
            bool(result.cycle[0]), result.flips[:, 0], result.energies[:, 0],
            result.states[:, 0] if record_states else None,
        )
    return result


def _run(S: np.ndarray, W: np.ndarray, dynamics: str, max_sweeps: int, rng,
         record_states: bool) -> HopfieldRun:
    """:func:`run` on validated states (n_runs, N), which it changes in place, and weights.

    The grid of the sign rule is computed once; a sweep works only on the runs not yet
    at a fixed point, and the energy is computed again only for runs whose state changed.
    """
    R, N = S.shape
    converged = np.zeros(R, dtype=bool)
    cycle = np.zeros(R, dtype=bool)
    n_sweeps = np.full(R, max_sweeps)
    flips_log, energies = [], [_energy(S, W)]
    states = [S.copy()] if record_states else None
    previous = None
    steps = _grid_steps(W)
    for t in range(1, max_sweeps + 1):
        if dynamics == "parallel":
            new = _sign_on_grid(_fields(S, W), steps)
            flips = (new != S).sum(axis=1)
            if previous is not None:
                cycle |= ~converged & (flips > 0) & np.all(new == previous, axis=1)
            previous, S = S, new
            H = _energy(S, W)
        else:
            flips = _sweep(S, W, _orders(R, N, dynamics, rng), None, np.flatnonzero(~converged),
                           steps)
            H = energies[-1].copy()             # a run whose state did not change keeps it
            changed = np.flatnonzero(flips > 0)
            if changed.size == R or (changed.size and W.ndim == 2):
                H = _energy(S, W)
            elif changed.size:
                H[changed] = _energy(S[changed], W[changed])
        flips_log.append(flips)
        energies.append(H)
        if record_states:
            states.append(S.copy())
        newly = ~converged & (flips == 0)
        n_sweeps[newly] = t
        converged |= newly
        if np.all(converged | cycle):
            break
    return HopfieldRun(S, converged, n_sweeps, cycle, np.array(flips_log), np.array(energies),
                       np.array(states) if record_states else None)


@dataclass
class RetrievalResult:
    """Result of :func:`retrieval_experiment`.

    Attributes
    ----------
    alphas : array (L,)
        Loads asked for.
    n_patterns : array (L,) of int
        The stored numbers ``P = round(alpha N)``.
    initial_overlap, final_overlap : array (L, n_repeats)
        Overlap with the cued pattern.
    converged : array (L, n_repeats) of bool
        Whether each run reached a fixed point.
    """

    n_neurons: int
    alphas: np.ndarray
    n_patterns: np.ndarray
    corruption: float
    initial_overlap: np.ndarray
    final_overlap: np.ndarray
    converged: np.ndarray

    @property
    def actual_alphas(self) -> np.ndarray:
        """The realised loads ``P / N``."""
        return self.n_patterns / self.n_neurons


@validate_args(n_neurons=COUNT, alphas=Array(within=Interval(numbers.Real, 0, None,
                                                             closed="neither")),
               corruption=Interval(numbers.Real, 0, 1), n_repeats=COUNT, **_RUNS)
def retrieval_experiment(n_neurons: int, alphas: Sequence[float] | np.ndarray, corruption: float,
                         n_repeats: int, *, random_state: np.random.Generator | int | None = None,
                         dynamics: str = "random", max_sweeps: int = 100) -> RetrievalResult:
    """Final overlap after retrieval from a corrupted pattern, for several loads ``alpha = P/N``.

    For every load and repeat: draw ``P = round(alpha N)`` random patterns, store them
    with eq. (1.11), flip a fraction ``corruption`` of the first pattern's neurons and run
    the dynamics.  All ``len(alphas) * n_repeats`` networks run together as one batch
    (patterns of the smaller loads are masked out of a common pattern array).
    """
    rng = resolve_rng(random_state)
    alphas = np.atleast_1d(np.asarray(alphas, dtype=float))
    if alphas.ndim != 1:
        raise ValueError("alphas must be a 1-d sequence of positive loads P/N")
    counts = np.maximum(1, np.round(alphas * n_neurons).astype(int))
    L, R = len(alphas), int(n_repeats)
    xi = random_patterns(int(counts.max()), n_neurons, random_state=rng, batch=(L * R,))
    mask = np.arange(counts.max())[None, :] < np.repeat(counts, R)[:, None]
    W = hebb_weights(xi, mask)
    target = xi[:, 0, :]
    S0 = corrupt(target, corruption, random_state=rng)
    result = _run(S0.copy(), W, dynamics, max_sweeps, rng, False)   # valid by construction
    m0 = np.einsum("ri,ri->r", S0, target) / n_neurons
    m = np.einsum("ri,ri->r", result.state, target) / n_neurons
    return RetrievalResult(n_neurons, alphas, counts, float(corruption), m0.reshape(L, R),
                           m.reshape(L, R), result.converged.reshape(L, R))


# ---------------------------------------------------------------- pictures

@validate_args(side=Interval(numbers.Integral, 8, None))
def demo_images(side: int = 16) -> np.ndarray:
    """Four black-and-white pictures of ``side x side`` pixels as +-1 patterns (4, side**2).

    A ring, a cross, a triangle and a diagonal band: shapes a reader recognises at a
    glance, each covering a good part of the square so that the patterns are not too
    correlated with each other.  Used to illustrate retrieval (Biehl's Fig. 1.4).  The
    shapes need at least 8 x 8 pixels: ``side >= 8``.
    """
    y, x = np.mgrid[0:side, 0:side] + 0.5
    c = side / 2
    r = np.hypot(x - c, y - c)
    ring = (r > 0.28 * side) & (r < 0.47 * side)
    cross = (np.abs(x - c) < 0.17 * side) | (np.abs(y - c) < 0.17 * side)
    triangle = (y > 0.1 * side) & (np.abs(x - c) < 0.5 * (y - 0.1 * side)) & (y < 0.92 * side)
    band = np.abs(x - y) < 0.3 * side
    pictures = np.array([ring, cross, triangle, band]).reshape(4, -1)
    return np.where(pictures, 1.0, -1.0)
