"""Linear regression: least squares, ridge, maximum likelihood, MAP and the Bayesian posterior.

The one place in ``lecture_pkg`` for linear regression (Biehl's lecture notes, section
2.4.2; reused by the probabilistic-classification and Adaline chapters).

Conventions: inputs ``X`` of shape ``(P, N)`` (one example per row, Biehl's eq. 2.7),
targets ``y`` of shape ``(P,)``, hypothesis ``f(xi) = w . xi`` (eq. 2.3).

* :func:`add_clamped_input` -- a constant input ``-1`` makes a threshold one more weight (eq. 2.4);
* :func:`sse`, :func:`sse_gradient` -- ``E = 1/2 sum (w.xi - y)^2`` and its gradient
  (eqs. 2.5, 2.6);
* :func:`least_squares` -- ``w* = X^+ y`` (eq. 2.8), the minimum-norm solution when it is not
  unique;
* :func:`ridge`, :func:`ridge_path` -- ``w_lambda = [X^T X + lambda I]^-1 X^T y`` (eqs. 2.9, 2.10,
  where Biehl calls the penalty ``gamma``);
* :func:`log_likelihood`, :func:`log_prior`, :func:`log_posterior` -- the Gaussian model
  (eqs. 2.11--2.15) and their gradients;
* :func:`map_estimate` -- the maximum a posteriori weights, ridge with
  ``lambda = sigma^2/tau^2`` (eq. 2.16);
* :func:`bayes_posterior`, :func:`posterior_predictive` -- the full Gaussian posterior of the
  weights and the predictive distribution (eq. 2.17);
* :class:`RidgeRegression`, :class:`BayesianLinearRegression` -- the same as scikit-learn
  regressors (``fit_intercept`` uses the clamped input);
* :func:`synthetic_hubble` -- example data in the spirit of Hubble's 1929 diagram (eq. 2.1).
"""

from __future__ import annotations


from collections.abc import Sequence

import numpy as np
from scipy.linalg import cho_factor, cho_solve
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

import numbers

from ..validation import (MATRIX, NON_NEGATIVE, NON_ZERO, POSITIVE, VECTOR, Array, Interval,
                          ParamValidationMixin, check_inputs, validate_args)

__all__ = [
    "add_clamped_input",
    "sse",
    "sse_gradient",
    "least_squares",
    "ridge",
    "ridge_path",
    "residual_variance",
    "log_likelihood",
    "log_likelihood_gradient",
    "log_prior",
    "log_posterior",
    "log_posterior_gradient",
    "map_estimate",
    "bayes_posterior",
    "posterior_predictive",
    "RidgeRegression",
    "BayesianLinearRegression",
]


# ---------------------------------------------------------------- validation

# the data: inputs X (P, N) and one finite target per row
_DATA = dict(X=MATRIX, y=Array(1, rows_of="X"))


def _as_weights(w, n_features: int) -> np.ndarray:
    w = np.asarray(w, dtype=float)
    if w.shape != (n_features,):
        raise ValueError(f"weights have shape {w.shape}, expected ({n_features},)")
    return w


# ---------------------------------------------------------------- the heuristic approach

@validate_args(X=MATRIX, value=NON_ZERO)
def add_clamped_input(X: np.ndarray, value: float = -1.0) -> np.ndarray:
    """Append a constant input to every example, Biehl eq. (2.4).

    With ``xi~ = (xi_1, ..., xi_N, -1)`` and ``w~ = (w_1, ..., w_N, theta)`` one has
    ``w~ . xi~ = w . xi - theta``: a hypothesis with a constant term becomes a
    homogeneous one in ``N + 1`` dimensions.  The notes clamp the input to ``-1`` (the
    extra weight is then the threshold ``theta``); ``value=1`` gives the usual intercept
    ``b = w_{N+1}``.
    """
    return np.hstack([X, np.full((X.shape[0], 1), float(value))])


@validate_args(w=VECTOR, **_DATA)
def sse(w: np.ndarray, X: np.ndarray, y: np.ndarray) -> float:
    """Sum of squared errors ``E = 1/2 sum_mu (w . xi^mu - y^mu)^2``, Biehl eq. (2.5)."""
    r = X @ _as_weights(w, X.shape[1]) - y
    return 0.5 * float(r @ r)


@validate_args(w=VECTOR, **_DATA)
def sse_gradient(w: np.ndarray, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Gradient ``sum_mu (w . xi^mu - y^mu) xi^mu = X^T (X w - y)``, Biehl eq. (2.6)."""
    return X.T @ (X @ _as_weights(w, X.shape[1]) - y)


@validate_args(**_DATA)
def least_squares(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least-squares weights ``w* = X^+ y``, Biehl eq. (2.8).

    Solves the normal equations ``X^T (X w - y) = 0`` with ``numpy.linalg.lstsq`` (an SVD),
    never by inverting ``X^T X``.

    Notes
    -----
    The textbook form ``w* = [X^T X]^-1 X^T y`` needs ``X^T X`` to be invertible, that is
    ``rank X = N`` (so ``P >= N``).  When it is singular -- fewer examples than features,
    or linearly dependent features -- the SSE has a whole affine space of minimisers.
    This function then returns the one of smallest norm, ``X^+ y`` with the Moore--Penrose
    pseudo-inverse ``X^+``; no error is raised.  It is the limit of :func:`ridge` for
    ``lambda -> 0+`` and the solution Adaline converges to from zero weights.
    """
    return np.linalg.lstsq(X, y, rcond=None)[0]


def _svd(X):
    U, s, Vt = np.linalg.svd(X, full_matrices=False)
    return U, s, Vt


@validate_args(**_DATA, lam=NON_NEGATIVE)
def ridge(X: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """Ridge (weight-decay) weights ``w_lambda = [X^T X + lambda I]^-1 X^T y``, Biehl eq. (2.9).

    They minimise ``E_lambda = 1/2 sum_mu (w . xi^mu - y^mu)^2 + lambda/2 |w|^2`` (eq. 2.10,
    Biehl's ``gamma``); ``lam`` is the penalty ``lambda``.  For every ``lambda > 0`` the
    matrix is invertible, whatever ``P`` and ``N``.  Computed from the SVD
    ``X = U diag(s) V^T`` as ``V diag(s / (s^2 + lambda)) U^T y``, which stays accurate for
    tiny ``lambda``.  ``lam = 0`` gives :func:`least_squares`.
    """
    return ridge_path(X, y, [lam])[0]


@validate_args(**_DATA, lams=Array(within=NON_NEGATIVE))
def ridge_path(X: np.ndarray, y: np.ndarray, lams: Sequence[float] | np.ndarray) -> np.ndarray:
    """Ridge weights for several penalties ``lambda`` at once, shape ``(len(lams), N)``
    (one SVD)."""
    lams = np.atleast_1d(np.asarray(lams, dtype=float))
    if lams.ndim != 1:
        raise ValueError(f"ridge_path: lams must be a number or a 1-d array, got shape "
                         f"{lams.shape}")
    U, s, Vt = _svd(X)
    uty = U.T @ y
    tol = s.max(initial=0.0) * max(X.shape) * np.finfo(float).eps
    with np.errstate(divide="ignore", invalid="ignore"):
        factors = np.where(s[None, :] > tol, s[None, :] / (s[None, :] ** 2 + lams[:, None]), 0.0)
    return (factors * uty[None, :]) @ Vt


@validate_args(w=VECTOR, **_DATA, ddof=Interval(numbers.Integral, 0, None))
def residual_variance(w: np.ndarray, X: np.ndarray, y: np.ndarray, *, ddof: int = 0) -> float:
    """Mean squared residual ``sum (y - X w)^2 / (P - ddof)``.

    ``ddof=0`` is the maximum-likelihood estimate of the noise variance ``sigma^2`` of the
    Gaussian model (2.11); ``ddof = N`` (the number of fitted weights) gives the unbiased one.
    """
    if ddof >= len(y):
        raise ValueError(f"ddof must lie in [0, P) = [0, {len(y)}), got {ddof}")
    r = y - X @ _as_weights(w, X.shape[1])
    return float(r @ r) / (len(y) - ddof)


# ---------------------------------------------------------------- the statistical model

@validate_args(w=VECTOR, **_DATA, sigma=POSITIVE)
def log_likelihood(w: np.ndarray, X: np.ndarray, y: np.ndarray, sigma: float) -> float:
    """Log-likelihood of the Gaussian model ``y = w . xi + sigma eta``, Biehl eq. (2.13).

    ``log p(D | w) = -P/2 log(2 pi sigma^2) - E^SSE(w) / sigma^2``.
    """
    sigma = float(sigma)
    return -0.5 * len(y) * np.log(2 * np.pi * sigma**2) - sse(w, X, y) / sigma**2


@validate_args(w=VECTOR, **_DATA, sigma=POSITIVE)
def log_likelihood_gradient(w: np.ndarray, X: np.ndarray, y: np.ndarray,
                            sigma: float) -> np.ndarray:
    """Gradient of :func:`log_likelihood` with respect to ``w``: ``-X^T (X w - y) / sigma^2``."""
    sigma = float(sigma)
    return -sse_gradient(w, X, y) / sigma**2


@validate_args(w=VECTOR, tau=POSITIVE)
def log_prior(w: np.ndarray, tau: float) -> float:
    """Normalised Gaussian prior ``p_0(w) ~ exp(-|w|^2 / (2 tau^2))``, Biehl eq. (2.14)."""
    tau = float(tau)
    return -0.5 * w.size * np.log(2 * np.pi * tau**2) - float(w @ w) / (2 * tau**2)


@validate_args(w=VECTOR, **_DATA, sigma=POSITIVE, tau=POSITIVE)
def log_posterior(w: np.ndarray, X: np.ndarray, y: np.ndarray, sigma: float, tau: float) -> float:
    """Unnormalised log-posterior ``log p(D | w) + log p_0(w)`` (Bayes' theorem, eq. 2.15).

    Multiplied by ``sigma^2`` it is ``-E^SSE - lambda/2 |w|^2 + const`` with
    ``lambda = sigma^2 / tau^2`` (eq. 2.16).
    """
    return log_likelihood(w, X, y, sigma) + log_prior(w, tau)


@validate_args(w=VECTOR, **_DATA, sigma=POSITIVE, tau=POSITIVE)
def log_posterior_gradient(w: np.ndarray, X: np.ndarray, y: np.ndarray, sigma: float,
                           tau: float) -> np.ndarray:
    """Gradient of :func:`log_posterior`: ``-X^T (X w - y)/sigma^2 - w/tau^2``."""
    return log_likelihood_gradient(w, X, y, sigma) - w / float(tau)**2


@validate_args(**_DATA, sigma=POSITIVE, tau=POSITIVE)
def map_estimate(X: np.ndarray, y: np.ndarray, sigma: float, tau: float) -> np.ndarray:
    """Maximum a posteriori weights for the Gaussian model and prior, Biehl eq. (2.16).

    Equal to :func:`ridge` with ``lam = sigma^2 / tau^2``: a broad prior (large ``tau``)
    or little noise means little weight decay.
    """
    sigma, tau = float(sigma), float(tau)
    return ridge(X, y, sigma**2 / tau**2)


@validate_args(**_DATA, sigma=POSITIVE, tau=POSITIVE)
def bayes_posterior(X: np.ndarray, y: np.ndarray, sigma: float,
                    tau: float) -> tuple[np.ndarray, np.ndarray]:
    """Posterior ``p(w | D) = N(w | m, Sigma)`` of the Gaussian model, Biehl eqs. (2.11)--(2.15).

    ``Sigma^-1 = I / tau^2 + X^T X / sigma^2`` and ``m = Sigma X^T y / sigma^2``; the mean
    ``m`` is the MAP estimate (the posterior is Gaussian, so mean and mode coincide).

    Returns
    -------
    mean : array (N,)
    cov : array (N, N)
    """
    sigma, tau = float(sigma), float(tau)
    precision = X.T @ X / sigma**2 + np.eye(X.shape[1]) / tau**2
    factor = cho_factor(precision)
    cov = cho_solve(factor, np.eye(X.shape[1]))
    mean = cho_solve(factor, X.T @ y / sigma**2)
    return mean, 0.5 * (cov + cov.T)


@validate_args(X_new=MATRIX, mean=VECTOR, cov=MATRIX, sigma=POSITIVE)
def posterior_predictive(X_new: np.ndarray, mean: np.ndarray, cov: np.ndarray,
                         sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """Posterior predictive ``p(y | xi, D)`` of eq. (2.17) for the Gaussian model.

    Integrating the model over the Gaussian posterior ``N(m, Sigma)`` gives a Gaussian with
    mean ``m . xi`` and variance ``sigma^2 + xi^T Sigma xi``: the noise plus the
    uncertainty about the weights, which shrinks as data accumulate.

    Returns
    -------
    mean, variance : arrays (P_new,)
    """
    sigma = float(sigma)
    mean = _as_weights(mean, X_new.shape[1])
    if cov.shape != (X_new.shape[1], X_new.shape[1]):
        raise ValueError(f"cov has shape {cov.shape}, expected {(X_new.shape[1],) * 2}")
    var = sigma**2 + np.einsum("pi,ij,pj->p", X_new, cov, X_new)
    return X_new @ mean, var


# ---------------------------------------------------------------- estimators

class _ClampedInputRegressor(ParamValidationMixin, RegressorMixin, BaseEstimator):
    """What the two regressors share: the clamped input ``-1`` of eq. (2.4) and its weight."""

    def _clamped_data(self, X, y):
        """Check the data; return ``X``, float ``y`` and the inputs to fit."""
        X, y = validate_data(self, X, y, y_numeric=True)
        X = check_inputs(X)                                # squares that overflow are refused
        return X, y.astype(float), add_clamped_input(X) if self.fit_intercept else X

    def _store_weights(self, w, n_features):
        """Split the fitted (augmented) weights into ``coef_`` and ``intercept_ = -theta``."""
        self.coef_ = w[:n_features]
        self.intercept_ = float(-w[-1]) if self.fit_intercept else 0.0


class RidgeRegression(_ClampedInputRegressor):
    """Least squares (``lam = 0``, eq. 2.8) or ridge regression (``lam > 0``, eq. 2.9).

    Parameters
    ----------
    lam : float, default 0.0
        Weight decay ``lambda >= 0`` of eq. (2.10).  With ``lam = 0`` and fewer examples
        than weights the minimum-norm solution is returned.
    fit_intercept : bool, default True
        Add the clamped input ``-1`` of eq. (2.4); its weight is the threshold ``theta`` and
        ``intercept_ = -theta``.  As in the notes, the threshold is one more weight and is
        penalised by ``lambda`` like the others (scikit-learn's ``Ridge`` leaves its
        intercept unpenalised, so the two agree for ``lam = 0`` only).

    Attributes
    ----------
    coef_ : array (n_features,)
    intercept_ : float

    References
    ----------
    .. [1] Biehl, M. (2019). *Supervised Learning -- An Introduction*. Machine Learning Reports
       01/2019, §2.4.2, eqs. (2.4)--(2.10). (bib key: biehl2019supervised)

    Examples
    --------
    >>> import numpy as np
    >>> from lecture_pkg.learning import RidgeRegression
    >>> X, y = np.array([[0.0], [1.0], [2.0]]), np.array([1.0, 3.0, 5.0])
    >>> reg = RidgeRegression().fit(X, y)
    >>> reg.coef_.round(6), round(reg.intercept_, 6)
    (array([2.]), 1.0)
    """

    _parameter_constraints = {
        "lam": [NON_NEGATIVE],
        "fit_intercept": ["boolean"],
    }

    def __init__(self, lam: float = 0.0, fit_intercept: bool = True) -> None:
        self.lam = lam
        self.fit_intercept = fit_intercept

    def fit(self, X: np.ndarray, y: np.ndarray) -> RidgeRegression:
        """Fit the least-squares (eq. 2.8) or ridge (eq. 2.9) weights to ``X`` and ``y``.

        Parameters
        ----------
        X : array (P, N)
            The inputs, one example per row.
        y : array (P,)
            The real-valued targets.

        Returns
        -------
        self : RidgeRegression
            The fitted estimator.
        """
        X, y, Xa = self._clamped_data(X, y)
        self._store_weights(ridge(Xa, y, float(self.lam)), X.shape[1])
        return self

    def predict(self, X: np.ndarray) -> np.ndarray:
        """The predictions ``X w + b`` of the fitted linear model.

        Parameters
        ----------
        X : array (P, N)
            The inputs, one example per row.

        Returns
        -------
        array (P,)
            The predicted targets.
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return X @ self.coef_ + self.intercept_


class BayesianLinearRegression(_ClampedInputRegressor):
    """Bayesian linear regression with Gaussian noise ``sigma`` and prior width ``tau``.

    The model ``y = w . xi + sigma eta`` (eq. 2.11) with prior ``w ~ N(0, tau^2 I)``
    (eq. 2.14); ``sigma`` and ``tau`` are fixed, as in the notes.  ``fit`` computes the
    Gaussian posterior (:func:`bayes_posterior`), ``predict`` its mean (the MAP / ridge
    prediction with ``lambda = sigma^2/tau^2``) and, with ``return_std=True``, the standard
    deviation of the posterior predictive distribution (eq. 2.17).

    Parameters
    ----------
    sigma : float, default 1.0
        The standard deviation ``sigma`` of the Gaussian noise (eq. 2.11).
    tau : float, default 1.0
        The width (standard deviation) ``tau`` of the Gaussian prior on the weights (eq. 2.14).
    fit_intercept : bool, default True
        Clamped input ``-1`` (eq. 2.4); the threshold gets the same prior as the weights.

    Attributes
    ----------
    coef_, intercept_ : array (n_features,) and float
        Posterior mean of the weights and the intercept ``-theta``.
    posterior_mean_, posterior_cov_ : array (D,) and array (D, D)
        Mean and covariance of the posterior of the (augmented) weight vector.

    References
    ----------
    .. [1] Biehl, M. (2019). *Supervised Learning -- An Introduction*. Machine Learning Reports
       01/2019, §2.4.2, eqs. (2.11)--(2.17). (bib key: biehl2019supervised)
    .. [2] Bishop, C. M. (2006). *Pattern Recognition and Machine Learning*, §3.3. Springer.
       (bib key: bishop2006pattern)

    Examples
    --------
    >>> import numpy as np
    >>> from lecture_pkg.learning import BayesianLinearRegression
    >>> X, y = np.array([[0.0], [1.0], [2.0]]), np.array([1.0, 3.0, 5.0])
    >>> reg = BayesianLinearRegression(sigma=0.1, tau=10.0).fit(X, y)
    >>> mean, std = reg.predict([[3.0]], return_std=True)
    >>> mean.round(2), bool(0 < std[0] < 1)
    (array([7.]), True)
    """

    _parameter_constraints = {
        "sigma": [POSITIVE],
        "tau": [POSITIVE],
        "fit_intercept": ["boolean"],
    }

    def __init__(self, sigma: float = 1.0, tau: float = 1.0, fit_intercept: bool = True) -> None:
        self.sigma = sigma
        self.tau = tau
        self.fit_intercept = fit_intercept

    def fit(self, X: np.ndarray, y: np.ndarray) -> BayesianLinearRegression:
        """Compute the Gaussian posterior of the weights (:func:`bayes_posterior`).

        Parameters
        ----------
        X : array (P, N)
            The inputs, one example per row.
        y : array (P,)
            The real-valued targets.

        Returns
        -------
        self : BayesianLinearRegression
            The fitted estimator.
        """
        X, y, Xa = self._clamped_data(X, y)
        self.posterior_mean_, self.posterior_cov_ = bayes_posterior(Xa, y, self.sigma, self.tau)
        self._store_weights(self.posterior_mean_, X.shape[1])
        return self

    def predict(self, X: np.ndarray,
                return_std: bool = False) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
        """The posterior mean prediction and, optionally, its standard deviation (eq. 2.17).

        Parameters
        ----------
        X : array (P, N)
            The inputs, one example per row.
        return_std : bool, default False
            Also return the standard deviation of the posterior predictive distribution
            (:func:`posterior_predictive`), which includes the noise ``sigma``.

        Returns
        -------
        mean : array (P,)
            The mean of the posterior predictive distribution (the MAP prediction).
        std : array (P,)
            Its standard deviation; only with ``return_std=True``.
        """
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        Xa = add_clamped_input(X) if self.fit_intercept else X
        mean, var = posterior_predictive(Xa, self.posterior_mean_, self.posterior_cov_, self.sigma)
        return (mean, np.sqrt(var)) if return_std else mean
