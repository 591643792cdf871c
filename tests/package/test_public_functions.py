"""Every public function checks its arguments (issue 29), as scikit-learn's own
``test_public_functions.py`` checks its functions.

* discovered, not listed: every function in the ``__all__`` of every public module of the
  package (a subpackage without ``__all__``, :mod:`lecture_pkg.core`, by its modules);
* a function with a numeric parameter -- an ``int`` or ``float`` (or a sequence of them, or
  a random source) in its annotation, or a number as its default -- declares the range of
  every such parameter with :func:`~lecture_pkg.validation.validate_args`, so that a new
  function, or a new parameter, cannot slip through;
* every declared argument is called with NaN, ``+inf``, ``-inf`` and values outside its
  range (made from its constraints; an array gets them as one of its entries), the other
  arguments valid (made from their constraints), and must be refused with a ``ValueError``
  or ``TypeError`` that names it.  The checks run before the function's body, so the valid
  arguments need only pass them, and the whole file takes a few seconds.
"""

from __future__ import annotations

import importlib
import inspect
import math
import numbers
import pkgutil
import re

import numpy as np
import pytest

import lecture_pkg
from lecture_pkg.validation import Array, Interval, Options, _satisfied

def _public_modules():
    for info in pkgutil.iter_modules(lecture_pkg.__path__, "lecture_pkg."):
        if info.name.rsplit(".", 1)[1].startswith("_"):
            continue
        module = importlib.import_module(info.name)
        if hasattr(module, "__all__"):
            yield module
        elif info.ispkg:                        # lecture_pkg.core: its modules say what is public
            for sub in pkgutil.iter_modules(module.__path__, info.name + "."):
                if not sub.name.rsplit(".", 1)[1].startswith("_"):
                    yield importlib.import_module(sub.name)


def _public_functions() -> dict[str, object]:
    """``"module.name" -> function`` (where it is defined), each function once."""
    found = {}
    for module in _public_modules():
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name)
            if not inspect.isfunction(obj):
                continue
            home = inspect.unwrap(obj).__module__
            found.setdefault(f"{home}.{name}", obj)
    return found


FUNCTIONS = _public_functions()

# ---------------------------------------------------------------- numeric parameters

_NUMERIC_TYPES = {"int", "float", "np.random.Generator", "Sequence[int]", "Sequence[float]",
                  "Iterable[int]", "Iterable[float]"}
_NEUTRAL_TYPES = {"None", "np.ndarray"}          # alternatives that make no parameter numeric


def _alternatives(annotation) -> list[str]:
    """``"np.ndarray | float | None"`` -> ``["np.ndarray", "float", "None"]`` (top level only)."""
    parts, depth, current = [], 0, ""
    for ch in str(annotation):
        depth += ch in "[(" or -(ch in "])")
        if ch == "|" and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    return parts + [current.strip()]


def _is_numeric(param: inspect.Parameter) -> bool:
    """A number (or numbers, or a random source) by its annotation, or a number by its
    default; ``int | str`` (a label) is not."""
    if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
        return False
    if param.annotation is param.empty:
        return (isinstance(param.default, numbers.Real)
                and not isinstance(param.default, (bool, np.bool_)))
    kinds = set(_alternatives(param.annotation)) - _NEUTRAL_TYPES
    return bool(kinds) and kinds <= _NUMERIC_TYPES


def _numeric_parameters(func) -> list[str]:
    return [p.name for p in inspect.signature(func).parameters.values() if _is_numeric(p)]


def test_discovery_finds_every_family():
    homes = {name.split(".")[1] for name in FUNCTIONS}
    assert {"datasets", "evaluation", "kernel_machines", "learning", "linear", "networks",
            "neurons", "probabilistic", "prototypes", "widgets", "plotting", "core",
            "results"} <= homes
    assert len(FUNCTIONS) >= 250


@pytest.mark.parametrize("path", sorted(FUNCTIONS))
def test_every_numeric_parameter_has_a_declared_range(path):
    func = FUNCTIONS[path]
    numeric = _numeric_parameters(func)
    table = getattr(func, "_parameter_constraints", None)
    if numeric:
        assert table is not None, f"{path} has numeric parameters {numeric} but no validate_args"
    undeclared = [name for name in numeric if name not in (table or {})]
    assert undeclared == [], f"{path}: no range declared for {undeclared}"


@pytest.mark.parametrize("path", sorted(p for p, f in FUNCTIONS.items()
                                        if hasattr(f, "_parameter_constraints")))
def test_a_checked_function_keeps_its_name_signature_and_docstring(path):
    func = FUNCTIONS[path]
    inner = inspect.unwrap(func)
    assert inner is not func and func.__name__ == inner.__name__ == path.rsplit(".", 1)[1]
    assert func.__doc__ == inner.__doc__ and func.__doc__
    assert inspect.signature(func) == inspect.signature(inner)       # what autodoc renders


# ---------------------------------------------------------------- valid and invalid values

ROWS = 4                 # every array made here has this many rows, so rows_of holds


def _inside(interval: Interval):
    """A number inside ``interval``: just above its lower bound, or below its upper one."""
    low, high = interval.low, interval.high
    step = 1 if interval.kind is numbers.Integral else 0.5
    if low is None:
        value = (0 if high is None else high - step) if interval.kind is numbers.Integral \
            else (0.5 if high is None else high - step)
    else:
        value = low if interval.closed in ("both", "left") else low + step
        if high is not None and not interval.is_satisfied_by(value):
            value = (low + high) / 2
    assert interval.is_satisfied_by(value), (interval, value)
    return value


def _array_of(c: Array):
    """A valid array for ``c``: ``ROWS`` rows of a number inside its range."""
    if c.labels:
        return np.array([1.0, -1.0] * (ROWS // 2))
    fill = float(_inside(c.within)) if c.within is not None else 0.5
    shape = (ROWS, 2) if c.ndim in (2, None) else (ROWS,)
    return np.full(shape, fill)


class _Regressor:
    def fit(self, X, y):
        return self

    def predict(self, X):
        return np.zeros(len(X))


# Values tried for a module's own constraints, the first one it accepts is used: +-1 patterns,
# a symmetric weight matrix with a zero diagonal, four counts, (train, test) splits, ...
_CANDIDATES = [None, 1, 0.5, "a", np.array([1.0, -1.0, 1.0, -1.0]),
               np.array([[0.0, 1.0], [1.0, 0.0]]), (1, 1, 1, 1),
               [(np.array([0]), np.array([1]))], _Regressor(), abs]


def _valid(constraints: list):
    """A value that one of ``constraints`` accepts."""
    for c in constraints:
        if c is None:
            return None
        if isinstance(c, Interval):
            return _inside(c)
        if isinstance(c, Options):
            return c.values[0]
        if isinstance(c, Array):
            return _array_of(c)
        if c == "random_state":
            return 0
        if c == "callable":
            return abs
        if c == "boolean":
            return True
        if c == "array-like":
            return np.arange(float(ROWS))
        if isinstance(c, type):
            continue                             # an instance of a class: try the others
        for value in _CANDIDATES:
            if c.is_satisfied_by(value):
                return value
    raise AssertionError(f"no valid value made for {constraints}")


def _accepted(constraints: list, value) -> bool:
    return any(_satisfied(c, value) for c in constraints)


def _bad_values(constraints: list) -> list:
    """NaN, +-inf and out-of-range values none of ``constraints`` accepts, as numbers and,
    for an array, as one entry of a valid array."""
    numbers_ = [math.nan, math.inf, -math.inf]
    for c in constraints:
        interval = c if isinstance(c, Interval) else getattr(c, "within", None)
        if isinstance(interval, Interval):
            for bound in (interval.low, interval.high):
                if bound is not None:
                    numbers_ += [bound - 1, bound + 1, bound]
            if interval.kind is numbers.Integral:
                numbers_.append(_inside(interval) + 0.5)
        if isinstance(c, Options):
            numbers_.append("not-an-option")
        if isinstance(c, Array) and c.labels:
            numbers_.append(0.0)
    candidates = list(numbers_)
    for c in constraints:
        if isinstance(c, Array):
            for entry in numbers_:
                if isinstance(entry, numbers.Number):
                    bad = _array_of(c)
                    bad.flat[0] = entry
                    candidates.append(bad)
    return [v for v in candidates if not _accepted(constraints, v)]


def _call_args(func, bad_name: str, bad_value):
    """Positional and keyword arguments: ``bad_value`` for ``bad_name``, valid values for
    the other declared arguments, a placeholder for an undeclared one without default.  An
    undeclared argument with a default is left out, and the arguments after it are then
    passed by keyword."""
    table = func._parameter_constraints
    args, kwargs = [], {}
    skipped = False
    for p in inspect.signature(func).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        if p.name == bad_name:
            value = bad_value
        elif p.name in table:
            value = _valid(table[p.name])
        elif p.default is p.empty:
            value = object()                     # never looked at: the checks come first
        else:
            skipped = True
            continue
        if p.kind == p.KEYWORD_ONLY or (skipped and p.kind == p.POSITIONAL_OR_KEYWORD):
            kwargs[p.name] = value
        else:
            args.append(value)
    return args, kwargs


def _declared_arguments():
    for path, func in sorted(FUNCTIONS.items()):
        for name in getattr(func, "_parameter_constraints", {}):
            yield pytest.param(path, name, id=f"{path.removeprefix('lecture_pkg.')}-{name}")


@pytest.mark.parametrize("path, name", list(_declared_arguments()))
def test_nan_infinity_and_out_of_range_arguments_are_refused_by_name(path, name):
    func = FUNCTIONS[path]
    constraints = func._parameter_constraints[name]
    bad = _bad_values(constraints)
    if not any(isinstance(c, (Interval, Options, Array)) for c in constraints):
        # a callable, a class, a module's own kind of value: NaN at least is refused
        assert bad, f"{path}: {name} accepts NaN and infinity"
    named = re.compile(rf"(?<![\w.]){re.escape(name)}(?!\w)")
    for value in bad:
        args, kwargs = _call_args(func, name, value)
        with pytest.raises((ValueError, TypeError)) as refused:
            func(*args, **kwargs)
        assert named.search(str(refused.value)), \
            f"{path}({name}={value!r}) was refused without naming {name!r}: {refused.value}"


def test_every_declared_range_rejects_something():
    """A constraint that accepts NaN and infinity would make the sweep above test nothing."""
    empty = [f"{path}: {name}" for path, func in FUNCTIONS.items()
             for name, constraints in getattr(func, "_parameter_constraints", {}).items()
             if not _bad_values(constraints)]
    assert empty == []
