"""Tests of lecture_pkg.validation (input checks shared by the modules)."""

import numpy as np
import pytest

from lecture_pkg.validation import as_plus_minus, check_inputs, resolve_rng


def test_as_plus_minus_rejects_other_labels():
    assert as_plus_minus([1, -1, 1]).tolist() == [1.0, -1.0, 1.0]
    with pytest.raises(ValueError, match=r"\+1 or -1"):
        as_plus_minus([0, 1])
    with pytest.raises(ValueError, match="1-d"):
        as_plus_minus([[1, -1]])


def test_check_inputs_wants_finite_matrices():
    assert check_inputs([[1, 2], [3, 4]]).dtype == float
    with pytest.raises(ValueError, match="2-d"):
        check_inputs([1.0, 2.0])
    with pytest.raises(ValueError, match="Z contains NaN"):
        check_inputs([[np.nan, 1.0]], name="Z")
    with pytest.raises(ValueError, match="infinite"):
        check_inputs([[np.inf, 1.0]])


def test_resolve_rng():
    a, b = resolve_rng(3), resolve_rng(3)
    assert a.integers(1000) == b.integers(1000)
    g = np.random.default_rng(0)
    assert resolve_rng(g) is g
    legacy = np.random.RandomState(0)
    assert resolve_rng(legacy) is legacy


def test_check_vector_refuses_nan_and_by_default_infinity():
    from lecture_pkg.validation import check_vector
    assert check_vector([1, 2]).dtype == float
    with pytest.raises(ValueError, match="1-d"):
        check_vector([[1.0]], "v")
    with pytest.raises(ValueError, match=r"v must not contain NaN \(1 of 2"):
        check_vector([np.nan, 1.0], "v")
    with pytest.raises(ValueError, match="v must not contain infinite"):
        check_vector([np.inf, 1.0], "v")
    assert check_vector([np.inf, 1.0], "v", allow_inf=True)[0] == np.inf
    with pytest.raises(ValueError, match="NaN"):
        check_vector([np.nan], "v", allow_inf=True)


def test_check_scalar_positive_or_inf():
    from lecture_pkg.validation import POSITIVE, POSITIVE_OR_INF, check_scalar
    assert check_scalar(np.inf, "C", POSITIVE_OR_INF) == np.inf
    for bad in (0.0, -1.0, np.nan, "1", True):
        with pytest.raises(ValueError, match="the parameter 'C' must be"):
            check_scalar(bad, "C", POSITIVE_OR_INF)
    with pytest.raises(ValueError, match=r"^the parameter 'C' must be a finite number in "
                                         r"\(0, inf\); got inf$"):
        check_scalar(np.inf, "C", POSITIVE)


def _call(path, *args, **kwargs):
    import importlib
    module, name = path.rsplit(".", 1)
    return getattr(importlib.import_module(module), name)(*args, **kwargs)


X3 = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])


# Plain functions whose scalar arguments were checked inline (or by module-local helpers)
# and let NaN, infinity or non-integers through before issue 15; each now names the argument.
@pytest.mark.parametrize("path, args, kwargs, name", [
    ("lecture_pkg.neurons.units.sigmoid_activation", ([0.0],), {"gamma": np.inf}, "gamma"),
    ("lecture_pkg.neurons.units.tanh_activation", ([0.0],), {"gamma": np.nan}, "gamma"),
    ("lecture_pkg.core.kernels.rbf_kernel", (X3, X3), {"sigma": np.inf}, "sigma"),
    ("lecture_pkg.core.kernels.rbf_kernel", (X3, X3), {"sigma": np.nan}, "sigma"),
    ("lecture_pkg.prototypes.distances.minkowski", (X3, X3), {"p": np.nan}, "p"),
    ("lecture_pkg.core.kernels.rbf_kernel", (X3,), {"gamma": np.inf}, "gamma"),
    ("lecture_pkg.core.kernels.gamma_from_sigma", (np.inf,), {}, "sigma"),
    ("lecture_pkg.results.format_limit", (np.inf,), {}, "limit"),
    ("lecture_pkg.linear.gradient_descent.gradient_descent_1d", (lambda w: w, 1.0, 0.1, 2.5), {},
     "n_steps"),
    ("lecture_pkg.linear.margins.novikoff_bound", (1.0, np.inf), {}, "kappa"),
    ("lecture_pkg.neurons.hopfield.random_patterns", (2.5, 3), {"random_state": 0}, "n_patterns"),
    ("lecture_pkg.evaluation.bias_variance.polynomial_design", ([0.0, 1.0], 1.5), {}, "degree"),
    ("lecture_pkg.evaluation.bias_variance.fit_polynomial", ([0.0, 1.0], [0.0, np.inf], 1), {},
     "y"),
    ("lecture_pkg.evaluation.metrics.auc_trapezoid", ([0.0, np.inf], [0.0, 1.0]), {}, "fpr"),
    ("lecture_pkg.linear.separability.cover_count", (4, True), {}, "N"),
])
def test_plain_functions_name_bad_scalars(path, args, kwargs, name):
    with pytest.raises(ValueError, match=name + ".* must") as info:
        _call(path, *args, **kwargs)
    assert "got" in str(info.value) or "of 2 values" in str(info.value)


def test_check_inputs_refuses_entries_whose_squares_overflow():
    X = np.array([[1e200, 0.0], [0.0, 1.0]])
    with pytest.raises(ValueError,
                       match=r"Z is too large: the sum of its squared entries overflows "
                                         r"\(largest \|entry\| 1e\+200\)"):
        check_inputs(X, name="Z")
    assert check_inputs(X * 1e-100).shape == (2, 2)          # 1e100 squared is finite
    # NaN is named as NaN, not as too large
    with pytest.raises(ValueError, match="Z contains NaN"):
        check_inputs([[1e200, np.nan]], name="Z")


def test_inputs_that_are_not_numbers_are_refused_by_name():
    from lecture_pkg.validation import check_vector
    with pytest.raises(ValueError, match="Z must be an array of numbers"):
        check_inputs([["a", 1.0]], name="Z")
    with pytest.raises(ValueError, match="v must be an array of numbers"):
        check_vector(["a", 1.0], "v")


def test_check_scalar_refuses_in_the_words_of_validate_args():
    from lecture_pkg.linear import RosenblattTrainer
    from lecture_pkg.validation import COUNT, InvalidParameterError, check_scalar, validate_args
    from lecture_pkg.widgets.hopfield import HopfieldExplorer

    @validate_args(k=COUNT)
    def f(k):
        return k

    with pytest.raises(InvalidParameterError) as declared:
        f(2.5)
    with pytest.raises(InvalidParameterError) as checked:
        check_scalar(2.5, "k", COUNT, owner="f")
    assert str(checked.value) == str(declared.value)
    # inside the package the owner is the function or method that checks; a constructor is
    # named by its class
    with pytest.raises(InvalidParameterError, match=r"^HopfieldExplorer: the parameter 'side' must "
                                                    r"be an integer in \[4, inf\); got 2$"):
        HopfieldExplorer(side=2)
    with pytest.raises(InvalidParameterError, match=r"^RosenblattTrainer: the parameter 'margin'"):
        RosenblattTrainer(X3, [1, -1, 1], [0.0, 0.0], margin=np.nan)
    ex = HopfieldExplorer(side=4)
    with pytest.raises(InvalidParameterError, match=r"^HopfieldExplorer.set: the parameter "
                                                    r"'alpha' must be a finite number in \(0, 1\]"):
        ex.set(alpha=0.0)


def test_an_unbounded_interval_reads_as_a_finite_number():
    from lecture_pkg.validation import FINITE, check_scalar
    assert check_scalar(-3.5, "b", FINITE) == -3.5
    with pytest.raises(ValueError, match="^the parameter 'b' must be a finite number; got nan$"):
        check_scalar(np.nan, "b", FINITE)


# ---------------------------------------------------------------- ParamValidationMixin

def _toy_estimator():
    """A small estimator on the mixin: a table, a rule between two parameters, and a ``fit``
    and ``partial_fit`` that record that their bodies ran."""
    from sklearn.base import BaseEstimator

    from lecture_pkg.validation import POSITIVE, Options, ParamValidationMixin

    class Toy(ParamValidationMixin, BaseEstimator):
        _parameter_constraints = {"eta": [POSITIVE], "solver": [Options("gd", "lbfgs")],
                                  "batch_size": [POSITIVE, None]}

        def __init__(self, eta=1.0, solver="gd", batch_size=None):
            self.eta, self.solver, self.batch_size = eta, solver, batch_size

        def _check_parameter_combination(self):
            if self.solver == "lbfgs" and self.batch_size is not None:
                raise ValueError("Toy: the parameter 'batch_size' works with solver='gd' only")

        def fit(self, X, y=None, *, note="fit"):
            """Fit the toy."""
            self.ran_ = note
            return self

        def partial_fit(self, X, y=None):
            self.ran_ = "partial_fit"
            return self

    return Toy


@pytest.mark.parametrize("method", ["fit", "partial_fit"])
def test_the_mixin_checks_the_table_before_fit_and_partial_fit_run(method):
    Toy = _toy_estimator()
    for params, match in [({"eta": np.nan}, "Toy: the parameter 'eta' must be a finite number in "
                                            r"\(0, inf\); got nan"),
                          ({"solver": "sgd"}, "'solver' must be one of 'gd', 'lbfgs'"),
                          ({"solver": "lbfgs", "batch_size": 8.0}, "'batch_size' works with")]:
        toy = Toy(**params)
        with pytest.raises(ValueError, match=match):
            getattr(toy, method)([[0.0]])
        assert not hasattr(toy, "ran_")               # the body never started
    assert getattr(Toy(), method)([[0.0]]).ran_ == method


def test_the_mixin_keeps_fit_as_written_and_wraps_it_once():
    import inspect

    Toy = _toy_estimator()
    assert Toy.fit.__doc__ == "Fit the toy." and Toy.fit.__name__ == "fit"
    assert list(inspect.signature(Toy.fit).parameters) == ["self", "X", "y", "note"]
    assert Toy().fit([[0.0]], note="kept").ran_ == "kept"

    class Child(Toy):                                  # inherits the wrapped fit: not wrapped again
        pass

    assert Child.fit is Toy.fit and Child.fit.__wrapped__.__name__ == "fit"
    calls = []
    toy = Toy()
    toy._validate_params = lambda: calls.append(1)
    toy.fit([[0.0]])
    assert calls == [1]


# ---------------------------------------------------------------- validate_args (issue 29)

def _checked_toy():
    from lecture_pkg.validation import (COUNT, LABELS, MATRIX, POSITIVE, Array, Options,
                                        validate_args)

    @validate_args(X=MATRIX, y=[Array(1, rows_of="X"), None], eta=POSITIVE, n=COUNT,
                   mode=Options("a", "b"), labels=[LABELS, None])
    def toy(X, y=None, eta=1.0, *, n=3, mode="a", labels=None):
        """The toy's docstring."""
        return X, y, eta, n, mode, labels

    return toy


def test_validate_args_names_the_argument_in_the_words_of_check_params():
    toy = _checked_toy()
    X = [[0.0, 1.0], [1.0, 0.0]]
    with pytest.raises(ValueError, match=r"^toy: the parameter 'eta' must be a finite number in "
                                         r"\(0, inf\); got nan$"):
        toy(X, None, np.nan)
    with pytest.raises(TypeError, match="'n' must be an integer in"):     # also a TypeError
        toy(X, n=2.5)
    with pytest.raises(ValueError, match="'mode' must be one of 'a', 'b'; got 'c'"):
        toy(X, mode="c")
    with pytest.raises(ValueError, match="X contains NaN or infinite values"):
        toy([[np.nan, 0.0]])
    with pytest.raises(ValueError, match="y must have the same number of rows as X; X has 2 "
                                         "rows but y has 3"):
        toy(X, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match=r"^labels must be \+1 or -1"):
        toy(X, labels=[1, 0])


def test_validate_args_hands_on_checked_arrays_and_leaves_the_rest_alone():
    toy = _checked_toy()
    X, y, eta, n, mode, labels = toy([[1, 2]], [3], 2, n=np.int64(4), labels=[1, -1])
    assert X.dtype == y.dtype == labels.dtype == float and eta == 2 and type(eta) is int
    already = np.ones((2, 2))
    assert toy(already)[0] is already                      # a float array is not copied
    assert toy.__name__ == "toy" and toy.__doc__ == "The toy's docstring."
    import inspect
    assert list(inspect.signature(toy).parameters) == ["X", "y", "eta", "n", "mode", "labels"]
    assert set(toy._parameter_constraints) == {"X", "y", "eta", "n", "mode", "labels"}


def test_validate_args_refuses_a_wrong_table_when_the_function_is_defined():
    from lecture_pkg.validation import COUNT, POSITIVE, validate_args
    with pytest.raises(TypeError, match="has no argument named 'eps'"):
        validate_args(eps=POSITIVE)(lambda eta=1.0: eta)
    with pytest.raises(ValueError, match="'n' must be an integer"):      # its own default
        validate_args(n=COUNT)(lambda n=0: n)


def test_an_array_constraint_checks_every_entry_against_its_range():
    from lecture_pkg.validation import COUNT, POSITIVE, Array
    widths = Array(1, within=POSITIVE)
    assert str(widths) == "a 1-d array of finite numbers in (0, inf)"
    assert widths.is_satisfied_by([0.5, 2.0]) and not widths.is_satisfied_by([0.5, 0.0])
    with pytest.raises(ValueError, match=r"^f: the parameter 'k' must be an integer or an array of "
                                         r"integers in \[1, inf\); got 2.5 \(in an array of shape "
                                         r"\(2,\)\)$"):
        Array(within=COUNT).check([1, 2.5], "k", "f")
    assert Array(within=COUNT).check(3, "k") == 3          # a number passes as it is
