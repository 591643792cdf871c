"""Input and hyper-parameter checks shared by the modules of lecture_pkg.

Plain functions (the estimators use scikit-learn's ``validate_data`` for their data) that
turn bad input into a clear ``ValueError`` naming the problem, and a small local version
of scikit-learn's parameter constraints (theirs is private): each estimator declares the
valid range of every hyper-parameter in one table, ``_parameter_constraints``, and
:func:`check_params` checks the table once when ``fit`` starts.  NaN is never valid and
infinity only where the table says so.  The estimators' bases inherit
:class:`ParamValidationMixin`, which runs that check (and the rules that tie two parameters
together) before every ``fit`` and ``partial_fit``, as scikit-learn's ``_fit_context`` does.

:func:`warn_user` issues the package's warnings with a ``stacklevel`` that points at the
user's own call, however deep inside the package the warning is raised.
"""

from __future__ import annotations

import functools
import numbers
import os
import sys
import warnings

import numpy as np

__all__ = ["as_plus_minus", "check_inputs", "check_vector", "check_positive_int", "resolve_rng",
           "Interval", "Options", "check_params", "ParamValidationMixin", "check_scalar",
           "check_counts", "warn_user",
           "FINITE", "POSITIVE", "POSITIVE_OR_INF", "NON_NEGATIVE", "COUNT", "NON_ZERO"]


def as_plus_minus(y: np.ndarray) -> np.ndarray:
    """Check that ``y`` holds only the labels ``+1`` and ``-1`` and return it as floats.

    The plain functions of lecture_pkg work with ``+-1`` labels; the estimators accept
    any two labels and map them themselves.
    """
    y = np.asarray(y, dtype=float)
    if y.ndim != 1:
        raise ValueError(f"labels must be a 1-d array, got shape {y.shape}")
    bad = ~np.isin(y, (-1.0, 1.0))
    if bad.any():
        raise ValueError(
            f"labels must be +1 or -1; found {np.unique(y[bad])[:5]} "
            "(the estimators accept other label values)"
        )
    return y


def _as_floats(values, name: str) -> np.ndarray:
    """``values`` as a float array, or a ``ValueError`` naming ``name`` if they are not numbers."""
    try:
        return np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an array of numbers, got {values!r}"[:300]) from None


def check_inputs(X: np.ndarray, name: str = "X") -> np.ndarray:
    """Return ``X`` as a finite 2-d float array (examples x features) or raise ``ValueError``.

    Finite entries whose squares overflow (``|x| ~ 1e160`` and more) are refused too:
    every algorithm of the package computes inner products or squared distances, which
    would be infinite; so is a non-zero ``X`` whose squares all underflow (``|x| ~ 1e-160``
    and less), where they would be zero.  One pass over ``X`` checks them all.
    """
    X = _as_floats(X, name)
    if X.ndim != 2:
        raise ValueError(f"{name} must be a 2-d array (examples x features), got shape {X.shape}")
    with np.errstate(over="ignore", invalid="ignore"):
        total = float(np.einsum("ij,ij->", X, X))    # NaN or inf if X holds them or overflows
    if not np.isfinite(total):
        if not np.all(np.isfinite(X)):
            raise ValueError(f"{name} contains NaN or infinite values")
        raise ValueError(f"{name} is too large: the sum of its squared entries overflows (largest "
                         f"|entry| {float(np.abs(X).max()):.3g}); rescale the data "
                         "(e.g. standardise the inputs)")
    if total < np.finfo(float).tiny and np.any(X):
        raise ValueError(f"{name} is too small: the sum of its squared entries underflows (largest "
                         f"|entry| {float(np.abs(X).max()):.3g}); rescale the data "
                         "(e.g. standardise the inputs)")
    return X


def check_vector(values, name: str = "x", *, allow_inf: bool = False) -> np.ndarray:
    """Return ``values`` as a 1-d float array or raise ``ValueError`` naming ``name``.

    NaN is always refused; infinity too unless ``allow_inf`` (scores thresholded at
    ``+-inf``, say).  The 1-d counterpart of :func:`check_inputs`.
    """
    values = _as_floats(values, name)
    if values.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array, got shape {values.shape}")
    n_nan = int(np.isnan(values).sum())
    if n_nan:
        raise ValueError(f"{name} must not contain NaN ({n_nan} of {values.size} values are NaN)")
    if not allow_inf:
        n_inf = int(np.isinf(values).sum())
        if n_inf:
            raise ValueError(f"{name} must not contain infinite values "
                             f"({n_inf} of {values.size} values)")
    return values


def check_positive_int(value, name: str) -> None:
    """Raise ``ValueError`` unless ``value`` is an integer ``>= 1``."""
    if not (isinstance(value, numbers.Integral) and value >= 1):
        raise ValueError(f"{name} must be a positive integer, got {value!r}")


def resolve_rng(random_state):
    """A numpy Generator from a seed, ``None`` or a Generator; a legacy RandomState passes
    through."""
    if isinstance(random_state, np.random.RandomState):
        return random_state
    return np.random.default_rng(random_state)


# ---------------------------------------------------------------- hyper-parameter tables

class Interval:
    """Numbers of one kind (``numbers.Real`` or ``numbers.Integral``) in a range.

    ``low``/``high`` of ``None`` mean no bound on that side; ``closed`` is ``"both"``,
    ``"left"``, ``"right"`` or ``"neither"``.  NaN is never inside; infinity only with
    ``allow_inf=True`` (and then only where the bounds admit it).  Booleans are not
    numbers here, although Python counts them as integers.
    """

    def __init__(self, kind, low=None, high=None, *, closed: str = "both", allow_inf: bool = False):
        if kind not in (numbers.Real, numbers.Integral):
            raise ValueError(f"an Interval holds numbers.Real or numbers.Integral, got {kind!r}")
        if closed not in ("both", "left", "right", "neither"):
            raise ValueError(f"closed must be 'both', 'left', 'right' or 'neither', got {closed!r}")
        self.kind, self.low, self.high = kind, low, high
        self.closed, self.allow_inf = closed, allow_inf

    def is_satisfied_by(self, value) -> bool:
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, self.kind):
            return False
        if np.isnan(value) or (np.isinf(value) and not self.allow_inf):
            return False
        if self.low is not None and (
                value < self.low or (value == self.low and self.closed in ("right", "neither"))):
            return False
        if self.high is not None and (
                value > self.high or (value == self.high and self.closed in ("left", "neither"))):
            return False
        return True

    def __str__(self) -> str:
        kind = ("an integer" if self.kind is numbers.Integral
                else "a number" if self.allow_inf else "a finite number")
        if self.low is None and self.high is None:
            return kind
        left = "-inf" if self.low is None else self.low
        right = "inf" if self.high is None else self.high
        lb = "[" if self.closed in ("both", "left") and self.low is not None else "("
        rb = ("]" if (self.closed in ("both", "right") and self.high is not None)
              or (self.high is None and self.allow_inf) else ")")
        return f"{kind} in {lb}{left}, {right}{rb}"


class Options:
    """One of a fixed set of values (strings, booleans, ``None``), compared with ``==``."""

    def __init__(self, *values):
        self.values = values

    def is_satisfied_by(self, value) -> bool:
        return any(value is v or (type(value) is type(v) and value == v) for v in self.values)

    def __str__(self) -> str:
        return "one of " + ", ".join(repr(v) for v in self.values)


# The ranges most tables use.
FINITE = Interval(numbers.Real, None, None)                         # any finite number (an offset)
POSITIVE = Interval(numbers.Real, 0, None, closed="neither")        # finite, > 0 (rates, widths)
# > 0 or inf (C = inf: hard margin)
POSITIVE_OR_INF = Interval(numbers.Real, 0, None, closed="neither", allow_inf=True)
NON_NEGATIVE = Interval(numbers.Real, 0, None, closed="left")       # finite, >= 0 (tolerances)
COUNT = Interval(numbers.Integral, 1, None)                         # integer >= 1 (epochs, units)
NON_ZERO = [Interval(numbers.Real, None, 0, closed="neither"),      # finite, != 0 (a clamped input)
            Interval(numbers.Real, 0, None, closed="neither")]


_SPECIAL = {
    "boolean": ("a boolean", lambda v: isinstance(v, (bool, np.bool_))),
    "random_state": ("None, an integer seed, a numpy Generator or RandomState",
                     lambda v: v is None or isinstance(v, (np.random.Generator,
                                                           np.random.RandomState))
                     or (isinstance(v, numbers.Integral) and not isinstance(v, bool) and v >= 0)),
    "callable": ("a callable", callable),
    "array-like": ("an array of finite numbers", lambda v: _finite_array(v)),
}


def _finite_array(value) -> bool:
    """Whether ``value`` is an array-like (list, tuple, ndarray, pandas object) of finite
    numbers."""
    if value is None or isinstance(value, (str, bytes, numbers.Number)):
        return False
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return False
    return arr.ndim >= 1 and bool(np.all(np.isfinite(arr)))


def _describe(constraint) -> str:
    if constraint is None:
        return "None"
    if isinstance(constraint, str):
        return _SPECIAL[constraint][0]
    return str(constraint)


def _satisfied(constraint, value) -> bool:
    if constraint is None:
        return value is None
    if isinstance(constraint, str):
        return bool(_SPECIAL[constraint][1](value))
    return constraint.is_satisfied_by(value)


def _violated(value, constraints) -> str | None:
    """``None`` if ``value`` meets one of ``constraints``, else what it must be, in words."""
    if any(_satisfied(c, value) for c in constraints):
        return None
    return " or ".join(_describe(c) for c in constraints)


def check_params(estimator) -> None:
    """Check every hyper-parameter of ``estimator`` against its ``_parameter_constraints``.

    The table maps each parameter name to a list of constraints, any one of which it must
    meet: an :class:`Interval`, :class:`Options`, ``None`` (the value ``None``), one of
    ``"boolean"``, ``"random_state"``, ``"callable"``, ``"array-like"``, or a constraint of a
    module's own (an object with ``is_satisfied_by(value)`` and a ``str`` that describes it).

    Raises
    ------
    ValueError
        Naming the estimator, the parameter, what it must be and what it is.
    """
    table = type(estimator)._parameter_constraints
    for name, constraints in table.items():
        value = getattr(estimator, name)
        if (allowed := _violated(value, constraints)) is not None:
            raise ValueError(f"{type(estimator).__name__}: the parameter {name!r} "
                             f"must be {allowed}; got {value!r}")


_FIT_METHODS = ("fit", "partial_fit")


def _fit_context(fit):
    """``fit`` (or ``partial_fit``) that first checks the estimator's hyper-parameters."""
    @functools.wraps(fit)
    def fit_with_checked_params(estimator, *args, **kwargs):
        estimator._validate_params()
        return fit(estimator, *args, **kwargs)

    fit_with_checked_params.validates_params = True
    return fit_with_checked_params


class ParamValidationMixin:
    """Base of the package's estimators: hyper-parameters are checked when fitting starts.

    An estimator declares, once, the valid range of each hyper-parameter in its table
    ``_parameter_constraints`` (see :func:`check_params`) and the rules that tie two
    parameters together, which a table of single ranges cannot say, in the method
    ``_check_parameter_combination`` (no rule by default; it raises ``ValueError`` naming
    the parameters).  Every ``fit`` and ``partial_fit`` that a subclass defines is wrapped
    when the class is created, so that ``_validate_params`` runs both before the method's
    first line, as scikit-learn's ``_fit_context`` decorator does: no ``fit`` calls them
    itself.  The data are checked by ``fit``, after the parameters.
    """

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name in _FIT_METHODS:
            method = cls.__dict__.get(name)
            if callable(method) and not getattr(method, "validates_params", False):
                setattr(cls, name, _fit_context(method))

    def _validate_params(self) -> None:
        """Check the table ``_parameter_constraints``, then the rules between parameters."""
        check_params(self)
        self._check_parameter_combination()

    def _check_parameter_combination(self) -> None:
        """Raise ``ValueError`` for a combination of valid values that does not go together."""

def check_scalar(value, name: str, *constraints):
    """Check one argument of a plain function against constraints of the tables; return it.

    The same constraints as in ``_parameter_constraints`` (any one must hold), so a plain
    function and an estimator refuse a value with the same words, for example
    ``check_scalar(eta, "eta", POSITIVE)`` or ``check_scalar(k, "k", COUNT)``.

    Raises
    ------
    ValueError
        Naming the argument, what it must be and what it is.
    """
    if (allowed := _violated(value, constraints)) is not None:
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return value


def check_counts(values, name: str) -> np.ndarray:
    """The array counterpart of ``check_scalar(value, name, COUNT)``; returns the array.

    Every entry must be a whole number ``>= 1``, in any real dtype (``4.0`` counts as 4):
    NaN, infinity, fractions, booleans and non-numbers are refused in the same words as
    :data:`COUNT` refuses a single value.
    """
    arr = np.asarray(values)
    if arr.dtype.kind in "iuf":
        with np.errstate(invalid="ignore"):
            bad = ~(np.isfinite(arr) & (arr == np.round(arr)) & (arr >= 1))
    else:
        bad = np.ones(arr.shape, dtype=bool)
    if bad.any():
        if arr.ndim == 0:
            raise ValueError(f"{name} must be {COUNT}, got {arr.item()!r}")
        raise ValueError(f"{name} must be {COUNT} or an array of them, got {arr[bad][0].item()!r} "
                         f"(in an array of shape {arr.shape})")
    return arr


# ---------------------------------------------------------------- warnings

@functools.cache
def _internal_dirs() -> tuple[str, ...]:
    """Where frames that are not the user's live: the package's own, and scikit-learn's (with
    joblib, which runs its loops) between the user's call and the package (``model.score``
    calls ``predict``, ``cross_val_score`` calls ``fit``)."""
    import joblib
    import sklearn
    return tuple(os.path.dirname(os.path.realpath(module.__file__)) + os.sep
                 for module in (sys.modules[__package__], sklearn, joblib))


def warn_user(message: str, category: type[Warning]) -> None:
    """``warnings.warn`` attributed to the user's call: the first frame outside lecture_pkg.

    A fixed ``stacklevel`` is right for one call path only (``fit`` called directly, but
    not through ``predict`` -> ``predict_proba`` -> ...); this walks the stack instead,
    past the package's frames and scikit-learn's (``model.score``, ``cross_val_score``),
    so that the warning names the line of the user's script or notebook cell.
    """
    internal = _internal_dirs()
    frame = sys._getframe(1)               # the package function that warns: stacklevel 2
    level = 2
    while frame is not None and os.path.realpath(frame.f_code.co_filename).startswith(internal):
        frame = frame.f_back
        level += 1
    del frame
    warnings.warn(message, category, stacklevel=level)
