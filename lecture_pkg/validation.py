"""Input and hyper-parameter checks shared by the modules of lecture_pkg.

Plain functions (the estimators use scikit-learn's ``validate_data`` for their data) that
turn bad input into a clear ``ValueError`` naming the problem, and a small local version
of scikit-learn's parameter constraints (theirs is private): each estimator declares the
valid range of every hyper-parameter in one table, ``_parameter_constraints``, and
:func:`check_params` checks the table once when ``fit`` starts.  NaN is never valid and
infinity only where the table says so.  The estimators' bases inherit
:class:`ParamValidationMixin`, which runs that check (and the rules that tie two parameters
together) before every ``fit`` and ``partial_fit``, as scikit-learn's ``_fit_context`` does.
The public functions declare the ranges of their arguments in the same vocabulary with the
decorator :func:`validate_args` (scikit-learn's ``validate_params``), checked on every call
and refused in the same words.

:func:`warn_user` issues the package's warnings with a ``stacklevel`` that points at the
user's own call, however deep inside the package the warning is raised.
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers
import os
import sys
import warnings
from collections.abc import Callable
from typing import TypeVar

import numpy as np

__all__ = ["as_plus_minus", "check_inputs", "check_vector", "resolve_rng",
           "Interval", "Options", "check_params", "ParamValidationMixin", "check_scalar",
           "Converted", "Array", "validate_args", "InvalidParameterError", "warn_user",
           "FINITE", "POSITIVE", "POSITIVE_OR_INF", "NON_NEGATIVE", "COUNT", "NON_ZERO",
           "MATRIX", "VECTOR", "LABELS", "ARRAY"]


def as_plus_minus(y: np.ndarray, name: str = "labels") -> np.ndarray:
    """Check that ``y`` holds only the labels ``+1`` and ``-1`` and return it as floats.

    The plain functions of lecture_pkg work with ``+-1`` labels; the estimators accept
    any two labels and map them themselves.  ``name`` names ``y`` in the error.
    """
    y = _as_floats(y, name)
    what = name if name == "labels" else f"the labels {name}"
    if y.ndim != 1:
        raise ValueError(f"{what} must be a 1-d array, got shape {y.shape}")
    if not (np.abs(y) == 1.0).all():
        bad = np.abs(y) != 1.0
        raise ValueError(
            f"{what} must be +1 or -1; found {np.unique(y[bad])[:5]} "
            "(the estimators accept other label values)"
        )
    return y


def _as_floats(values, name: str) -> np.ndarray:
    """``values`` as a float array, or a ``ValueError`` naming ``name`` if they are not numbers."""
    try:
        return np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an array of numbers, got {values!r}"[:300]) from None


_TINY = float(np.finfo(float).tiny)


def _all_finite(arr: np.ndarray) -> bool:
    """Whether every entry of the float array ``arr`` is finite: one BLAS pass for a C-ordered
    array whose squares do not overflow (the common case, a few times faster than
    ``np.isfinite``), else the exact test."""
    if arr.flags.c_contiguous and math.isfinite(float(np.vdot(arr, arr))):
        return True
    return bool(np.isfinite(arr).all())


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
    # NaN or inf if X holds them or overflows (BLAS for a C-ordered X: a few times faster and
    # no floating-point warnings; einsum for another layout, where vdot would copy)
    if X.flags.c_contiguous:
        total = float(np.vdot(X, X))
    else:
        with np.errstate(over="ignore", invalid="ignore"):
            total = float(np.einsum("ij,ij->", X, X))
    if not math.isfinite(total):
        if not np.all(np.isfinite(X)):
            raise ValueError(f"{name} contains NaN or infinite values")
        raise ValueError(f"{name} is too large: the sum of its squared entries overflows (largest "
                         f"|entry| {float(np.abs(X).max()):.3g}); rescale the data "
                         "(e.g. standardise the inputs)")
    if total < _TINY and np.any(X):
        raise ValueError(f"{name} is too small: the sum of its squared entries underflows (largest "
                         f"|entry| {float(np.abs(X).max()):.3g}); rescale the data "
                         "(e.g. standardise the inputs)")
    return X


def check_vector(values: np.ndarray, name: str = "x", *, allow_inf: bool = False) -> np.ndarray:
    """Return ``values`` as a 1-d float array or raise ``ValueError`` naming ``name``.

    NaN is always refused; infinity too unless ``allow_inf`` (scores thresholded at
    ``+-inf``, say).  The 1-d counterpart of :func:`check_inputs`.
    """
    values = _as_floats(values, name)
    if values.ndim != 1:
        raise ValueError(f"{name} must be a 1-d array, got shape {values.shape}")
    if _all_finite(values):
        return values
    n_nan = int(np.isnan(values).sum())
    if n_nan:
        raise ValueError(f"{name} must not contain NaN ({n_nan} of {values.size} values are NaN)")
    if not allow_inf:
        n_inf = int(np.isinf(values).sum())
        if n_inf:
            raise ValueError(f"{name} must not contain infinite values "
                             f"({n_inf} of {values.size} values)")
    return values


def resolve_rng(random_state: np.random.Generator | np.random.RandomState | int | None
                ) -> np.random.Generator | np.random.RandomState:
    """A numpy Generator from a seed, ``None`` or a Generator; a legacy RandomState passes
    through."""
    if isinstance(random_state, np.random.RandomState):
        return random_state
    return np.random.default_rng(random_state)


# ---------------------------------------------------------------- hyper-parameter tables

_INTEGERS = frozenset({int, np.int64, np.int32, np.intp})
_FLOATS = frozenset({float, np.float64, np.float32})


class Interval:
    """Numbers of one kind (``numbers.Real`` or ``numbers.Integral``) in a range.

    ``low``/``high`` of ``None`` mean no bound on that side; ``closed`` is ``"both"``,
    ``"left"``, ``"right"`` or ``"neither"``.  NaN is never inside; infinity only with
    ``allow_inf=True`` (and then only where the bounds admit it).  Booleans are not
    numbers here, although Python counts them as integers.
    """

    def __init__(self, kind: type[numbers.Real], low: float | None = None,
                 high: float | None = None, *, closed: str = "both",
                 allow_inf: bool = False) -> None:
        if kind not in (numbers.Real, numbers.Integral):
            raise ValueError(f"an Interval holds numbers.Real or numbers.Integral, got {kind!r}")
        if closed not in ("both", "left", "right", "neither"):
            raise ValueError(f"closed must be 'both', 'left', 'right' or 'neither', got {closed!r}")
        self.kind, self.low, self.high = kind, low, high
        self.closed, self.allow_inf = closed, allow_inf

    def is_satisfied_by(self, value: object) -> bool:
        # the common types first: an isinstance of the numbers ABCs costs ~0.5 us a call
        kind = type(value)
        if kind in _INTEGERS:
            integral = True
        elif kind in _FLOATS:
            if self.kind is numbers.Integral:
                return False
            integral = False
        elif isinstance(value, (bool, np.bool_)) or not isinstance(value, self.kind):
            return False
        else:
            integral = isinstance(value, numbers.Integral)
        if not integral and (math.isnan(value) or (math.isinf(value) and not self.allow_inf)):
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
        return f"{kind} {self.range()}" if self.range() else kind

    def range(self) -> str:
        """``"in [0, 1)"``, say; ``""`` with no bound on either side."""
        if self.low is None and self.high is None:
            return ""
        left = "-inf" if self.low is None else self.low
        right = "inf" if self.high is None else self.high
        lb = "[" if self.closed in ("both", "left") and self.low is not None else "("
        rb = ("]" if (self.closed in ("both", "right") and self.high is not None)
              or (self.high is None and self.allow_inf) else ")")
        return f"in {lb}{left}, {right}{rb}"

    def outside(self, arr: np.ndarray) -> np.ndarray:
        """The entries of the float array ``arr`` that this interval does not hold (a mask)."""
        with np.errstate(invalid="ignore"):
            bad = np.isnan(arr) if self.allow_inf else ~np.isfinite(arr)
            if self.low is not None:
                bad |= arr < self.low if self.closed in ("both", "left") else arr <= self.low
            if self.high is not None:
                bad |= arr > self.high if self.closed in ("both", "right") else arr >= self.high
            if self.kind is numbers.Integral:
                bad |= arr != np.round(arr)
        return bad


class Options:
    """One of a fixed set of values (strings, booleans, ``None``), compared with ``==``."""

    def __init__(self, *values):
        self.values = values
        self._typed = frozenset((type(v), v) for v in values)      # the values are hashable

    def is_satisfied_by(self, value: object) -> bool:
        try:
            return (type(value), value) in self._typed
        except TypeError:                                  # an unhashable value (a list)
            return False

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
    if isinstance(constraint, type):
        return f"a {constraint.__name__}"
    return str(constraint)


def _satisfied(constraint, value) -> bool:
    if constraint is None:
        return value is None
    if isinstance(constraint, str):
        return bool(_SPECIAL[constraint][1](value))
    if isinstance(constraint, type):
        return isinstance(value, constraint)
    return constraint.is_satisfied_by(value)


def _violated(value, constraints) -> str | None:
    """``None`` if ``value`` meets one of ``constraints``, else what it must be, in words."""
    if any(_satisfied(c, value) for c in constraints):
        return None
    return " or ".join(_describe(c) for c in constraints)


def check_params(estimator: ParamValidationMixin) -> None:
    """Check every hyper-parameter of ``estimator`` against its ``_parameter_constraints``.

    The table maps each parameter name to a list of constraints, any one of which it must
    meet: an :class:`Interval`, :class:`Options`, ``None`` (the value ``None``), one of
    ``"boolean"``, ``"random_state"``, ``"callable"``, ``"array-like"``, a class (an instance
    of it), or a constraint of a module's own (an object with ``is_satisfied_by(value)`` and a
    ``str`` that describes it).

    Raises
    ------
    ValueError
        Naming the estimator, the parameter, what it must be and what it is.
    """
    table = type(estimator)._parameter_constraints
    for name, constraints in table.items():
        value = getattr(estimator, name)
        if (allowed := _violated(value, constraints)) is not None:
            raise InvalidParameterError(_refusal(type(estimator).__name__, name, allowed, value))


class InvalidParameterError(ValueError, TypeError):
    """A hyper-parameter or an argument outside its declared range, or of a wrong type.

    Both a ``ValueError`` and a ``TypeError`` (as scikit-learn's ``InvalidParameterError``),
    so that code catching either for a bad value or a bad type keeps working."""


def _refusal(owner: str, name: str, allowed: str, value) -> str:
    """The one wording of a refused hyper-parameter or argument, for :func:`check_params` and
    :func:`validate_args`: who refuses, which parameter, what it must be and what it is."""
    shown = repr(value)
    if len(shown) > 120:
        shown = shown[:117] + "..."
    who = f"{owner}: " if owner else ""
    return f"{who}the parameter {name!r} must be {allowed}; got {shown}"


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


_V = TypeVar("_V")


def check_scalar(value: _V, name: str, *constraints, owner: str | None = None) -> _V:
    """Check one argument against constraints of the tables; return it.

    For what :func:`validate_args` cannot declare: an argument of a method or a constructor
    (an explorer's setting, a splitter's ``n_splits``), or an entry of a list.  The same
    constraints as in ``_parameter_constraints`` (any one must hold) and the same words as
    :func:`validate_args` and :func:`check_params`: ``check_scalar(eta, "eta", POSITIVE)``
    in ``RosenblattTrainer.__init__`` refuses ``nan`` with ``RosenblattTrainer: the
    parameter 'eta' must be a finite number in (0, inf); got nan``.  ``owner`` is who
    refuses; by default the
    function or method that calls ``check_scalar`` (the class, for a constructor), or the
    first public one above it when the caller is a private helper (``_check``).

    Raises
    ------
    InvalidParameterError
        A ``ValueError`` (and a ``TypeError``) naming the owner, the argument, what it must
        be and what it is.
    """
    if (allowed := _violated(value, constraints)) is not None:
        if owner is None:
            owner = _calling_function(sys._getframe(1))
        raise InvalidParameterError(_refusal(owner, name, allowed, value))
    return value


def _calling_function(frame) -> str:
    """The name of the package's function that runs in ``frame`` as :func:`validate_args`
    names one: ``"MLP.fit"``, ``"NFold"`` for ``NFold.__init__``; a private helper
    (``_n_samples``, ``LPMExplorer._check``) passes the question to its caller; ``""`` for
    code outside the package (a user's own call of :func:`check_scalar`)."""
    try:
        for _ in range(8):
            module = frame.f_globals.get("__name__", "") if frame is not None else ""
            if module != __package__ and not module.startswith(__package__ + "."):
                break
            # "MLP.__init__.<locals>.<listcomp>" -> MLP, __init__
            parts = [p for p in frame.f_code.co_qualname.split(".") if not p.startswith("<")]
            if parts and parts[-1] == "__init__":
                parts.pop()
            if parts and not (parts[-1].startswith("_") and not parts[-1].startswith("__")):
                return ".".join(parts)
            frame = frame.f_back
        return ""
    finally:
        del frame


# ---------------------------------------------------------------- arguments of functions

class Converted:
    """Base of the constraints that check a value and hand on a converted one (an array of
    floats, say): ``check(value, name, owner)`` returns it or raises ``ValueError`` naming
    ``name``; :func:`validate_args` passes what it returns to the function."""

    def check(self, value: object, name: str, owner: str = "") -> object:
        raise NotImplementedError

    def is_satisfied_by(self, value: object) -> bool:
        try:
            self.check(value, "value")
        except ValueError:
            return False
        return True


class Array(Converted):
    """An array argument of real numbers, checked by the helpers above and handed on as floats.

    ``ndim=2``: a matrix (examples x features, a Gram matrix, ...), by :func:`check_inputs`
    (which also refuses entries whose squares overflow); ``ndim=1``: a vector, by
    :func:`check_vector`; ``ndim=None``: a number or an array of any shape (a number is
    checked and passed on as it is, an array as a float array).  NaN is never inside;
    infinity only with ``allow_inf=True``.  ``within``: an :class:`Interval` that every
    entry must lie in (widths ``within=POSITIVE``, probabilities
    ``within=Interval(numbers.Real, 0, 1)``, whole numbers ``within=COUNT``); its
    ``allow_inf`` then says whether infinity is allowed.
    ``labels=True``: a vector of the labels ``+1``/``-1`` (:func:`as_plus_minus`).
    ``rows_of="X"``: as many entries (rows) as the argument ``X`` has rows, for
    :func:`validate_args` to compare.
    """

    def __init__(self, ndim: int | None = None, *, allow_inf: bool = False, labels: bool = False,
                 within: Interval | None = None, rows_of: str | None = None):
        if within is not None:
            allow_inf = within.allow_inf
        if ndim not in (None, 1, 2) or (labels and ndim != 1) or (allow_inf and ndim == 2):
            raise ValueError(f"no Array(ndim={ndim!r}, allow_inf={allow_inf}, labels={labels})")
        self.ndim, self.allow_inf, self.labels, self.rows_of = ndim, allow_inf, labels, rows_of
        self.within = within

    def check(self, value: object, name: str, owner: str = "") -> np.ndarray | float:
        """``value`` as a checked float array (a number as it is, for ``ndim=None``), or a
        ``ValueError`` naming ``name``."""
        arr = self._check(value, name, owner)
        if self.within is not None:
            values = np.asarray(arr, dtype=float)
            bad = self.within.outside(values)
            if bad.any():
                where = f" (in an array of shape {values.shape})" if values.ndim else ""
                raise InvalidParameterError(_refusal(owner, name, str(self),
                                                     values[bad].flat[0].item()) + where)
        return arr

    def _check(self, value, name: str, owner: str):
        kind = type(value)
        if kind is np.ndarray and value.dtype == np.float64 and not self.labels:
            pass                                       # the common case, checked below
        elif self.ndim is None and (kind in _INTEGERS or kind in _FLOATS and (
                math.isfinite(value) or self.allow_inf and not math.isnan(value))):
            return value                               # a number, as it is
        elif isinstance(value, (numbers.Number, str, bytes)) or value is None:
            if self.ndim is None and (_NUMBER.is_satisfied_by(value) or self.allow_inf and
                                      _NUMBER_OR_INF.is_satisfied_by(value)):
                return value
            raise InvalidParameterError(_refusal(owner, name, str(self), value))
        if self.labels:
            return as_plus_minus(value, name)
        if self.ndim == 2:
            arr = _as_floats(value, name)
            if arr.ndim != 2:             # (check_inputs would say "examples x features")
                raise ValueError(f"{name} must be a 2-d array, got shape {arr.shape}")
            return check_inputs(arr, name)
        if self.ndim == 1:
            return check_vector(value, name, allow_inf=self.allow_inf)
        arr = _as_floats(value, name)
        if not _all_finite(arr) and not (self.allow_inf and not np.isnan(arr).any()):
            raise ValueError(f"{name} must not contain NaN" if np.isnan(arr).any() or self.allow_inf
                             else f"{name} must not contain NaN or infinite values")
        return arr

    def __str__(self) -> str:
        if self.labels:
            return "a 1-d array of the labels +1 and -1"
        integral = self.within is not None and self.within.kind is numbers.Integral
        one, kind = (("an integer", "integers") if integral else
                     ("a number", "numbers") if self.allow_inf else
                     ("a finite number", "finite numbers"))
        where = f" {self.within.range()}" if self.within is not None and self.within.range() else ""
        if self.ndim is None:
            return f"{one} or an array of {kind}{where}"
        return f"a {self.ndim}-d array of {kind}{where}"


_NUMBER = Interval(numbers.Real)
_NUMBER_OR_INF = Interval(numbers.Real, allow_inf=True)
MATRIX = Array(2)      # examples x features (or any matrix of finite numbers)
VECTOR = Array(1)      # a vector of finite numbers
LABELS = Array(1, labels=True)   # the labels +1 and -1 of the plain functions
ARRAY = Array()        # a finite number or an array of finite numbers, any shape

_NOT_GIVEN = object()
_BY_KEYWORD = sys.maxsize       # the position of a keyword-only argument: never in ``args``


def _as_list(spec) -> list:
    return list(spec) if isinstance(spec, (list, tuple)) else [spec]


def _predicate(constraint):
    """A function ``value -> bool`` for a constraint that is not an :class:`Array`."""
    if constraint is None:
        return lambda value: value is None
    if isinstance(constraint, str):
        return _SPECIAL[constraint][1]
    if isinstance(constraint, type):
        return lambda value: isinstance(value, constraint)
    return constraint.is_satisfied_by


def _converts(constraint) -> bool:
    """Whether a constraint checks and converts (an :class:`Array`, or a module's own
    :class:`Converted`)."""
    return isinstance(constraint, Converted)


def _split(constraints: list) -> tuple[tuple, tuple]:
    """The predicates of the constraints that only check, and the ``check`` methods of those
    that convert (made once, when a function is decorated)."""
    return (tuple(_predicate(c) for c in constraints if not _converts(c)),
            tuple(c.check for c in constraints if _converts(c)))


def _accept(owner: str, name: str, constraints: list, tests: tuple, converters: tuple, value):
    """``value`` if it meets one of ``constraints`` (an :class:`Array` hands on its checked
    array), else ``ValueError`` in the words of :func:`check_params` (or of the array
    helpers, for an array that is not what an :class:`Array` wants).

    The constraints that only check are tried first, so that an accepted ``None`` or object
    never raises on the way (a caught error holds the frames, and their arrays, until the
    garbage collector runs)."""
    for test in tests:
        if test(value):
            return value
    error = None
    for check in converters:
        try:
            return check(value, name, owner)
        except ValueError as refused:
            error = refused
    if error is not None and not (value is None or isinstance(value, (numbers.Number, str))):
        raise error
    allowed = " or ".join(_describe(c) for c in constraints)
    raise InvalidParameterError(_refusal(owner, name, allowed, value))


def validate_args(**constraints) -> Callable[[Callable], Callable]:
    """Declare the valid values of a function's arguments; they are checked on every call.

    The plain functions' counterpart of ``_parameter_constraints`` (scikit-learn's
    ``validate_params``): each keyword names an argument and gives a constraint or a list
    of constraints, any one of which it must meet, in the vocabulary of the estimators'
    tables (:class:`Interval`, :class:`Options`, ``None``, ``"boolean"``,
    ``"random_state"``, ``"callable"``, the constants :data:`POSITIVE`, :data:`COUNT`, ...)
    and, for arrays, :class:`Array` (:data:`MATRIX`, :data:`VECTOR`, :data:`LABELS`,
    :data:`ARRAY`), whose checked float array replaces the argument (as does the value that
    a module's own :class:`Converted` constraint returns, such as the Hopfield patterns of
    +-1).  A refused value raises
    :class:`InvalidParameterError` (a ``ValueError`` and a ``TypeError``) in the estimators'
    words, e.g. ``rbf_kernel: the parameter 'gamma' must be a finite number in (0, inf); got
    nan``; an array that is not what its :class:`Array` wants, the ``ValueError`` of the
    helper that checks it (``X contains NaN or infinite values``).  Rules that tie two
    arguments together (other than ``Array(rows_of=...)``) stay in the function.

    The signature is read once, here: a call only looks its declared arguments up by
    position or keyword (an argument left at its default is not checked again; the defaults
    are checked once, at decoration).  The function keeps its name, docstring and signature
    (``functools.wraps``); the table is its ``_parameter_constraints``.
    """
    def decorate(func):
        owner = func.__name__
        params = inspect.signature(func).parameters
        unknown = [name for name in constraints if name not in params
                   or params[name].kind in (params[name].VAR_POSITIONAL,
                                            params[name].VAR_KEYWORD)]
        if unknown:
            raise TypeError(f"validate_args: {owner} has no argument named {unknown[0]!r}")
        table, checks, rows = {}, [], []
        for position, (name, param) in enumerate(params.items()):
            if name not in constraints:
                continue
            table[name] = cons = _as_list(constraints[name])
            tests, converters = _split(cons)
            if param.default is not param.empty:       # a wrong table fails here, once
                _accept(owner, name, cons, tests, converters, param.default)
            checks.append((name, _BY_KEYWORD if param.kind == param.KEYWORD_ONLY else position,
                           cons, tests, converters))
            rows += [(name, c.rows_of) for c in cons if isinstance(c, Array) and c.rows_of]
        checks = tuple(checks)

        @functools.wraps(func)
        def checked(*args, **kwargs):
            n_args = len(args)
            given = {} if rows else None
            for name, position, cons, tests, converters in checks:
                if position < n_args:
                    value = args[position]
                else:
                    value = kwargs.get(name, _NOT_GIVEN)
                    if value is _NOT_GIVEN:
                        continue
                for test in tests:                     # the common case, inline
                    if test(value):
                        break
                else:
                    new = _accept(owner, name, cons, (), converters, value)   # or raises
                    if new is not value:
                        if position < n_args:
                            args = args[:position] + (new,) + args[position + 1:]
                        else:
                            kwargs[name] = new
                    if given is not None:
                        given[name] = new
            if rows:
                _check_rows(owner, rows, given)
            return func(*args, **kwargs)

        checked._parameter_constraints = table
        return checked

    return decorate


def _check_rows(owner: str, rows, given: dict) -> None:
    for name, other in rows:
        a, b = given.get(name), given.get(other)
        if isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and a.ndim and b.ndim \
                and len(a) != len(b):
            raise ValueError(f"{owner}: {name} must have the same number of rows as {other}; "
                             f"{other} has {len(b)} rows but {name} has {len(a)}")


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
