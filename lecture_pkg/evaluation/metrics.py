"""Evaluation and validation: bias and variance, cross-validation, ROC and confusion matrices.

Biehl's lecture notes, chapter 6.

* Bias and variance (sec. 6.1, eqs. 6.1--6.7):
  :func:`polynomial_design`, :func:`fit_polynomial`, :func:`polynomial_predict` (the
  least-squares polynomial fits of Fig. 6.1, via :mod:`lecture_pkg.learning.regression`);
  :func:`polynomial_smoother` (the matrix ``L`` with ``f_H(x_eval) = L y`` of a linear
  estimator); :func:`bias_variance_linear` (closed form for any linear estimator) and
  :func:`bias_variance_monte_carlo` (average over simulated data sets; vectorised over the
  sets when the estimator is linear, a loop for any other estimator).
* Validation procedures (sec. 6.2): index generators that are also scikit-learn CV
  splitters (``split``/``get_n_splits``, so ``cross_val_score(..., cv=NFold(10))`` works):
  :class:`NFold` (optionally stratified), :class:`LeaveOneOut`, :class:`RepeatedNFold`,
  :class:`MonteCarloSplits`, :class:`ClasswiseLeaveOneOut` (one example of each class per
  validation set) and :func:`leave_p_out_splits` / :func:`leave_p_out_count`;
  :func:`cross_validation_scores`, :func:`select_by_cv` and :func:`nested_cross_validation`
  (model selection inside the training folds only, with the index bookkeeping that proves it).
* Performance measures (sec. 6.3): :func:`threshold_predict` (eq. 6.9),
  :func:`confusion_counts` and :func:`rates` (eq. 6.11), :func:`roc_curve`,
  :func:`auc_trapezoid`, :func:`auc_pairs` (the probability of a correctly ordered pair),
  :func:`confusion_matrix`, :func:`per_class_rates`, :func:`balanced_accuracy`,
  :func:`multiclass_summary` and :func:`most_confused` (sec. 6.3.3, Fig. 6.4);
  :data:`FIG_6_4_CONFUSION` holds the published 5-class matrix.
* Interpretable systems (sec. 6.4): :func:`add_spurious_feature`, a "tank legend" feature
  that predicts the label in one data set and not in another.

Conventions: class ``+1`` is the class "to be detected"; a threshold ``Theta`` applied to a
discriminant ``g`` predicts ``+1`` where ``g >= Theta`` (scikit-learn's convention, so the
ROC points coincide with ``sklearn.metrics.roc_curve``).
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..validation import COUNT, MATRIX, VECTOR, Array, Interval, Options, validate_args

__all__ = [
    "threshold_predict",
    "ConfusionCounts",
    "confusion_counts",
    "rates",
    "roc_curve",
    "auc_trapezoid",
    "auc_pairs",
    "confusion_matrix",
    "per_class_rates",
    "balanced_accuracy",
    "multiclass_summary",
    "most_confused",
    "FIG_6_4_CONFUSION",
]


class _FourCounts:
    """Constraint for ``counts``: ``TP, FP, TN, FN``, four whole numbers ``>= 0``."""

    def is_satisfied_by(self, value) -> bool:
        try:
            c = np.asarray(value, dtype=float)
        except (TypeError, ValueError):
            return False
        return c.shape == (4,) and bool(np.all(np.isfinite(c)) and np.all(c >= 0)
                                        and np.all(c == np.round(c)))

    def __str__(self) -> str:
        return "four counts TP, FP, TN, FN (whole numbers >= 0)"


# ==================================================================== ROC and AUC

@validate_args(scores=Array(1, allow_inf=True),
               theta=Interval(numbers.Real, None, None, allow_inf=True))
def threshold_predict(scores: np.ndarray, theta: float = 0.0) -> np.ndarray:
    """The biased classifier (6.9): ``+1`` where ``g(xi) >= Theta``, else ``-1``.

    ``Theta -> +infinity`` gives all ``-1`` (the lower-left corner of the ROC),
    ``Theta -> -infinity`` all ``+1`` (upper right); ``Theta = 0`` is the unmodified (6.8).
    Infinite scores and thresholds are allowed (``Theta = +inf`` is the first threshold of
    :func:`roc_curve`); NaN is not.
    """
    return np.where(scores >= theta, 1, -1)


class ConfusionCounts(NamedTuple):
    """The four counts of a two-class working point (sec. 6.3.1)."""

    TP: int
    FP: int
    TN: int
    FN: int


def _binary_truth(y_true, pos_label) -> np.ndarray:
    y_true = np.asarray(y_true)
    if y_true.ndim != 1:
        raise ValueError(f"y_true must be a 1-d array, got shape {y_true.shape}")
    return y_true == pos_label


def confusion_counts(y_true: np.ndarray, y_pred: np.ndarray, *,
                     pos_label: int | str = 1) -> ConfusionCounts:
    """``TP, FP, TN, FN`` with ``pos_label`` the class to be detected.

    A false positive (false alarm) is a negative example predicted positive; a false
    negative is a missed positive.
    """
    t = _binary_truth(y_true, pos_label)
    y_pred = np.asarray(y_pred)
    if y_pred.shape != t.shape:
        raise ValueError(f"y_true has {t.size} labels but y_pred has shape {y_pred.shape}")
    p = y_pred == pos_label
    return ConfusionCounts(int(np.sum(t & p)), int(np.sum(~t & p)), int(np.sum(~t & ~p)),
                           int(np.sum(t & ~p)))


@validate_args(counts=_FourCounts())
def rates(counts: ConfusionCounts | Sequence[int]) -> dict[str, float]:
    """The rates (6.11): ``fpr = FP/(FP+TN)``, ``tpr = TP/(FN+TP)``, ``fnr``, ``tnr``.

    ``tpr`` is the sensitivity and ``tnr`` the specificity; ``tpr + fnr = tnr + fpr = 1``.
    The result also holds ``bac = (tpr + tnr)/2`` (balanced accuracy) and ``accuracy``.
    """
    TP, FP, TN, FN = (int(c) for c in counts)
    if TP + FN == 0:
        raise ValueError("no positive examples: tpr and fnr are undefined")
    if FP + TN == 0:
        raise ValueError("no negative examples: fpr and tnr are undefined")
    tpr, tnr = TP / (TP + FN), TN / (FP + TN)
    return {"tpr": tpr, "fpr": FP / (FP + TN), "tnr": tnr, "fnr": FN / (FN + TP),
            "bac": 0.5 * (tpr + tnr), "accuracy": (TP + TN) / (TP + FP + TN + FN)}


def _check_roc_input(y_true, scores, pos_label) -> tuple[np.ndarray, np.ndarray]:
    t = _binary_truth(y_true, pos_label)       # (scores: finite, checked by validate_args)
    if scores.shape != t.shape:
        raise ValueError(f"y_true has {t.size} labels but there are {scores.size} scores")
    if t.all() or not t.any():
        present = np.unique(np.asarray(y_true))
        raise ValueError(f"ROC needs examples of both classes, but y_true contains only "
                         f"{present.tolist()} (pos_label={pos_label!r})")
    return t, scores


@validate_args(scores=VECTOR)
def roc_curve(y_true: np.ndarray, scores: np.ndarray, *,
              pos_label: int | str = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The receiver operating characteristic: ``(fpr, tpr)`` for every threshold (sec. 6.3.1).

    Sweeps ``Theta`` of (6.9) from ``+infinity`` (everything negative: the point (0, 0))
    down through every distinct score (in decreasing order), the last giving (1, 1).
    The same points as ``sklearn.metrics.roc_curve(..., drop_intermediate=False)``.

    Returns
    -------
    fpr, tpr : arrays (n_thresholds,)
        Non-decreasing, from (0, 0) to (1, 1).
    thresholds : array (n_thresholds,)
        ``inf`` followed by the distinct scores; ``threshold_predict(scores, thresholds[k])``
        gives the working point ``(fpr[k], tpr[k])``.
    """
    t, scores = _check_roc_input(y_true, scores, pos_label)
    order = np.argsort(-scores, kind="mergesort")
    s, tt = scores[order], t[order]
    last = np.r_[np.flatnonzero(np.diff(s) != 0), len(s) - 1]   # end of each block of ties
    tp = np.cumsum(tt)[last]
    fp = (last + 1) - tp
    n_pos, n_neg = int(t.sum()), int((~t).sum())
    return (np.r_[0.0, fp / n_neg], np.r_[0.0, tp / n_pos], np.r_[np.inf, s[last]])


@validate_args(fpr=VECTOR, tpr=VECTOR)
def auc_trapezoid(fpr: np.ndarray, tpr: np.ndarray) -> float:
    """Area under the ROC, ``int_0^1 tpr d(fpr)``, by the trapezoid rule (sec. 6.3.2)."""
    if fpr.shape != tpr.shape or fpr.size < 2:
        raise ValueError("fpr and tpr must have the same length, at least 2")
    if np.any(np.diff(fpr) < 0):
        raise ValueError("fpr must be non-decreasing (pass the points in ROC order)")
    return float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))


@validate_args(scores=VECTOR)
def auc_pairs(y_true: np.ndarray, scores: np.ndarray, *, pos_label: int | str = 1) -> float:
    """AUC as the fraction of correctly ordered (positive, negative) pairs (sec. 6.3.2).

    ``P(g(xi_+) > g(xi_-)) + 1/2 P(g(xi_+) = g(xi_-))`` over all ``n_+ n_-`` pairs: the
    Mann--Whitney statistic divided by ``n_+ n_-``.  Counted exactly with a sort of the
    negative scores (``n log n``) rather than a double loop.
    """
    t, scores = _check_roc_input(y_true, scores, pos_label)
    neg = np.sort(scores[~t])
    pos = scores[t]
    below = np.searchsorted(neg, pos, side="left")
    ties = np.searchsorted(neg, pos, side="right") - below
    pairs = int(below.sum()) + 0.5 * int(ties.sum())
    return float(pairs / (pos.size * neg.size))


# ==================================================================== confusion matrices

@validate_args(normalize=Options(None, "true", "pred", "all"))
def confusion_matrix(y_true: np.ndarray, y_pred: np.ndarray, *, labels: np.ndarray | None = None,
                     normalize: str | None = None) -> np.ndarray:
    """Confusion matrix ``c(i, j)``: examples of true class ``i`` assigned to class ``j``.

    Rows are true classes, columns predicted ones (as in Fig. 6.4 and scikit-learn).

    Parameters
    ----------
    labels : sequence, optional
        Class order (default: the sorted union of ``y_true`` and ``y_pred``).
    normalize : {None, "true", "pred", "all"}
        ``"true"`` divides each row by its class size: the diagonal holds the class-wise
        accuracies (multiply by 100 for percentages as in Fig. 6.4).
    """
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_true.ndim != 1 or y_true.shape != y_pred.shape:
        raise ValueError(f"y_true and y_pred must be 1-d of equal length, "
                         f"got {y_true.shape} and {y_pred.shape}")
    labels = np.unique(np.r_[y_true, y_pred]) if labels is None else np.asarray(labels)
    if len(np.unique(labels)) != len(labels):
        raise ValueError("labels must be distinct")
    index = {lab.item() if isinstance(lab, np.generic) else lab: k for k, lab in enumerate(labels)}
    unknown = set(np.unique(np.r_[y_true, y_pred]).tolist()) - set(index)
    if unknown:
        raise ValueError(f"labels {sorted(unknown)} are not in `labels`")
    i = np.array([index[v] for v in y_true.tolist()], dtype=int)
    j = np.array([index[v] for v in y_pred.tolist()], dtype=int)
    cm = np.zeros((len(labels), len(labels)), dtype=int)
    np.add.at(cm, (i, j), 1)
    if normalize is None:
        return cm
    with np.errstate(invalid="ignore", divide="ignore"):
        if normalize == "true":
            out = cm / cm.sum(axis=1, keepdims=True)
        elif normalize == "pred":
            out = cm / cm.sum(axis=0, keepdims=True)
        else:                                  # "all"
            out = cm / cm.sum()
    return np.nan_to_num(out)


def _check_matrix(cm) -> np.ndarray:
    """``cm`` (a finite matrix, checked by ``validate_args``) as a confusion matrix."""
    if cm.shape[0] != cm.shape[1] or cm.shape[0] < 2:
        raise ValueError(f"a confusion matrix must be square with at least 2 classes, "
                         f"got shape {cm.shape}")
    if np.any(cm < 0):
        raise ValueError("a confusion matrix must have non-negative entries")
    if np.any(cm.sum(axis=1) == 0):
        raise ValueError(f"classes {np.flatnonzero(cm.sum(axis=1) == 0).tolist()} "
                         "have no examples (empty rows)")
    return cm


@validate_args(cm=MATRIX)
def per_class_rates(cm: np.ndarray) -> dict[str, np.ndarray]:
    """Per-class measures from a confusion matrix (counts, or row percentages).

    ``recall`` (class-wise accuracy, the true positive rate of "class k versus the rest")
    is the diagonal of the row-normalised matrix and works for row percentages too.
    ``precision`` and ``f1`` need counts (they mix classes, so they depend on the class
    sizes); for a row-normalised matrix they are those of a balanced test set.
    """
    cm = _check_matrix(cm)
    recall = np.diag(cm) / cm.sum(axis=1)
    col = cm.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(col > 0, np.diag(cm) / col, 0.0)
        f1 = np.where(precision + recall > 0, 2 * precision * recall / (precision + recall), 0.0)
    return {"recall": recall, "precision": precision, "f1": f1}


@validate_args(cm=[MATRIX, None])
def balanced_accuracy(y_true: np.ndarray | None = None, y_pred: np.ndarray | None = None, *,
                      cm: np.ndarray | None = None) -> float:
    """Balanced accuracy: the mean of the class-wise accuracies (sec. 6.3.3).

    Two classes: ``BAC = (tpr + tnr)/2``.  Pass labels, or a confusion matrix ``cm``
    (counts or row percentages; the result is then in the same units divided by the row
    sums, i.e. a fraction).
    """
    if cm is None:
        if y_true is None or y_pred is None:
            raise ValueError("pass y_true and y_pred, or a confusion matrix cm")
        counts = confusion_matrix(y_true, y_pred)
        present = counts.sum(axis=1) > 0         # classes that occur only among the predictions
        return float((np.diag(counts)[present] / counts.sum(axis=1)[present]).mean())
    return float(per_class_rates(cm)["recall"].mean())


@validate_args(cm=MATRIX)
def multiclass_summary(cm: np.ndarray, *, counts: bool = True) -> dict[str, float | np.ndarray]:
    """Point measures of a multi-class working point (sec. 6.3.3).

    ``balanced_accuracy`` (mean class-wise accuracy), ``worst_class_accuracy``,
    per-class ``recall``, and, if ``cm`` holds counts (``counts=True``), the overall
    ``accuracy``, per-class ``precision``, ``f1`` and ``macro_f1``.  For a row-percentage
    matrix such as Fig. 6.4 pass ``counts=False``: the overall accuracy cannot be
    recovered without the class sizes.
    """
    cm = _check_matrix(cm)
    r = per_class_rates(cm)
    out: dict[str, float | np.ndarray] = {
        "balanced_accuracy": float(r["recall"].mean()),
        "worst_class_accuracy": float(r["recall"].min()),
        "recall": r["recall"],
    }
    if counts:
        out.update(accuracy=float(np.trace(cm) / cm.sum()), precision=r["precision"],
                   f1=r["f1"], macro_f1=float(r["f1"].mean()))
    return out


@validate_args(cm=MATRIX, k=COUNT)
def most_confused(cm: np.ndarray, k: int = 5) -> list[tuple[int, int, float]]:
    """The ``k`` largest off-diagonal entries ``(true, predicted, value)`` (0-based classes)."""
    cm = _check_matrix(cm)
    k = int(k)
    off = cm.copy()
    np.fill_diagonal(off, -np.inf)
    flat = np.argsort(-off, axis=None, kind="stable")[:k]
    return [(int(i), int(j), float(cm[i, j])) for i, j in zip(*np.unravel_index(flat, cm.shape))]


#: Biehl's Fig. 6.4: a 5-class confusion matrix in percent (rows: true class, columns:
#: predicted class) from the GAMA galaxy study.  Row 1 sums to 100.1 by rounding.
FIG_6_4_CONFUSION = np.array([
    [63.8, 10.8, 19.3, 5.5, 0.7],
    [3.1, 90.7, 0.1, 1.3, 4.8],
    [18.4, 1.7, 66.1, 13.5, 0.3],
    [2.0, 6.8, 9.3, 73.7, 8.2],
    [1.1, 13.1, 0.1, 14.6, 71.1],
])
FIG_6_4_CONFUSION.setflags(write=False)
