"""The experiments of Frieß and Harrison's "Perceptrons in kernel feature spaces" (1998), §4.

* :func:`random_split`: the paper's protocol of disjoint random training and test sets
  (200 + 200 for the breast-cancer data);
* :func:`paper_experiment`: one run of every method of Tables 1--3 on one training/test
  split, over a grid of RBF widths, with the Gram matrices computed once per width and
  shared by all kernel methods; :data:`PAPER_SIGMAS` and :data:`PAPER_TABLES` hold the
  paper's widths and published numbers.

The data sets themselves (:func:`~lecture_pkg.datasets.two_spirals`,
:func:`~lecture_pkg.datasets.mirror_symmetry`, :func:`~lecture_pkg.datasets.sonar`,
:func:`~lecture_pkg.datasets.breast_cancer_wisconsin`) are in :mod:`lecture_pkg.datasets`.
Labels are ``+1`` / ``-1`` throughout.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..core.solvers import adatron_embeddings
from ..prototypes import NearestNeighborClassifier
import numbers

from ..validation import (COUNT, MATRIX, NON_NEGATIVE, POSITIVE, POSITIVE_OR_INF, Array, Interval,
                          resolve_rng, validate_args)
from .kernel_perceptron import kernel_perceptron
from .lp_machine import lp_machine
from .svm import gram_of_labels, kernel_adatron

__all__ = [
    "PAPER_SIGMAS",
    "random_split",
    "PAPER_TABLES",
    "paper_experiment",
    "svm_rows",
    "lpm_grid",
]

PAPER_SIGMAS: dict[str, tuple[float, ...]] = {
    "sonar": (0.8, 1.0, 1.2),
    "mirror": (5.0, 6.0, 7.0),
    "breast_cancer": (0.4, 0.5, 0.6),
    "spirals": (0.8,),
}
"""The RBF widths ``sigma`` of ``exp(-|a-b|^2 / sigma^2)`` used in the paper (Tables 1–3, §4.1)."""


# one training and one test set (labels +-1, one per row), and the widths of eq. (6)
_SPLIT = dict(X_train=MATRIX, y_train=Array(1, labels=True, rows_of="X_train"), X_test=MATRIX,
              y_test=Array(1, labels=True, rows_of="X_test"), sigmas=Array(1, within=POSITIVE))


@validate_args(n_samples=COUNT, n_train=COUNT, n_test=COUNT, random_state="random_state")
def random_split(n_samples: int, n_train: int, n_test: int, *,
                 random_state: np.random.Generator | int | None = None
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Disjoint random index sets for training and test, as in the paper's §4.4."""
    if n_train + n_test > n_samples:
        raise ValueError(f"n_train + n_test = {n_train + n_test} exceeds the {n_samples} samples")
    order = resolve_rng(random_state).permutation(n_samples)
    return order[:n_train], order[n_train:n_train + n_test]


# ---------------------------------------------------------------- the experiments of §4

def _table(k_large, rows):
    out = [("KNN (k=1)", None, None, 0, rows[0]), (f"KNN (k={k_large})", None, None, 0, rows[1])]
    names = ["k-Perc.", "SVM", "LPM", "k-Adatron", "k-Adatron"]
    cycles = [None, None, None, 10, 250]
    for block, (name, cyc) in enumerate(zip(names, cycles)):
        for j, (sigma, trn, tst) in enumerate(rows[2 + block]):
            out.append((name, cyc, sigma, trn, tst))
    return out


PAPER_TABLES: dict[str, list[tuple]] = {
    "sonar": _table(3, [10, 19, [(0.8, 0, 6), (1.0, 0, 8), (1.2, 0, 13)],
                        [(0.8, 0, 8), (1.0, 0, 7), (1.2, 0, 7)],
                        [(0.8, 1, 11), (1.0, 1, 9), (1.2, 0, 8)],
                        [(0.8, 0, 6), (1.0, 0, 9), (1.2, 0, 8)],
                        [(0.8, 0, 6), (1.0, 0, 6), (1.2, 0, 7)]]),
    "mirror": _table(7, [25, 22, [(5, 0, 25), (6, 0, 26), (7, 0, 27)],
                         [(5, 0, 3), (6, 0, 2), (7, 0, 5)],
                         [(5, 0, 6), (6, 0, 3), (7, 0, 2)],
                         [(5, 0, 4), (6, 0, 5), (7, 0, 6)],
                         [(5, 0, 3), (6, 0, 4), (7, 0, 5)]]),
    "breast_cancer": _table(3, [13, 9, [(0.4, 0, 13), (0.5, 0, 10), (0.6, 0, 9)],
                                [(0.4, 0, 11), (0.5, 0, 10), (0.6, 0, 11)],
                                [(0.4, 9, 16), (0.5, 0, 10), (0.6, 0, 9)],
                                [(0.4, 0, 8), (0.5, 0, 9), (0.6, 0, 11)],
                                [(0.4, 0, 10), (0.5, 0, 9), (0.6, 0, 10)]]),
}
"""Tables 1–3 of the paper: ``(method, cycles, sigma, # training errors, # test errors)``.

The KNN rows carry the test errors in the last field and 0 training errors (the paper
prints 0 for both KNN rows); ``sigma`` and ``cycles`` are ``None`` where the paper has "-".
"""


def _sq_distances(A, B):
    sq = (np.einsum("ij,ij->i", A, A)[:, None] + np.einsum("ij,ij->i", B, B)[None, :]
          - 2.0 * (A @ B.T))
    return np.maximum(sq, 0.0)


def _errors(f, y) -> int:
    return int(np.sum(np.where(f >= 0, 1.0, -1.0) != y))


@validate_args(**_SPLIT, k_large=COUNT, svm_C=POSITIVE, lpm_C=Array(within=NON_NEGATIVE),
               lpm_validation=Interval(numbers.Real, 0, 1, closed="neither"),
               perceptron_epochs=COUNT, random_state="random_state")
def paper_experiment(X_train: np.ndarray, y_train: np.ndarray, X_test: np.ndarray,
                     y_test: np.ndarray, sigmas: Sequence[float], *, k_large: int = 3,
                     svm_C: float = 1000.0, lpm_C: float | Sequence[float] = 0.01,
                     lpm_validation: float = 0.25, perceptron_epochs: int = 200,
                     random_state: np.random.Generator | int | None = None) -> list[dict]:
    """Every method of the paper's Tables 1–3 on one split, for each RBF width in ``sigmas``.

    The kernel is eq. (6), ``exp(-|a - b|^2 / sigma^2)``.  The squared distances are
    computed once and each width's training and test Gram matrices once; all kernel
    methods share them.  The methods and this book's settings (the paper reports
    none of C, the AdaTron's learning rate, the perceptron's order or the LPM's bias):

    * ``KNN (k=1)``, ``KNN (k=k_large)``:
      :class:`lecture_pkg.prototypes.NearestNeighborClassifier`;
    * ``k-Perc.``: the kernel perceptron with bias (eqs. 3, 4), one random order,
      at most ``perceptron_epochs`` epochs;
    * ``SVM``: the quadratic program with bias solved by scikit-learn's ``SVC``
      (LIBSVM) with ``C = svm_C`` (the paper used the interior-point code LOQO);
    * ``LPM``: eq. (16) with ``C = lpm_C``; with or without bias, whichever errs less on
      a validation subset (a fraction ``lpm_validation`` of the training set), the
      paper's rule of choosing parameters on a validation subset.  ``lpm_C`` may be a
      sequence of candidates: then ``C`` and the bias are chosen together on that subset
      (the first candidate wins a tie; bias before no bias), and the note names them;
    * ``k-Adatron`` with 10 and 250 cycles: :func:`lecture_pkg.kernel_machines.kernel_adatron`
      without bias (hard margin, ``eta = 1``, stopping early only when the Kuhn–Tucker
      conditions hold to 1e-3), then the bias that centres the margin,
      ``b = -(min_{y=+1} z_i + max_{y=-1} z_i) / 2`` with ``z = K (alpha y)``.  One run
      of 250 cycles gives both rows: its embeddings after cycle 10 are those of a run of
      10 cycles (the AdaTron on ``Gamma`` with ``snapshot_epochs``).

    Returns one dict per row, in the order of :data:`PAPER_TABLES` (the two KNN rows,
    then each method over all widths): ``method``, ``cycles``, ``sigma``, ``train_errors``,
    ``test_errors`` (counts, as in the paper) and ``note`` (e.g. the LPM's bias choice
    or a perceptron that did not converge).
    """
    from sklearn.svm import SVC  # the QP solver of the SVM rows

    lpm_Cs = tuple(float(c) for c in np.atleast_1d(lpm_C))
    if not lpm_Cs:
        raise ValueError("lpm_C must be one or more finite numbers >= 0, got none")
    rng = resolve_rng(random_state)
    rows = []
    for k in (1, k_large):
        knn = NearestNeighborClassifier(n_neighbors=k).fit(X_train, y_train)
        rows.append(dict(method=f"KNN (k={k})", cycles=None, sigma=None,
                         train_errors=int(np.sum(knn.predict(X_train) != y_train)),
                         test_errors=int(np.sum(knn.predict(X_test) != y_test)), note=""))
    D_tr, D_te = _sq_distances(X_train, X_train), _sq_distances(X_test, X_train)
    n = len(y_train)
    val = rng.permutation(n)
    n_val = max(1, int(round(lpm_validation * n)))
    fit_idx, val_idx = np.sort(val[n_val:]), np.sort(val[:n_val])
    order = rng.permutation(n)
    for sigma in sigmas:
        K, Kt = np.exp(-D_tr / sigma ** 2), np.exp(-D_te / sigma ** 2)
        out = []
        kp = kernel_perceptron(K, y_train, bias=True, order=order, max_epochs=perceptron_epochs)
        out.append(("k-Perc.", None, K @ kp.alpha + kp.bias, Kt @ kp.alpha + kp.bias,
                    "" if kp.converged else f"not separated in {perceptron_epochs} epochs"))
        svm = SVC(kernel="precomputed", C=svm_C).fit(K, y_train)
        out.append(("SVM", None, svm.decision_function(K), svm.decision_function(Kt), ""))
        best = None
        for C in lpm_Cs:
            for bias in (True, False):
                run = lp_machine(K[np.ix_(fit_idx, fit_idx)], y_train[fit_idx], C,
                                 fit_intercept=bias)
                f_val = K[np.ix_(val_idx, fit_idx)] @ (run.alpha * y_train[fit_idx]) + run.bias
                err = _errors(f_val, y_train[val_idx])
                if best is None or err < best[0]:
                    best = (err, C, bias)
        _, C, bias = best
        lpm = lp_machine(K, y_train, C, fit_intercept=bias)
        note = ("bias" if bias else "no bias") + (f", C = {C:g}" if len(lpm_Cs) > 1 else "")
        out.append(("LPM", None, K @ (lpm.alpha * y_train) + lpm.bias,
                    Kt @ (lpm.alpha * y_train) + lpm.bias, note))
        # kernel_adatron(K, y, inf, fit_intercept=False, mode="sequential", max_epochs=250)
        # is this run; the snapshot after cycle 10 is the run with max_epochs=10
        ka = adatron_embeddings(gram_of_labels(K, y_train), 1.0, mode="sequential",
                                max_epochs=250, kkt_tol=1e-3, snapshot_epochs=(10,))
        for cycles, embeddings in ((10, ka.snapshots.get(10, ka.a)), (250, ka.a)):
            z = K @ (embeddings * y_train)
            b = -0.5 * (z[y_train > 0].min() + z[y_train < 0].max())
            out.append(("k-Adatron", cycles, z + b, Kt @ (embeddings * y_train) + b, ""))
        for method, cycles, f_tr, f_te, note in out:
            rows.append(dict(method=method, cycles=cycles, sigma=float(sigma),
                             train_errors=_errors(f_tr, y_train), test_errors=_errors(f_te, y_test),
                             note=note))
    methods = [("k-Perc.", None), ("SVM", None), ("LPM", None), ("k-Adatron", 10), ("k-Adatron",
                                                                                    250)]
    kernel_rows = sorted(rows[2:], key=lambda r: methods.index((r["method"], r["cycles"])))
    return rows[:2] + kernel_rows


def _widths(X_train, X_test, sigmas):
    """Each width's training and test Gram matrices of eq. (6), from one distance matrix."""
    D_tr, D_te = _sq_distances(X_train, X_train), _sq_distances(X_test, X_train)
    for sigma in sigmas:
        yield float(sigma), np.exp(-D_tr / sigma ** 2), np.exp(-D_te / sigma ** 2)


@validate_args(**_SPLIT, C=POSITIVE_OR_INF, tol=POSITIVE)
def svm_rows(X_train: np.ndarray, y_train: np.ndarray, X_test: np.ndarray, y_test: np.ndarray,
             sigmas: Sequence[float], C: float = np.inf, *, tol: float = 1e-6) -> list[dict]:
    """The SVM rows of the paper's tables: RBF kernel (6), unpenalised bias, box ``C``.

    Solved by :func:`lecture_pkg.kernel_machines.kernel_adatron` (SMO steps on the
    maximal violating pair) to Kuhn--Tucker tolerance ``tol``, and cross-checked with
    scikit-learn's ``SVC`` on the same Gram matrix (``C = inf`` is passed to ``SVC`` as
    ``1e10``).  ``C`` is scikit-learn's constant, half the paper's in eq. (10).

    Returns one dict per width: ``sigma``, ``train_errors``, ``test_errors`` (counts),
    ``svc_test_errors`` (``SVC``'s count), ``n_support``, ``max_alpha`` (the largest
    multiplier: the machine has a hard margin when ``C`` exceeds it) and
    ``min_abs_test_f`` (the test pattern closest to the boundary: a count is only
    robust if this is far above the solver's tolerance).

    Examples
    --------
    >>> from lecture_pkg.kernel_machines import svm_rows
    >>> from lecture_pkg.datasets import sonar
    >>> X, y, train = sonar()
    >>> rows = svm_rows(X[train], y[train], X[~train], y[~train], (0.8, 1.0, 1.2))
    >>> [r["test_errors"] for r in rows]
    [8, 7, 7]
    """
    from sklearn.svm import SVC  # the independent QP solver

    rows = []
    for sigma, K, Kt in _widths(X_train, X_test, sigmas):
        run = kernel_adatron(K, y_train, C, tol=tol, max_epochs=100_000, check_psd=None)
        beta = run.embeddings * y_train
        f_tr, f_te = K @ beta + run.bias, Kt @ beta + run.bias
        svc = SVC(kernel="precomputed", C=min(float(C), 1e10), tol=tol).fit(K, y_train)
        rows.append(dict(sigma=sigma, train_errors=_errors(f_tr, y_train),
                         test_errors=_errors(f_te, y_test),
                         svc_test_errors=int(np.sum(svc.predict(Kt) != y_test)),
                         n_support=int(np.sum(run.embeddings > 1e-8)),
                         max_alpha=float(run.embeddings.max()),
                         min_abs_test_f=float(np.abs(f_te).min())))
    return rows


@validate_args(**_SPLIT, Cs=Array(1, within=NON_NEGATIVE))
def lpm_grid(X_train: np.ndarray, y_train: np.ndarray, X_test: np.ndarray, y_test: np.ndarray,
             sigmas: Sequence[float], Cs: Sequence[float]) -> dict[tuple, tuple[int, int]]:
    """The LPM (16) on one split for every width, every ``C`` in ``Cs``, with and without bias.

    Returns ``{(sigma, C, bias): (# training errors, # test errors)}``, the settings the
    paper leaves unreported laid out side by side.

    Examples
    --------
    >>> from lecture_pkg.kernel_machines import lpm_grid
    >>> from lecture_pkg.datasets import sonar
    >>> X, y, train = sonar()
    >>> lpm_grid(X[train], y[train], X[~train], y[~train], (1.0,), (0.3,))[(1.0, 0.3, False)]
    (1, 9)
    """
    out = {}
    for sigma, K, Kt in _widths(X_train, X_test, sigmas):
        for C in Cs:
            for bias in (True, False):
                run = lp_machine(K, y_train, float(C), fit_intercept=bias)
                beta = run.alpha * y_train
                out[(sigma, float(C), bias)] = (_errors(K @ beta + run.bias, y_train),
                                                _errors(Kt @ beta + run.bias, y_test))
    return out
