"""Naive Bayes classifiers: categorical (with the m-estimate) and Gaussian.

The naive Bayes assumption ``P(X | Y) = prod_i P(X_i | Y)`` turns the Bayes classifier
``argmax_k P(Y = y_k) prod_i P(X_i = x_i | Y = y_k)`` into one that needs only the class
priors and one small table per feature (the probabilistic-classification slides, after
Mooney).

* :func:`m_estimate` -- ``(n_ijk + m p) / (n_k + m)``; ``m = 0`` gives raw frequencies
  ``n_ijk / n_k`` and ``m = |V_i|, p = 1 / |V_i|`` Laplace's add-one rule;
* :class:`CategoricalNaiveBayes` -- categorical features (numbers or strings), fitted with
  the m-estimate or built from given tables (:meth:`CategoricalNaiveBayes.from_tables`);
* :class:`GaussianNaiveBayes` -- continuous features with a normal density per class and
  feature.

Both are scikit-learn classifiers and compute in log space.  Where a posterior is
undefined -- every class has probability zero, the 0/0 of unsmoothed frequencies -- they
warn with :class:`UndefinedPosteriorWarning` and return NaN probabilities, and
``predict`` raises; a category value never seen in fitting raises, or warns with
:class:`UnseenCategoryWarning` if ``handle_unknown="warn"``.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence

import numpy as np
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._ties import first_argmax
from ..validation import (NON_NEGATIVE, Array, Interval, Options, ParamValidationMixin,
                          check_inputs, validate_args, warn_user)
from .bayes import check_distribution

__all__ = [
    "UndefinedPosteriorWarning",
    "UnseenCategoryWarning",
    "m_estimate",
    "CategoricalNaiveBayes",
    "GaussianNaiveBayes",
]


class UndefinedPosteriorWarning(RuntimeWarning):
    """Every class has probability zero for an input: the posterior is 0/0."""


class UnseenCategoryWarning(UserWarning):
    """An input holds a category value that the model has no probability for."""


@validate_args(count=Array(within=NON_NEGATIVE), total=Array(within=NON_NEGATIVE), m=NON_NEGATIVE,
               p=Array(within=Interval(numbers.Real, 0, 1)))
def m_estimate(count: np.ndarray | float, total: np.ndarray | float, m: float,
               p: np.ndarray | float) -> np.ndarray | float:
    """The m-estimate ``(n_ijk + m p) / (n_k + m)`` of ``P(X_i = x_ij | Y = y_k)``.

    Parameters
    ----------
    count : int or array
        ``n_ijk``, the examples of class ``y_k`` with ``X_i = x_ij``.
    total : int or array
        ``n_k``, the examples of class ``y_k``.
    m : float >= 0
        Equivalent sample size: the estimate behaves as if ``m`` virtual examples with
        value frequency ``p`` had been added.  ``m = 0`` gives the raw frequency.
    p : float or array in [0, 1]
        Prior probability of the value.

    Raises
    ------
    ValueError
        For negative counts, ``count > total``, ``m < 0``, ``p`` outside ``[0, 1]``, and
        for ``n_k + m = 0`` (the estimate is 0/0).
    """
    count = np.asarray(count, dtype=float)
    total = np.asarray(total, dtype=float)
    p = np.asarray(p, dtype=float)
    if np.any(count > total):
        raise ValueError("counts must satisfy 0 <= n_ijk <= n_k")
    if np.any(total + m == 0):
        raise ValueError("n_k + m = 0: with no examples and no smoothing the estimate is 0/0")
    out = (count + m * p) / (total + m)
    return float(out) if out.ndim == 0 else out


def _to_categories(X) -> np.ndarray:
    """Category values as a float array (all numbers) or a unicode string array.

    Object arrays whose entries all convert to numbers are numbers, as in scikit-learn;
    otherwise every entry must be a string or a number and all become strings.
    """
    X = np.asarray(X)
    if X.dtype.kind in "biuf":
        return X.astype(float)
    if X.dtype.kind == "U":
        return X
    if X.dtype.kind == "O":
        try:
            return X.astype(float)
        except (TypeError, ValueError):
            bad = {type(v).__name__ for v in X.ravel() if not isinstance(v, (str, numbers.Number))}
            if bad:
                raise TypeError(f"category values must be numbers or strings, "
                                f"got {sorted(bad)}") from None
            return X.astype(str)
    raise TypeError(f"category values must be numbers or strings, got dtype {X.dtype}")


def _codes(categories: np.ndarray, column: np.ndarray) -> np.ndarray:
    """Position of each value of ``column`` in ``categories`` (all values must occur)."""
    order = np.argsort(categories, kind="stable")
    return order[np.searchsorted(categories[order], column)]


def _log(x):
    with np.errstate(divide="ignore"):
        return np.log(x)


class _CategoryLists:
    """Constraint for ``categories``: a list (or tuple, or array) of value lists, one per feature.

    Only the shape of the argument is checked here; that there is one list per feature and
    that the values fit the data is checked against the data in ``fit``.
    """

    def is_satisfied_by(self, value) -> bool:
        if not isinstance(value, (list, tuple, np.ndarray)):
            return False
        return all(isinstance(values, Iterable) and not isinstance(values, (str, bytes))
                   for values in value)

    def __str__(self) -> str:
        return "a list of category values per feature"


class _NaiveBayesBase(ParamValidationMixin, ClassifierMixin, BaseEstimator):
    """Shared prediction code: ``log P(y) + sum_i log P(x_i | y)`` and its normalisation."""

    def _joint_log_likelihood(self, X) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def predict_joint_log_proba(self, X) -> np.ndarray:
        """``log P(Y = y_k) + sum_i log P(X_i = x_i | Y = y_k)``, shape ``(n, n_classes)``.

        For categorical features this is the log of the unnormalised score of the slides;
        ``-inf`` means a score of exactly zero.
        """
        check_is_fitted(self)
        return self._joint_log_likelihood(X)

    def predict_log_proba(self, X) -> np.ndarray:
        """Log posterior ``log P(Y = y_k | X = x)``; NaN rows where it is undefined (0/0)."""
        jll = self.predict_joint_log_proba(X)
        undefined = np.all(np.isneginf(jll), axis=1)
        out = np.full(jll.shape, np.nan)
        if np.any(~undefined):
            ok = jll[~undefined]
            out[~undefined] = ok - logsumexp(ok, axis=1, keepdims=True)
        if np.any(undefined):
            rows = np.flatnonzero(undefined)
            warn_user(
                f"the posterior is undefined (0/0) for row(s) {rows[:10].tolist()}: every class "
                "has probability zero there (a value never seen with any class); use smoothing "
                "(m > 0) to get a posterior", UndefinedPosteriorWarning)
        return out

    def predict_proba(self, X) -> np.ndarray:
        """Posterior ``P(Y = y_k | X = x)`` (columns in the order of ``classes_``)."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X) -> np.ndarray:
        """The class of largest posterior (the MAP rule; ties go to the first class).

        Raises ``ValueError`` for inputs whose posterior is undefined.
        """
        jll = self.predict_joint_log_proba(X)
        undefined = np.all(np.isneginf(jll), axis=1)
        if np.any(undefined):
            raise ValueError(
                f"cannot classify row(s) {np.flatnonzero(undefined)[:10].tolist()}: "
                "every class has probability zero, so the posterior is undefined (0/0); "
                "use smoothing (m > 0)")
        return self.classes_[first_argmax(jll, axis=1)]


class CategoricalNaiveBayes(_NaiveBayesBase):
    """Naive Bayes for categorical features with the m-estimate of ``P(X_i | Y)``.

    ``P(Y = y_k) = n_k / n`` and
    ``P(X_i = x_ij | Y = y_k) = (n_ijk + m p) / (n_k + m)`` (the slides' m-estimate).

    Parameters
    ----------
    m : float >= 0 or None, default None
        Equivalent sample size.  ``None`` is Laplace's add-one rule: for each feature
        ``m = |V_i|`` and ``p = 1 / |V_i|``, i.e. ``(n_ijk + 1) / (n_k + |V_i|)``.
        ``0`` gives the raw frequencies ``n_ijk / n_k``.
    p : float in (0, 1], sequence of such floats (one per feature), or None
        Prior probability of each value.  ``None`` means ``1 / |V_i|``, the choice for which
        every estimated table sums to one; other choices give tables that sum to
        ``(n_k + m p |V_i|) / (n_k + m)``.  Ignored when ``m`` is ``None`` or 0.
    categories : "auto" or sequence of sequences
        The possible values of each feature.  ``"auto"`` takes the values seen in
        fitting.  Values listed here but absent from the training data get count zero.
    handle_unknown : {"error", "warn"}, default "error"
        What to do with a value outside ``categories_`` at prediction time: raise a
        ``ValueError``, or warn (:class:`UnseenCategoryWarning`) and drop that feature's
        factor for that row -- which is how naive Bayes treats a missing value, because
        summing ``P(X_i = v | Y)`` over all values ``v`` gives one.

    Attributes
    ----------
    classes_ : array (n_classes,)
    categories_ : list of arrays
        The values of each feature.
    class_count_ : array (n_classes,)
        The ``n_k``.
    category_count_ : list of arrays (n_classes, n_values_i)
        The ``n_ijk``.
    class_log_prior_ : array (n_classes,)
    feature_log_prob_ : list of arrays (n_classes, n_values_i)
        ``log P(X_i = x_ij | Y = y_k)``.
    m_, p_ : array (n_features,)
        The ``m`` and ``p`` used for each feature.

    References
    ----------
    .. [1] Mooney, R. J. *Probabilistic Classification*, lecture slides, slides on naive Bayes
       and the m-estimate. (bib key: mooney_probabilistic)

    Examples
    --------
    >>> from lecture_pkg.datasets import naive_bayes_training_set
    >>> from lecture_pkg.probabilistic import CategoricalNaiveBayes
    >>> X, y = naive_bayes_training_set()
    >>> clf = CategoricalNaiveBayes().fit(X, y)
    >>> clf.predict([["small", "red", "circle"]]).tolist()
    ['positive']
    """

    _parameter_constraints = {
        "m": [None, NON_NEGATIVE],
        "p": [None, Interval(numbers.Real, 0, 1, closed="right"), "array-like"],
        "categories": [Options("auto"), _CategoryLists()],
        "handle_unknown": [Options("error", "warn")],
    }

    def __init__(self, m: float | None = None, p: float | Sequence | None = None,
                 categories: str | Sequence[Sequence] = "auto",
                 handle_unknown: str = "error") -> None:
        self.m = m
        self.p = p
        self.categories = categories
        self.handle_unknown = handle_unknown

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags

    # -- parameters
    def _check_parameter_combination(self) -> None:
        """What the table cannot say about an array ``p``: its entries lie in (0, 1]."""
        if isinstance(self.p, (list, tuple, np.ndarray)):
            p = np.asarray(self.p, dtype=float)
            if p.ndim > 1 or np.any(~(p > 0)) or np.any(p > 1):
                raise ValueError(f"{type(self).__name__}: the parameter 'p' must be None, "
                                 f"a number in (0, 1] or one such number per feature; "
                                 f"got {self.p!r}")

    def _check_p_length(self, n_features: int) -> None:
        """An array ``p`` holds one value, or one per feature (known only from the data)."""
        if self.p is not None:
            p = np.atleast_1d(np.asarray(self.p, dtype=float))
            if p.shape not in ((1,), (n_features,)):
                raise ValueError(f"{type(self).__name__}: p must be a single number or one per "
                                 f"feature ({n_features}); got {p.size} values")

    def _resolve_categories(self, X) -> list[np.ndarray]:
        if isinstance(self.categories, str) and self.categories == "auto":
            return [np.unique(X[:, i]) for i in range(X.shape[1])]
        if isinstance(self.categories, str) or len(self.categories) != X.shape[1]:
            raise ValueError(f"categories must be 'auto' or one list of values per feature "
                             f"({X.shape[1]})")
        cats = []
        for i, values in enumerate(self.categories):
            values = _to_categories(np.asarray(list(values), dtype=object))
            if values.dtype.kind != X.dtype.kind:
                raise ValueError(f"the categories of feature {i} and the data are not of the same "
                                 "kind (numbers vs strings)")
            if len(np.unique(values)) != len(values):
                raise ValueError(f"the categories of feature {i} list a value twice")
            unknown = np.setdiff1d(X[:, i], values)
            if unknown.size:
                raise ValueError(f"feature {i} has values {unknown[:5].tolist()} "
                                 f"that are not among its categories {values.tolist()}")
            cats.append(values)
        return cats

    def _resolve_m_p(self, n_features: int) -> tuple[np.ndarray, np.ndarray]:
        sizes = np.array([len(c) for c in self.categories_], dtype=float)
        if self.m is None:
            return sizes, 1.0 / sizes
        m = np.full(n_features, float(self.m))
        if self.p is None:
            p = 1.0 / sizes
        else:
            p = np.broadcast_to(np.atleast_1d(np.asarray(self.p, dtype=float)),
                                (n_features,)).copy()
        return m, p

    # -- fitting
    def fit(self, X: np.ndarray, y: np.ndarray) -> CategoricalNaiveBayes:
        """Count ``n_k`` and ``n_ijk`` and form the m-estimates."""
        X, y = validate_data(self, X, y, dtype=None)
        check_classification_targets(y)
        self._check_p_length(X.shape[1])
        X = _to_categories(X)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        self.categories_ = self._resolve_categories(X)
        n_classes = len(self.classes_)
        self.class_count_ = np.bincount(y_index, minlength=n_classes).astype(float)
        self.class_log_prior_ = np.log(self.class_count_ / self.class_count_.sum())
        self.category_count_ = []
        for i, cats in enumerate(self.categories_):
            codes = _codes(cats, X[:, i])
            counts = np.zeros((n_classes, len(cats)))
            np.add.at(counts, (y_index, codes), 1.0)
            self.category_count_.append(counts)
        self.m_, self.p_ = self._resolve_m_p(X.shape[1])
        self.feature_log_prob_ = [
            _log(m_estimate(c, self.class_count_[:, None], float(m), float(p)))
            for c, m, p in zip(self.category_count_, self.m_, self.p_)
        ]
        return self

    @classmethod
    def from_tables(cls, classes: Sequence, prior: Sequence[float] | np.ndarray,
                    categories: Sequence[Sequence], conditionals: Sequence, *,
                    handle_unknown: str = "error") -> CategoricalNaiveBayes:
        """A fitted classifier from given tables (no training data).

        Parameters
        ----------
        classes : sequence
            The class labels.
        prior : array (n_classes,)
            ``P(Y = classes[k])``.
        categories : sequence of sequences
            One sequence of values per feature.
        conditionals : sequence of arrays (n_classes, n_values_i)
            One array per feature, with
            ``conditionals[i][k, j] = P(X_i = categories[i][j] | Y = classes[k])``.
            Each row must be a distribution.
        """
        classes = np.asarray(classes)
        if len(np.unique(classes)) != len(classes):
            raise ValueError("the classes must be distinct")
        prior = check_distribution(prior, "the class priors P(Y)")
        if prior.shape != (len(classes),):
            raise ValueError(f"{len(classes)} classes but {prior.size} prior probabilities")
        if len(conditionals) != len(categories):
            raise ValueError(f"{len(categories)} features but {len(conditionals)} tables")
        order = np.argsort(classes, kind="stable")           # scikit-learn sorts classes_
        cats, tables = [], []
        for i, (values, table) in enumerate(zip(categories, conditionals)):
            values = _to_categories(np.asarray(list(values), dtype=object))
            if len(np.unique(values)) != len(values):
                raise ValueError(f"the categories of feature {i} list a value twice")
            table = np.asarray(table, dtype=float)
            if table.shape != (len(classes), len(values)):
                raise ValueError(f"the table of feature {i} has shape {table.shape}, expected "
                                 f"{(len(classes), len(values))}")
            check_distribution(table, f"P(X_{i} | Y)", axis=1)
            cats.append(values)
            tables.append(table[order])
        model = cls(m=0, categories=[c.tolist() for c in cats], handle_unknown=handle_unknown)
        model._validate_params()
        model.classes_ = classes[order]
        model.categories_ = cats
        model.class_log_prior_ = _log(prior[order])
        model.feature_log_prob_ = [_log(t) for t in tables]
        model.n_features_in_ = len(cats)
        return model

    # -- prediction
    def _joint_log_likelihood(self, X) -> np.ndarray:
        X = validate_data(self, X, dtype=None, reset=False)
        X = _to_categories(X)
        jll = np.tile(self.class_log_prior_, (X.shape[0], 1))
        for i, (cats, logp) in enumerate(zip(self.categories_, self.feature_log_prob_)):
            col = X[:, i]
            known = np.isin(col, cats) if cats.dtype.kind == col.dtype.kind else \
                np.zeros(len(col), dtype=bool)
            if not known.all():
                unseen = np.unique(col[~known])[:5].tolist()
                if self.handle_unknown == "error":
                    raise ValueError(
                        f"feature {i} has value(s) {unseen} not seen in fitting (categories: "
                        f"{cats[:10].tolist()}); pass handle_unknown='warn' to drop that feature's "
                        "factor for those rows")
                warn_user(f"feature {i} has value(s) {unseen} not seen in fitting; their "
                          "factor is left out (treated as missing)", UnseenCategoryWarning)
            codes = np.zeros(len(col), dtype=int)
            if known.any():
                codes[known] = _codes(cats, col[known])
            jll[known] += logp[:, codes[known]].T
        return jll

    def joint_scores(self, X: np.ndarray) -> np.ndarray:
        """The slides' unnormalised scores ``P(y_k) prod_i P(x_i | y_k)``, shape (n, n_classes)."""
        return np.exp(self.predict_joint_log_proba(X))

    def feature_tables(self) -> list[np.ndarray]:
        """The estimated ``P(X_i = x_ij | Y = y_k)`` as probabilities (one array per feature)."""
        check_is_fitted(self)
        return [np.exp(t) for t in self.feature_log_prob_]


class GaussianNaiveBayes(_NaiveBayesBase):
    """Naive Bayes with a normal density per class and feature.

    ``p(x_i | y_k) = exp(-(x_i - mu_ik)^2 / (2 sigma_ik^2)) / (sigma_ik sqrt(2 pi))``,
    with the class means ``mu_ik`` and the maximum-likelihood variances (``ddof = 0``) of
    the class-``k`` data; priors are class frequencies unless given.

    Parameters
    ----------
    var_smoothing : float >= 0, default 1e-9
        Adds ``var_smoothing * max_i var(x_i)`` (largest variance over all data) to every
        variance, as scikit-learn's ``GaussianNB`` does.  ``0`` gives the plain estimates
        of the slides; a feature that is constant within a class then makes its density
        undefined, which raises a ``ValueError``.
    priors : array (n_classes,) or None
        Fixed class priors instead of the class frequencies.

    Attributes
    ----------
    classes_, class_count_, class_prior_ : array (n_classes,)
        As for scikit-learn's ``GaussianNB``.
    theta_ : array (n_classes, n_features)
        The means ``mu_ik``.
    var_ : array (n_classes, n_features)
        The variances ``sigma_ik^2`` (plus ``epsilon_``).
    epsilon_ : float
        The added variance.

    References
    ----------
    .. [1] Mooney, R. J. *Probabilistic Classification*, lecture slides, slide on naive Bayes
       for continuous features (Gaussian). (bib key: mooney_probabilistic)
    .. [2] Pedregosa, F. et al. (2011). Scikit-learn: Machine Learning in Python. *JMLR* 12,
       2825--2830 (``GaussianNB``, whose ``var_smoothing`` is followed here).
       (bib key: pedregosa2011scikit)

    Examples
    --------
    >>> from lecture_pkg.datasets import koski_example
    >>> from lecture_pkg.probabilistic import GaussianNaiveBayes
    >>> X, y = koski_example()
    >>> clf = GaussianNaiveBayes().fit(X, y)
    >>> clf.score(X, y)
    1.0
    """

    _parameter_constraints = {
        "var_smoothing": [NON_NEGATIVE],
        "priors": [None, "array-like"],
    }

    def __init__(self, var_smoothing: float = 1e-9,
                 priors: Sequence[float] | np.ndarray | None = None) -> None:
        self.var_smoothing = var_smoothing
        self.priors = priors

    def fit(self, X: np.ndarray, y: np.ndarray) -> GaussianNaiveBayes:
        """Class means, variances (ddof = 0) and priors."""
        X, y = validate_data(self, X, y, dtype=np.float64)
        X = check_inputs(X)                                # squares that overflow are refused
        check_classification_targets(y)
        self.classes_, y_index = np.unique(y, return_inverse=True)
        n_classes = len(self.classes_)
        if self.priors is None:
            self.class_count_ = np.bincount(y_index, minlength=n_classes).astype(float)
            self.class_prior_ = self.class_count_ / self.class_count_.sum()
        else:
            priors = check_distribution(self.priors, "the class priors")
            if priors.shape != (n_classes,):
                raise ValueError(f"{priors.size} priors given for {n_classes} classes")
            self.class_count_ = np.bincount(y_index, minlength=n_classes).astype(float)
            self.class_prior_ = priors
        if X.shape[0] == 1:
            raise ValueError("cannot estimate variances from 1 sample")
        onehot = np.eye(n_classes)[y_index]                        # (n, K)
        self.theta_ = (onehot.T @ X) / self.class_count_[:, None]
        self.epsilon_ = float(self.var_smoothing * X.var(axis=0).max())
        self.var_ = (np.array([X[y_index == k].var(axis=0) for k in range(n_classes)])
                     + self.epsilon_)
        zero = self.var_ <= 0
        if np.any(zero):
            k, i = np.argwhere(zero)[0]
            if np.all(X.var(axis=0) == 0):
                raise ValueError("every feature is constant over the training data, so all "
                                 "variances are zero and the normal densities are undefined")
            raise ValueError(
                f"feature {i} is constant within class {self.classes_[k].tolist()!r} "
                "(variance zero), so its normal density is undefined; use var_smoothing > 0")
        return self

    def _joint_log_likelihood(self, X) -> np.ndarray:
        X = validate_data(self, X, dtype=np.float64, reset=False)
        log_norm = -0.5 * np.log(2 * np.pi * self.var_).sum(axis=1)               # (K,)
        quad = ((X[:, None, :] - self.theta_[None]) ** 2 / self.var_[None]).sum(axis=2)  # (n, K)
        with np.errstate(divide="ignore"):
            log_prior = np.log(self.class_prior_)
        return log_prior + log_norm - 0.5 * quad
