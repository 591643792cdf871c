"""Rosenblatt's perceptron: the learning rule and the estimator (Biehl §3.3.3, eqs. 3.12,
3.15; Koski; Deckert §3.2).

* :class:`RosenblattTrainer` -- the rule on augmented inputs, one step or one update at a
  time; the estimator and the interactive explorer both drive it;
* :class:`Perceptron` -- the estimator; with ``record_history=True`` its
  :class:`PerceptronHistory` holds the weights after every update.

Conventions (see the book's introduction):

* labels are ``+1`` / ``-1`` internally, and ``sign(0) = +1`` when predicting;
* the bias is handled by *augmentation*: every input gets a clamped component ``s``
  in front, ``x~ = (s, x)``, and the weights are ``w~ = (b / s, w)`` so that
  ``w~ . x~ = w . x + b``.  ``s = 1`` is Deckert's and Mooney's augmented vector;
  ``s = R_max = max_i |x_i|`` is the R_max^2-scaled bias of the convergence proof (the
  bias then moves by ``eta * y * R_max**2`` per update);
* an example is used for an update when its local potential
  ``E = y (w . x + b)`` satisfies ``E <= c`` (Biehl eq. 3.15); ``c = 0`` is the
  classical rule, ``c > 0`` asks for a margin.  The ``<=`` matters: from a zero
  start every ``E`` is 0 and a strict ``<`` would never move.

:func:`~lecture_pkg.linear.sign` and :func:`~lecture_pkg.linear.augment` are in the
family's ``_base``; the margins and the convergence bounds in
:mod:`~lecture_pkg.linear.margins`; Biehl's generic update with a modulation function in
:mod:`~lecture_pkg.linear.generic_perceptron`.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
from sklearn import config_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils import assert_all_finite

from ..validation import (COUNT, FINITE, NON_ZERO, POSITIVE, Interval, Options, as_plus_minus,
                          check_scalar, check_vector, resolve_rng, warn_user)
from ._base import LinearBinaryClassifier, initial_weights
from .margins import data_radius

__all__ = [
    "PerceptronHistory",
    "RosenblattTrainer",
    "Perceptron",
]


@dataclass
class PerceptronHistory:
    """Weights after every update of a perceptron run.

    Row 0 of ``coef`` and ``intercept`` is the initial state; row ``k`` is the state
    after update ``k``, which used example ``example[k-1]`` during epoch
    ``epoch[k-1]`` (both 0-based).
    """

    coef: np.ndarray
    intercept: np.ndarray
    example: np.ndarray
    epoch: np.ndarray


# Blocks of examples scanned at once by RosenblattTrainer.next_update: at least 64 (so
# the Python overhead per block stays small), at most 4096 (so the potentials computed
# beyond an update, and thrown away because the weights changed, stay few).
_MIN_BLOCK, _MAX_BLOCK = 64, 4096


class RosenblattTrainer:
    """Rosenblatt's perceptron rule on augmented inputs, one step at a time.

    The estimator :class:`Perceptron` and the interactive explorer both drive this
    class, so there is exactly one implementation of the rule.

    Parameters
    ----------
    Xa : array (P, D)
        Augmented inputs (see :func:`augment`), or the plain inputs if ``bias_input``
        is given.
    y : array (P,)
        Labels in ``{-1, +1}``.
    weights : array (D,)
        Initial augmented weights.
    eta : float
        Learning rate; an update adds ``eta * y_mu * Xa[mu]``.
    margin : float
        Update when the local potential ``E_mu <= margin`` (Biehl's c, eq. 3.15).
    shuffle : bool
        Present the examples in a fresh random order each epoch instead of cyclically.
    random_state : seed, numpy Generator or RandomState, optional
        Source of the random orders when ``shuffle`` is true.
    record_history : bool
        Keep the weights after every update.
    bias_input : float, optional
        If given, ``Xa`` holds the plain inputs ``x`` and the clamped input ``s`` is
        prepended implicitly, ``x~ = (s, x)``: the same rule without the augmented copy
        of the data (which costs as much as the training itself on large data).
    """

    def __init__(self, Xa: np.ndarray, y: np.ndarray, weights: np.ndarray, *, eta: float = 1.0,
                 margin: float = 0.0, shuffle: bool = False,
                 random_state: np.random.Generator | np.random.RandomState | int | None = None,
                 record_history: bool = False, bias_input: float | None = None) -> None:
        self._X = np.asarray(Xa, dtype=float)
        self._s = None if bias_input is None else float(bias_input)
        n_weights = self._X.shape[1] + (self._s is not None)
        self.y = as_plus_minus(y)
        self.weights = check_vector(weights, "weights").copy()
        if self.weights.shape != (n_weights,):
            raise ValueError(f"weights have shape {self.weights.shape}, expected ({n_weights},)")
        self.eta = float(check_scalar(eta, "eta", POSITIVE))
        self.margin = float(check_scalar(margin, "margin", FINITE))
        self.shuffle = bool(shuffle)
        self.rng = resolve_rng(random_state)
        self.epoch = 0                    # number of completed epochs
        self.position = 0                 # next position in the current epoch's order
        self.n_updates = 0
        self.errors_per_epoch: list[int] = []
        self.update_counts = np.zeros(len(self.y), dtype=int)   # the embedding strengths a^mu
        self.converged = False
        self._errors = 0
        self._passed = 0                  # presentations in a row that passed since the last update
        self._block = _MIN_BLOCK          # examples checked per matrix-vector product (adaptive)
        self.order = self._new_order()
        self.record_history = record_history
        self._history = [(self.weights.copy(), -1, -1)] if record_history else None

    def _new_order(self) -> np.ndarray:
        n = len(self.y)
        return self.rng.permutation(n) if self.shuffle else np.arange(n)

    def _rows(self, start: int, stop: int) -> slice | np.ndarray:
        """The examples at positions ``start:stop`` of this epoch's order, as an index.

        In the cyclic order a slice, so that ``X[rows]`` is a view of the data (no copy);
        in a shuffled order the examples' indices, so that only the rows scanned are
        gathered, not a reordered copy of the whole data every epoch.
        """
        return self.order[start:stop] if self.shuffle else slice(start, stop)

    def _scores(self, X: np.ndarray) -> np.ndarray:
        """``w~ . x~`` for the rows of ``X`` (augmented implicitly when ``bias_input`` is set).

        ``np.vecdot`` takes the inner product of each row with the weights, as ``X @ w``
        does, but row after row: on large data that streams from memory faster than
        OpenBLAS's matrix-vector product did in the course's benchmarks.
        """
        if self._s is None:
            return np.vecdot(X, self.weights)
        return np.vecdot(X, self.weights[1:]) + self._s * self.weights[0]

    def local_potentials(self) -> np.ndarray:
        """``E_mu = y_mu w~ . x~_mu`` for every example at the current weights."""
        return self.y * self._scores(self._X)

    def _potential(self, idx: int) -> float:
        return float(self.y[idx] * self._scores(self._X[idx]))

    def _apply_update(self, idx: int) -> None:
        step = self.eta * self.y[idx]
        if self._s is None:
            self.weights += step * self._X[idx]
        else:
            self.weights[0] += step * self._s
            self.weights[1:] += step * self._X[idx]
        self.n_updates += 1
        self._errors += 1
        self._passed = 0
        self.update_counts[idx] += 1
        if self.record_history:
            self._history.append((self.weights.copy(), int(idx), self.epoch))

    def _close_epoch(self) -> None:
        self.errors_per_epoch.append(self._errors)
        self.converged = self._errors == 0
        self.epoch += 1
        self._errors = 0
        self.position = 0
        if not self.converged:
            self.order = self._new_order()

    def update(self, idx: int) -> bool:
        """Apply the rule to example ``idx`` out of turn (as the notes do by hand).

        Updates and returns ``True`` if ``E_idx <= c``; otherwise changes nothing.
        The presentation order and epoch bookkeeping are not touched.
        """
        idx = int(idx)
        if not 0 <= idx < len(self.y):
            raise IndexError(f"example index {idx} out of range for {len(self.y)} examples")
        if self._potential(idx) > self.margin:
            return False
        self._apply_update(idx)
        return True

    def step(self) -> tuple[int, bool]:
        """Present the next example; update if ``E <= c``.

        Returns the index of the example presented and whether it caused an update.
        After convergence nothing changes and ``(-1, False)`` is returned.
        """
        if self.converged:
            return -1, False
        idx = int(self.order[self.position])
        updated = self._potential(idx) <= self.margin
        if updated:
            self._apply_update(idx)
        else:
            self._passed += 1
        self.position += 1
        if self.position == len(self.y):
            self._close_epoch()
        return idx, updated

    def _first_update_position(self) -> int | None:
        """Position (in the epoch's order) of the next example with ``E <= c``, or ``None``.

        The local potentials of the examples still to come in this epoch are computed
        in blocks, one matrix-vector product each, stopping at the first block that
        holds an update: the work is proportional to the examples actually passed
        over, not to the rest of the epoch.  The block size adapts to the observed
        distance between updates (doubling while none is found, up to ``_MAX_BLOCK``).

        In the cyclic order, once ``P`` presentations in a row have passed since the last
        update, every example has passed with the current weights, so the rest of the
        epoch cannot update: the last epoch of a run that converges is checked only up to
        where the previous epoch's last update was.
        """
        n = len(self.y)
        start = self.position
        end = n if self.shuffle else min(n, start + max(0, n - self._passed))
        while start < end:
            stop = min(end, start + self._block)
            rows = self._rows(start, stop)
            E = self.y[rows] * self._scores(self._X[rows])
            hits = np.flatnonzero(E <= self.margin)
            if hits.size:
                self._block = min(_MAX_BLOCK, max(_MIN_BLOCK, 2 * (int(hits[0]) + 1)))
                self._passed += int(hits[0])
                return start + int(hits[0])
            self._block = min(2 * self._block, _MAX_BLOCK)
            self._passed += stop - start
            start = stop
        self._passed += n - end
        return None

    def next_update(self, max_epochs: int | None = None) -> int | None:
        """Skip ahead to the next update and make it.

        Equivalent to calling :meth:`step` until it updates, but the examples that
        are passed over are checked in vectorised blocks.  Returns the index
        of the updated example, or ``None`` once a full epoch passes without update
        (the run has converged) or, with ``max_epochs``, once that many epochs are
        complete (no update is taken from the epoch after the limit).
        """
        while not self.converged:
            pos = self._first_update_position()
            if pos is None:
                self._close_epoch()
                if max_epochs is not None and self.epoch >= max_epochs:
                    return None
                continue
            idx = int(self.order[pos])
            self._apply_update(idx)
            self.position = pos + 1
            if self.position == len(self.y):
                self._close_epoch()
            return idx
        return None

    def run(self, max_epochs: int) -> bool:
        """Train until convergence or until ``max_epochs`` epochs are complete; return
        ``converged``."""
        while not self.converged and self.epoch < max_epochs:
            self.next_update(max_epochs)
        return self.converged

    def history(self, bias_input: float = 1.0) -> PerceptronHistory:
        """The recorded weights as (coef, intercept) pairs; needs ``record_history=True``."""
        if not self.record_history:
            raise RuntimeError("history was not recorded; "
                               "create the trainer with record_history=True")
        W = np.array([h[0] for h in self._history])
        return PerceptronHistory(
            coef=W[:, 1:], intercept=W[:, 0] * bias_input,
            example=np.array([h[1] for h in self._history[1:]], dtype=int),
            epoch=np.array([h[2] for h in self._history[1:]], dtype=int),
        )


class Perceptron(LinearBinaryClassifier):
    """Rosenblatt's perceptron as a scikit-learn classifier.

    Learning rule: present the examples in turn; whenever the local potential
    ``E = y (w . x + b) <= margin`` update ``w <- w + eta y x`` and
    ``b <- b + eta y s^2`` where ``s`` is the clamped bias input (Koski's update for
    ``s = 1``; Rosenblatt's R^2-bias for ``s = R``; Biehl eq. 3.12 with 3.15).
    Training stops after the first epoch without an update, or after ``max_epochs``.

    Parameters
    ----------
    eta : float, default 1.0
        Learning rate.  From a zero start it only rescales the weights.
    margin : float, default 0.0
        Biehl's ``c``: update while ``E <= c``.
    max_epochs : int, default 1000
        Epoch limit; reaching it gives ``converged_ = False`` and a ``ConvergenceWarning``.
    shuffle : bool, default False
        Fresh random presentation order each epoch (``random_state``) instead of the data order.
    random_state : int, numpy Generator or RandomState, optional
        Seed or generator for the presentation orders.
    fit_intercept : bool, default True
        Learn a bias ``b``.  If false the hyperplane passes through the origin.
    bias_input : float or "radius", default 1.0
        The clamped input ``s`` of the augmented vector ``(s, x)``.  ``"radius"`` uses
        ``s = R_max = max |x_mu|`` of the training inputs, the variant of the convergence
        proof.
    record_history : bool, default False
        Keep the weights after every update in ``history_``.

    Attributes
    ----------
    classes_ : array (2,)
        The two labels; ``classes_[1]`` is the positive class (+1).
    coef_ : array (n_features,)
    intercept_ : float
    n_updates_ : int
        Number of updates (mistakes): the book's ``ℳ``, Biehl's ``M``.
    n_epochs_ : int
    errors_per_epoch_ : list of int
        Updates in each epoch; a converged run ends with a 0.
    converged_ : bool
    update_counts_ : array (n_samples,)
        How often each example caused an update (Biehl's embedding strengths, eq. 3.13).
    history_ : PerceptronHistory
        Only with ``record_history=True``.

    References
    ----------
    .. [1] Biehl, M. (2019). *Supervised Learning -- An Introduction*. Machine Learning Reports
       01/2019, §3.3.3, eqs. (3.12), (3.15). (bib key: biehl2019supervised)
    .. [2] Koski, T. (2017). *Modern Methods of Statistical Learning SF2935, Lecture 1*, slides
       on Rosenblatt's perceptron algorithm (primal form, R^2 bias). (bib key: koski2017sf2935)
    .. [3] Deckert, D.-A. (2017). *Mathematics and Applications of Machine Learning*,
       §3.2.1--3.2.2 (learning and update rule). (bib key: deckert2017maml)
    .. [4] Rosenblatt, F. (1958). The Perceptron: A Probabilistic Model for Information Storage
       and Organization in the Brain. *Psychological Review* 65(6), 386--408.
       (bib key: rosenblatt1958perceptron)

    Examples
    --------
    >>> from lecture_pkg.datasets import koski_example
    >>> from lecture_pkg.linear import Perceptron
    >>> X, y = koski_example()
    >>> clf = Perceptron().fit(X, y)
    >>> clf.n_updates_, clf.score(X, y)
    (3, 1.0)
    """

    _parameter_constraints = {
        "eta": [POSITIVE],
        "margin": [Interval(numbers.Real, None, None)],
        "max_epochs": [COUNT],
        "shuffle": ["boolean"],
        "random_state": ["random_state"],
        "fit_intercept": ["boolean"],
        "bias_input": [*NON_ZERO, Options("radius")],
        "record_history": ["boolean"],
    }

    def __init__(self, eta: float = 1.0, margin: float = 0.0, max_epochs: int = 1000,
                 shuffle: bool = False,
                 random_state: np.random.Generator | np.random.RandomState | int | None = None,
                 fit_intercept: bool = True, bias_input: float | str = 1.0,
                 record_history: bool = False) -> None:
        self.eta = eta
        self.margin = margin
        self.max_epochs = max_epochs
        self.shuffle = shuffle
        self.random_state = random_state
        self.fit_intercept = fit_intercept
        self.bias_input = bias_input
        self.record_history = record_history

    def fit(self, X: np.ndarray, y: np.ndarray, coef_init: np.ndarray | None = None,
            intercept_init: float | None = None) -> Perceptron:
        """Train on ``X`` (n_samples, n_features) with two classes in ``y``.

        ``coef_init`` and ``intercept_init`` give the starting weights (zero by default),
        e.g. Koski's ``w = (1, 0.5)``, ``b = 0``.
        """
        # On large data a pass over X costs about as much as an epoch of training.  The
        # package's check of X (check_inputs, in _binary_targets) finds NaN and infinity
        # in the same pass that looks for squares that overflow, so scikit-learn's own
        # pass looking for them is skipped; the labels are still checked here.
        assert_all_finite(y, input_name="y")
        with config_context(assume_finite=True):
            X, y_pm = self._binary_targets(X, y)

        if not self.fit_intercept:
            s = 0.0
        elif self.bias_input == "radius":
            s = data_radius(X)
            if s == 0:
                raise ValueError("bias_input='radius' needs at least one non-zero input")
        else:
            s = float(self.bias_input)
        w0 = initial_weights(X.shape[1], coef_init, intercept_init, s, owner="Perceptron.fit")

        trainer = RosenblattTrainer(
            X, y_pm, w0, eta=self.eta, margin=self.margin, shuffle=self.shuffle,
            random_state=resolve_rng(self.random_state), record_history=self.record_history,
            bias_input=s,
        )
        trainer.run(self.max_epochs)

        self.coef_ = trainer.weights[1:].copy()
        self.intercept_ = float(trainer.weights[0] * s)
        self.n_updates_ = trainer.n_updates
        self.n_epochs_ = trainer.epoch
        self.errors_per_epoch_ = list(trainer.errors_per_epoch)
        self.converged_ = trainer.converged
        self.update_counts_ = trainer.update_counts.copy()
        self.bias_input_ = s
        if self.record_history:
            self.history_ = trainer.history(bias_input=s)
        if not self.converged_:
            warn_user(
                f"the perceptron did not converge within max_epochs={self.max_epochs} epochs "
                f"({self.errors_per_epoch_[-1]} update(s) in the last one); the data may not be "
                "linearly separable",
                ConvergenceWarning,
            )
        return self
