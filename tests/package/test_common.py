"""Checks every estimator of lecture_pkg must pass (as scikit-learn's own test_common.py does).

* scikit-learn's estimator checks, for every estimator the subpackages export (discovered,
  not listed) with its default parameters and for the variants the chapters use;
* the hyper-parameter table: every parameter is declared, and ``fit`` rejects NaN,
  infinity and out-of-range values with a message naming the parameter;
* the table is checked by the base (:class:`~lecture_pkg.validation.ParamValidationMixin`)
  when ``fit`` starts, never by hand in a ``fit``.
"""

import ast
import importlib
import inspect
import math
import textwrap
import numbers
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.estimator_checks import parametrize_with_checks

from lecture_pkg.kernel_machines import (KernelAdaTron, KernelPerceptron, LearningRateWarning,
                                         LPMachine, NotPSDWarning)
from lecture_pkg.learning import regression as reg
from lecture_pkg.linear import Adaline, AdaTron, MinOver, Perceptron, Pocket, SoftMarginAdaTron
from lecture_pkg.networks import MLPClassifier, MLPRegressor, ParityMachine
from lecture_pkg.probabilistic import CategoricalNaiveBayes, GaussianNaiveBayes
from lecture_pkg.prototypes import GLVQ, GMLVQ, LVQ1, NearestNeighborClassifier
from lecture_pkg.validation import Interval, Options, ParamValidationMixin
from tests.package.test_layout import _estimators


def _discover_estimators():
    """Every estimator the subpackages export, found as ``test_layout.py`` finds them: a new
    estimator is checked here without being added to a list."""
    return [getattr(importlib.import_module(package), name)
            for name, package in _estimators().items()]


ESTIMATORS = _discover_estimators()

# The parameter variants the chapters use, checked besides every estimator's defaults.
VARIANTS = [
    Perceptron(max_epochs=50), Perceptron(shuffle=True, random_state=0, max_epochs=50),
    MinOver(max_steps=2000), AdaTron(max_epochs=100), AdaTron(mode="parallel", max_epochs=100),
    Adaline(eta=1e-3, max_epochs=100), Adaline(solver="sequential", normalize=True, eta=0.5,
                                               max_epochs=50),
    Adaline(solver="minibatch", batch_size=8, eta=1e-3, shuffle=True, random_state=0,
            max_epochs=50),
    Pocket(n_steps=500, random_state=0), SoftMarginAdaTron(max_epochs=200),
    SoftMarginAdaTron(C=10.0, fit_intercept=False, max_epochs=200),
    ParityMachine(n_steps=200, random_state=0), ParityMachine(trainer="grandmother"),
    MLPClassifier(solver="lbfgs", random_state=0), MLPRegressor(solver="lbfgs", random_state=0),
    MLPClassifier((30, 8), activation="sigmoid", init="uniform", batch_size=None, eta=0.005,
                  validation_fraction=0.25, patience=20, random_state=0),
    KernelAdaTron(max_epochs=300), KernelAdaTron(kernel="linear", C=10.0, max_epochs=300),
    KernelAdaTron(kernel="precomputed", check_psd="warn", max_epochs=300),
    KernelPerceptron(kernel="poly", convention="mooney", max_epochs=20),
    KernelPerceptron(max_epochs=20), KernelPerceptron(kernel="linear", max_epochs=20),
    KernelPerceptron(shuffle=True, random_state=0, fit_intercept=False, max_epochs=20),
    LPMachine(C=0.1, fit_intercept=False), LPMachine(kernel="linear", C=0.01),
    NearestNeighborClassifier(n_neighbors=3, metric="minkowski", p=1),
    LVQ1(max_epochs=5), LVQ1(prototypes_per_class=2, initial_prototypes="random-example",
                             max_epochs=5),
    GLVQ(max_epochs=5), GLVQ(solver="batch", activation="sigmoid", max_epochs=5),
    GMLVQ(max_epochs=5),
    GMLVQ(relevance="diagonal", solver="batch", eta=0.5, eta_omega=0.05, max_epochs=5),
    CategoricalNaiveBayes(m=2.0, handle_unknown="warn"), CategoricalNaiveBayes(m=0.5, p=0.2),
    GaussianNaiveBayes(var_smoothing=1e-6),
    reg.RidgeRegression(lam=0.5, fit_intercept=False), reg.BayesianLinearRegression(sigma=0.5,
                                                                                    tau=3.0),
]


def _expected_failures(estimator):
    """Checks an estimator is known to fail, with the reason (scikit-learn's own mechanism)."""
    return {}


# Every estimator with its defaults, except MinOver: its default run is 200 000
# single-example steps, and the checks' data are not linearly separable, so every fit runs
# to that limit (minutes per check); MinOver(max_steps=2000) in VARIANTS runs the same code.
DEFAULTS = [cls() for cls in ESTIMATORS if cls is not MinOver]


def test_every_estimator_of_the_package_is_checked():
    """Discovery finds the package's estimators, and each one runs scikit-learn's checks with
    its defaults or, where those are too slow, in a variant."""
    assert len(ESTIMATORS) >= 21
    checked = {type(estimator) for estimator in DEFAULTS + VARIANTS}
    assert [cls.__name__ for cls in ESTIMATORS if cls not in checked] == []


@parametrize_with_checks(DEFAULTS + VARIANTS, expected_failed_checks=_expected_failures)
def test_scikit_learn_estimator_checks(estimator, check, monkeypatch):
    monkeypatch.setenv("SCIPY_ARRAY_API", "1")  # see conftest.py
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)   # epoch limits on non-separable data
        warnings.simplefilter("ignore", LearningRateWarning)
        warnings.simplefilter("ignore", NotPSDWarning)        # the checks feed arbitrary "kernels"
        warnings.simplefilter("ignore", RuntimeWarning)
        check(estimator)


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda c: c.__name__)
def test_every_hyper_parameter_has_a_declared_range(cls):
    assert set(getattr(cls, "_parameter_constraints", {})) == set(cls().get_params())



def _hand_made_checks(cls):
    """Calls that check the hyper-parameters by hand in the package's classes of ``cls``'s
    MRO: any ``check_params(...)``, and ``._validate_params()`` outside a classmethod (a
    classmethod that builds a fitted model without ``fit``, such as ``from_prototypes``,
    checks the parameters it was given)."""
    found = []
    for klass in cls.__mro__:
        if not klass.__module__.startswith("lecture_pkg.") or klass is ParamValidationMixin:
            continue
        tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        for method in ast.walk(tree):
            if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            builds_a_model = any(isinstance(d, ast.Name) and d.id == "classmethod"
                                 for d in method.decorator_list)
            for node in ast.walk(method):
                if not isinstance(node, ast.Call):
                    continue
                callee = node.func.attr if isinstance(node.func, ast.Attribute) else \
                    getattr(node.func, "id", None)
                if callee == "check_params" or (callee == "_validate_params"
                                                and not builds_a_model):
                    found.append(f"{klass.__name__}.{method.name} calls {callee}")
    return found


@pytest.mark.parametrize("cls", ESTIMATORS, ids=lambda c: c.__name__)
def test_the_base_checks_the_declared_table_when_fit_starts(cls):
    """Every estimator declares its table once and inherits the mixin that checks it before
    ``fit`` and ``partial_fit`` run; no method checks the parameters by hand."""
    assert issubclass(cls, ParamValidationMixin), f"{cls.__name__} does not use the mixin"
    assert isinstance(getattr(cls, "_parameter_constraints", None), dict)
    methods = [getattr(cls, name) for name in ("fit", "partial_fit") if hasattr(cls, name)]
    assert methods and all(getattr(m, "validates_params", False) for m in methods)
    assert _hand_made_checks(cls) == []

def _bad_values(constraints):
    """Values no constraint of the list accepts: non-finite and out-of-range numbers, unknown
    options."""
    candidates = [math.nan, math.inf, -math.inf, "not-an-option", -1, 0, 0.0, 1e300]
    for c in constraints:
        if isinstance(c, Interval):
            for bound in (c.low, c.high):
                if bound is not None:
                    candidates += [bound, bound - 1, bound + 1, bound - 0.5, bound + 0.5]
    return [v for v in candidates
            if not any(c is None and v is None
                       or (isinstance(c, (Interval, Options)) and c.is_satisfied_by(v))
                       or (isinstance(c, str) and c in ("random_state",) and v is None)
                       or c == "callable" and callable(v)
                       for c in constraints)
            and not (any(c == "random_state" for c in constraints)
                     and isinstance(v, numbers.Integral) and v >= 0)]


def _numeric_parameters():
    for cls in ESTIMATORS:
        for name, constraints in getattr(cls, "_parameter_constraints", {}).items():
            if any(isinstance(c, (Interval, Options)) for c in constraints):
                yield pytest.param(cls, name, constraints, id=f"{cls.__name__}-{name}")


@pytest.mark.parametrize("cls, name, constraints", list(_numeric_parameters()))
def test_fit_rejects_non_finite_and_out_of_range_hyper_parameters(cls, name, constraints):
    rng = np.random.default_rng(0)
    X = rng.standard_normal((30, 3))
    y = np.where(X[:, 0] > 0, 1, 0)
    if cls is CategoricalNaiveBayes:
        X = (X > 0).astype(int)
    bad = _bad_values(constraints)
    assert bad, f"no invalid value found for {name}"
    for value in bad:
        with pytest.raises(ValueError, match=repr(name)):
            cls(**{name: value}).fit(X, y)


def test_minover_computes_in_float64():
    """float32 input is computed in float64: the fit equals the fit on a float64 copy of the
    same values."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3)).astype(np.float32)
    y = np.where(X[:, 0] + 0.5 * X[:, 1] > 0, 1, -1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        a, b = MinOver(max_steps=3000).fit(X, y), MinOver(max_steps=3000).fit(X.astype(np.float64),
                                                                              y)
    assert a.coef_.dtype == np.float64 and a.decision_function(X).dtype == np.float64
    np.testing.assert_array_equal(a.coef_, b.coef_)
    assert a.intercept_ == b.intercept_ and a.n_steps_ == b.n_steps_
