"""Inputs a new user may pass by mistake: each is refused with a message naming the problem,
or gives the documented value (issue: every input checked)."""

import pathlib
import re
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning
from sklearn.model_selection import cross_val_score

import lecture_pkg
from lecture_pkg.kernel_machines import (KernelAdaTron, KernelPerceptron, LPMachine, NotPSDWarning,
                                         check_gram, kernel_adatron, kernel_matrix)
from lecture_pkg.kernel_machines.mesr import NoReductionWarning, mesr
from lecture_pkg.learning import RidgeRegression
from lecture_pkg.linear import (AdaTron, Adaline, MinOver, Perceptron, Pocket, RosenblattTrainer,
                                SoftMarginAdaTron, cover_count, cover_fraction)
from lecture_pkg.probabilistic import CategoricalNaiveBayes, GaussianNaiveBayes
from lecture_pkg.probabilistic.naive_bayes import UndefinedPosteriorWarning, UnseenCategoryWarning
from lecture_pkg.prototypes import (GLVQ, GMLVQ, LVQ1, NearestNeighborClassifier,
                                    NearestPrototypeClassifier)
from lecture_pkg.widgets import PerceptronExplorer
from lecture_pkg.networks import MLP, ParityMachine
from lecture_pkg.kernel_machines import LearningRateWarning
from lecture_pkg.networks.alvinn import COLS, ROWS, shifted_copies
from lecture_pkg.prototypes import condensed_nearest_neighbor


@pytest.fixture
def data():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    return X, np.where(X[:, 0] + 0.2 * rng.normal(size=30) > 0, 1, -1)


@pytest.mark.parametrize("estimator", [Perceptron, Adaline])
@pytest.mark.parametrize("start", [dict(coef_init=[np.nan, 0.0, 0.0]), dict(coef_init=[0.0, np.inf,
                                                                                       0.0]),
                                   dict(intercept_init=np.nan), dict(intercept_init=-np.inf)])
def test_a_start_that_is_not_finite_is_refused(data, estimator, start):
    with pytest.raises(ValueError,
                       match="(coef|intercept)_init'? must (not contain|be a finite number)"):
        estimator().fit(*data, **start)


@pytest.mark.parametrize("estimator", [Perceptron, Adaline])
@pytest.mark.parametrize("start, name", [(dict(coef_init=["a", 0.0, 0.0]), "coef_init"),
                                         (dict(intercept_init="a"), "intercept_init"),
                                         (dict(intercept_init=[1.0, 2.0]), "intercept_init")])
def test_a_start_that_is_not_a_number_is_refused_by_name(data, estimator, start, name):
    with pytest.raises(ValueError, match=f"{name}'? must be"):
        estimator().fit(*data, **start)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_a_start_given_as_a_numpy_scalar_is_accepted(data):
    a = Perceptron(max_epochs=1).fit(*data, intercept_init=np.float64(0.5), coef_init=np.ones(3))
    b = Perceptron(max_epochs=1).fit(*data, intercept_init=np.array(0.5), coef_init=[1, 1, 1])
    assert a.intercept_ == b.intercept_ and np.array_equal(a.coef_, b.coef_)


def test_the_explorer_and_the_trainer_refuse_a_start_that_is_not_finite():
    X = np.array([[1.0, 0.0], [-1.0, 0.5]])
    with pytest.raises(ValueError, match="coef_init must not contain NaN"):
        PerceptronExplorer(X, [1, -1], coef_init=(np.nan, 0.0))
    with pytest.raises(ValueError, match="'intercept_init' must be a finite number"):
        PerceptronExplorer(X, [1, -1], intercept_init=np.inf)
    with pytest.raises(ValueError, match="weights must not contain NaN"):
        RosenblattTrainer(X, [1, -1], [np.nan, 0.0])
    with pytest.raises(ValueError, match="'margin' must be a finite number"):
        RosenblattTrainer(X, [1, -1], [0.0, 0.0], margin=np.nan)


def test_overflowing_inputs_are_refused_by_name(data):
    X, y = data
    with pytest.raises(ValueError, match="too large"):
        Adaline().fit(X * 1e300, y)
    with pytest.raises(ValueError, match="X is too large"):
        KernelAdaTron().fit(X * 1e300, y)


ESTIMATORS = [Perceptron, MinOver, AdaTron, Adaline, Pocket, SoftMarginAdaTron,
              KernelAdaTron, KernelPerceptron, LPMachine,
              lambda: KernelAdaTron(kernel="linear"), lambda: KernelPerceptron(kernel="poly"),
              NearestNeighborClassifier, NearestPrototypeClassifier, LVQ1, GLVQ, GMLVQ,
              GaussianNaiveBayes, RidgeRegression]


@pytest.mark.parametrize("estimator", ESTIMATORS)
@pytest.mark.parametrize("scale", [1e300, 1e160])
def test_every_estimator_refuses_inputs_whose_squares_overflow(data, estimator, scale):
    # finite inputs, but every inner product and squared distance of them is infinite:
    # a clear error, not a ConvergenceWarning, a ZeroDivisionError or one class predicted
    X, y = data
    with pytest.raises(ValueError,
                       match=r"X is too large: the sum of its squared entries overflows"):
        estimator().fit(X * scale, y)


@pytest.mark.parametrize("estimator", ESTIMATORS)
@pytest.mark.parametrize("scale", [1e-300, 1e-165])
def test_every_estimator_refuses_inputs_whose_squares_underflow(data, estimator, scale):
    X, y = data
    with pytest.raises(ValueError,
                       match=r"X is too small: the sum of its squared entries underflows"):
        estimator().fit(X * scale, y)


@pytest.mark.parametrize("estimator", [GLVQ, GMLVQ, lambda: GLVQ(solver="batch")])
@pytest.mark.parametrize("scale", [1e-5, 1e-120])
def test_glvq_on_inputs_of_a_tiny_scale_warns_that_its_cost_rose(data, estimator, scale):
    # the step grows like one over the distances: the prototypes fly off; at 1e-120 the
    # squared distances' sums square to zero, which used to raise ZeroDivisionError
    X, y = data
    with pytest.warns(ConvergenceWarning, match="raised its cost"):
        m = estimator().fit(X * scale, y)
    assert m.cost_per_epoch_[-1] > m.cost_per_epoch_[0]


@pytest.mark.parametrize("estimator", [GLVQ, GMLVQ])
def test_glvq_on_standardised_inputs_lowers_its_cost_without_a_warning(data, estimator):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = estimator().fit(*data)
    assert m.cost_per_epoch_[-1] < m.cost_per_epoch_[0]


@pytest.mark.parametrize("machine", [KernelAdaTron, KernelPerceptron, LPMachine])
@pytest.mark.parametrize("scale", [1e-300, 1e-160, 3e-155])
def test_gamma_scale_on_inputs_too_small_names_the_data(data, machine, scale):
    # var(X) underflows (to 0, or to a subnormal whose inverse is infinite); at the
    # smaller scales the squares of X underflow already, which every estimator refuses
    X, y = data
    with pytest.raises(ValueError, match=r"X is too small(:| for gamma='scale':) "
                                         r"(its variance|the sum of its squared entries) "
                                         r"underflows"):
        machine().fit(X * scale, y)


def test_gamma_scale_of_constant_inputs_is_one_as_in_scikit_learn():
    m = KernelPerceptron(max_epochs=1)
    assert m._kernel_params(np.full((4, 2), 3.0)) == {"gamma": 1.0}


def test_a_named_kernel_that_overflows_is_refused(data):
    X, y = data
    with pytest.raises(ValueError,
                       match="the Gram matrix of the kernel 'poly' contains NaN or infinite"):
        KernelAdaTron(kernel="poly", degree=400).fit(10 * X, y)
    with pytest.raises(ValueError, match="kernel 'poly' contains NaN or infinite"):
        kernel_matrix(10 * X, kernel="poly", degree=400)


def test_gradient_descent_that_diverges_says_so(data):
    X, y = data
    net = MLP([3, 4, 1], random_state=np.random.default_rng(1), activation="tanh",
              output_activation="identity")
    with pytest.raises(FloatingPointError, match="diverged.*smaller learning rate"):
        net.fit(X, (y[:, None] > 0).astype(float), eta=1e6, n_epochs=200)


@pytest.mark.parametrize("machine", [KernelAdaTron, KernelPerceptron, LPMachine])
def test_a_kernel_that_returns_nan_is_refused(data, machine):
    def broken(A, B):
        K = A @ B.T
        K[0, 0] = np.nan
        return K

    with pytest.raises(ValueError, match="the Gram matrix of the kernel 'broken' contains NaN"):
        machine(kernel=broken).fit(*data)


def test_the_kernel_adatron_refuses_a_gram_matrix_with_nan_as_the_other_machines_do(data):
    from lecture_pkg.kernel_machines import kernel_perceptron, lp_matrices
    X, y = data
    K = X @ X.T
    K[1, 2] = np.nan
    for solve in (lambda: kernel_adatron(K, y, check_psd=None), lambda: kernel_perceptron(K, y),
                  lambda: lp_matrices(K, y)):
        with pytest.raises(ValueError, match="^K contains NaN or infinite values$"):
            solve()


def test_greedy_bias_is_the_midpoint_of_the_optimal_interval_when_no_example_is_free():
    # With no embedding strictly inside (0, C), every b in an interval satisfies the
    # Kuhn-Tucker conditions; the greedy solver returns its midpoint.  The interval is
    # computed here from the embeddings alone: x = 0 needs y (f + b) >= 1, x = C needs
    # y (f + b) <= 1.  A leftover embedding of order 1e-17 must not count as free.
    C, checked = 0.5, 0
    for seed in range(120):
        rng = np.random.default_rng(seed)
        X = rng.normal(size=(12, 2))
        y = np.where(X[:, 0] + 0.3 * rng.normal(size=12) > 0, 1, -1)
        if len(set(y)) < 2:
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m = KernelAdaTron(C=C, kernel="linear", mode="greedy", tol=1e-10).fit(X, y)
        a = m.embeddings_
        low, high = a < 1e-9, a > C - 1e-9
        if not np.all(low | high):
            continue
        f = (X @ X.T) @ (a * y)
        lower = np.r_[(y - f)[low & (y > 0)], (y - f)[high & (y < 0)]].max()
        upper = np.r_[(y - f)[low & (y < 0)], (y - f)[high & (y > 0)]].min()
        assert m.intercept_ == pytest.approx(0.5 * (lower + upper), abs=1e-6)
        checked += 1
    assert checked >= 10


def test_condensed_nearest_neighbor_refuses_what_the_estimators_refuse():
    X = np.arange(6.0)[:, None]
    with pytest.raises(ValueError, match="no rows"):
        condensed_nearest_neighbor(np.empty((0, 2)), [])
    with pytest.raises(ValueError):
        condensed_nearest_neighbor(X, [0.0, 0.0, np.nan, 1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="'p' must be"):
        condensed_nearest_neighbor(X, [0, 0, 0, 1, 1, 1], metric="minkowski", p=0.5)
    with pytest.raises(ValueError, match="'metric' must be"):
        condensed_nearest_neighbor(X, [0, 0, 0, 1, 1, 1], metric="cosine")


@pytest.mark.parametrize("P, N", [(np.nan, 3), (6, np.nan), (6.5, 3), (np.inf, 3), (0, 3), (True,
                                                                                            3),
                                  ("6", 3)])
def test_cover_fraction_refuses_what_cover_count_refuses_in_the_same_words(P, N):
    with pytest.raises(ValueError) as count_error:
        cover_count(P, N)
    with pytest.raises(ValueError) as fraction_error:
        cover_fraction(P, N)
    # each names itself, and cover_fraction also takes arrays
    assert str(fraction_error.value) == (
        str(count_error.value).replace("cover_count:", "cover_fraction:")
        .replace("an integer in", "an integer or an array of integers in"))


def test_cover_fraction_names_the_bad_entry_of_an_array():
    with pytest.raises(ValueError,
                       match=r"'P' must be an integer or an array of integers in \[1, inf\); "
                             r"got 5.5 \(in an array of shape \(2,\)\)"):
        cover_fraction([4, 5.5], 2)


def test_cover_fraction_accepts_whole_numbers_in_any_dtype():
    assert cover_fraction(4.0, 2) == cover_fraction(4, 2) == 0.5


def test_shifted_copies_refuse_nan():
    image = np.zeros(ROWS * COLS)
    with pytest.raises(ValueError, match="shifts must not contain NaN"):
        shifted_copies(image, 0.0, [np.nan])
    with pytest.raises(ValueError, match="'direction' must be a finite number"):
        shifted_copies(image, np.nan, [1])
    image[3] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        shifted_copies(image, 0.0, [1])


# ---------------------------------------------------------------- warnings name the user's line

def _warned_here(category, call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    mine = [w for w in caught if issubclass(w.category, category)]
    assert mine, f"no {category.__name__}"
    return {pathlib.Path(w.filename).name for w in mine}


def _categorical():
    X = np.array([["a", "x"], ["b", "y"], ["a", "y"], ["b", "x"]])
    return CategoricalNaiveBayes(handle_unknown="warn").fit(X, [0, 1, 0, 1]), np.array([["c", "x"]])


@pytest.mark.parametrize("category, call", [
    (ConvergenceWarning, lambda X, y: Perceptron(max_epochs=1).fit(X, y)),
    (ConvergenceWarning, lambda X, y: MinOver(max_steps=2).fit(X, y)),
    (ConvergenceWarning, lambda X, y: AdaTron(max_epochs=1).fit(X, y)),
    (ConvergenceWarning, lambda X, y: Adaline(eta=10.0, max_epochs=5).fit(X, y)),
    (ConvergenceWarning, lambda X, y: SoftMarginAdaTron(max_epochs=1).fit(X, y)),
    (ConvergenceWarning, lambda X, y: KernelAdaTron(max_epochs=1, tol=1e-12).fit(X, y)),
    (ConvergenceWarning, lambda X, y: KernelPerceptron(kernel="linear", max_epochs=1).fit(X, y)),
    (NotPSDWarning, lambda X, y: KernelAdaTron(kernel="precomputed", check_psd="warn", max_epochs=2)
     .fit(-np.eye(len(y)), y)),
    (NotPSDWarning, lambda X, y: check_gram(-np.eye(3), action="warn")),
    (NoReductionWarning, lambda X, y: mesr(np.eye(3), np.ones(3))),
    (UnseenCategoryWarning, lambda X, y: (lambda m, Z: m.predict(Z))(*_categorical())),
    (UnseenCategoryWarning, lambda X, y: (lambda m, Z: m.predict_proba(Z))(*_categorical())),
    (UnseenCategoryWarning, lambda X, y: (lambda m, Z: m.score(Z, [0]))(*_categorical())),
    (ConvergenceWarning, lambda X, y: cross_val_score(Perceptron(max_epochs=1), X, y, cv=2)),
    (LearningRateWarning, lambda X, y: Adaline(eta=10.0, max_epochs=5).fit(X, y)),
    (ConvergenceWarning, lambda X, y: GMLVQ().fit(X * 1e-5, y)),
    (ConvergenceWarning, lambda X, y: ParityMachine(max_units=1, random_state=0)
     .fit(np.vstack([X, X[:1]]), np.append(y, -y[0]))),
])
def test_a_warning_points_at_the_users_call(data, category, call):
    # whatever the path inside the package, the warning names this file
    assert _warned_here(category, lambda: call(*data)) == {pathlib.Path(__file__).name}


def test_an_undefined_posterior_warning_points_at_the_users_call():
    X = np.array([["a"], ["b"]])
    m = CategoricalNaiveBayes(m=0, categories=[["a", "b", "c"]]).fit(X, [0, 1])
    for call in (m.predict_proba, m.predict_log_proba):
        assert _warned_here(UndefinedPosteriorWarning, lambda: call(np.array([["c"]]))) \
            == {pathlib.Path(__file__).name}


def test_the_package_warns_through_one_helper():
    root = pathlib.Path(lecture_pkg.__file__).parent
    direct = sorted(str(f.relative_to(root)) for f in root.rglob("*.py")
                    if re.search(r"warnings\.warn\(", f.read_text()) and f.name != "validation.py")
    assert direct == [], direct
