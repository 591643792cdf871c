"""Tests of lecture_pkg.probabilistic.bayes: joint tables, Bayes' rule, the Bayes classifier,
networks."""

import itertools

import numpy as np
import pytest
from scipy.stats import multivariate_normal, norm

from lecture_pkg import datasets
from lecture_pkg.neurons import sigmoid
from lecture_pkg.probabilistic import CategoricalNaiveBayes
from lecture_pkg.probabilistic import bayes as pr


@pytest.fixture
def shapes():
    return datasets.shapes_joint()


def random_joint(rng, shape=(2, 3, 2)):
    t = rng.random(shape)
    names = [f"X{i}" for i in range(len(shape))]
    return pr.JointPMF({n: tuple(range(k)) for n, k in zip(names, shape)}, t / t.sum())


# ---------------------------------------------------------------- JointPMF

def test_shapes_joint_slide_numbers(shapes):
    assert shapes.prob({"color": "red", "shape": "circle"}) == pytest.approx(0.25, abs=1e-15)
    assert shapes.prob({"color": "red"}) == pytest.approx(0.57, abs=1e-15)
    assert shapes.cond_prob({"category": "pos"}, {"color": "red", "shape": "circle"}) == \
        pytest.approx(0.8, abs=1e-15)
    assert shapes.prob() == pytest.approx(1.0)
    assert shapes.prob({"category": "pos"}) == pytest.approx(0.25)
    assert shapes.prob({"shape": "circle"}) == pytest.approx(0.47)


def test_events_as_sets_and_functions_agree(shapes):
    by_set = shapes.prob({"color": ("red", "blue"), "shape": "square"})
    by_fn = shapes.prob(lambda color, shape, category: shape == "square")
    assert by_set == pytest.approx(by_fn) == pytest.approx(0.53)


def test_die_conditional_probabilities():
    die = datasets.fair_die()
    assert die.prob({"roll": {1, 3, 5}}) == pytest.approx(0.5)
    assert die.cond_prob({"roll": 3}, {"roll": {1, 3, 5}}) == pytest.approx(1 / 3)
    assert die.cond_prob({"roll": 3}, lambda roll: roll % 2 == 0) == 0.0
    # complement rule and additivity over disjoint events
    assert die.prob(lambda roll: roll != 3) == pytest.approx(1 - die.prob({"roll": 3}))
    assert die.prob({"roll": {1,
                              2}}) == pytest.approx(die.prob({"roll": 1}) + die.prob({"roll": 2}))


def test_marginal_sums_out_and_keeps_the_requested_order(shapes):
    m = shapes.marginal(["category", "color"])
    assert m.variables == ("category", "color")
    np.testing.assert_allclose(m.table, [[0.22, 0.03], [0.35, 0.40]])
    np.testing.assert_allclose(shapes.marginal("color").table, [0.57, 0.43])


def test_condition_gives_conditional_pmfs(shapes):
    given_pos = shapes.condition({"category": "pos"}).marginal("color")
    np.testing.assert_allclose(given_pos.table, [0.22 / 0.25, 0.03 / 0.25])
    # conditioning on an event of probability zero is undefined
    die = datasets.fair_die()
    with pytest.raises(ValueError, match="probability zero"):
        die.cond_prob({"roll": 3}, lambda roll: roll > 6)
    with pytest.raises(ValueError, match="probability zero"):
        die.condition(lambda roll: roll > 6)


def test_law_of_total_probability_on_the_shapes_table(shapes):
    parts = [{"category": c} for c in ("pos", "neg")]
    cond = [shapes.cond_prob({"color": "red"}, b) for b in parts]
    priors = [shapes.prob(b) for b in parts]
    assert pr.total_probability(cond, priors) == pytest.approx(shapes.prob({"color": "red"}))


@pytest.mark.parametrize("seed", range(5))
def test_independence_iff_conditional_equals_marginal(seed):
    # P(A|B) = P(A) <=> P(A and B) = P(A) P(B), on random and on product joints
    rng = np.random.default_rng(seed)
    for joint in (random_joint(rng), pr.JointPMF({"a": (0, 1), "b": (0, 1, 2)},
                                                 np.outer([0.3, 0.7], rng.dirichlet(np.ones(3))))):
        for a_val, b_val in itertools.product(joint.values[joint.variables[0]],
                                              joint.values[joint.variables[1]]):
            A, B = {joint.variables[0]: a_val}, {joint.variables[1]: b_val}
            eq = abs(joint.cond_prob(A, B) - joint.prob(A)) <= 1e-12
            assert eq == joint.events_independent(A, B, atol=1e-12)


def test_independence_of_variables():
    product = pr.JointPMF({"a": (0, 1), "b": (0, 1, 2)}, np.outer([0.3, 0.7], [0.2, 0.5, 0.3]))
    assert product.independent("a", "b")
    rng = np.random.default_rng(0)
    assert not random_joint(rng).independent("X0", "X1")
    with pytest.raises(ValueError, match="disjoint"):
        product.independent("a", ["a", "b"])


def test_conditional_independence_holds_for_a_naive_bayes_joint_not_for_shapes(shapes):
    # a joint built as P(y) P(x1|y) P(x2|y) is conditionally independent, not independent
    py = np.array([0.3, 0.7])
    p1 = np.array([[0.9, 0.1], [0.2, 0.8]])
    p2 = np.array([[0.6, 0.4], [0.1, 0.9]])
    table = np.einsum("y,ya,yb->aby", py, p1, p2)
    joint = pr.JointPMF({"x1": (0, 1), "x2": (0, 1), "y": (0, 1)}, table)
    assert joint.conditionally_independent("x1", "x2", "y")
    assert not joint.independent("x1", "x2")
    assert not shapes.conditionally_independent("color", "shape", "category")
    with pytest.raises(ValueError, match="differ"):
        joint.conditionally_independent("x1", "y", "y")


@pytest.mark.parametrize("table, message", [
    ([[0.5, 0.6], [0.0, -0.1]], "non-negative"),
    ([[0.5, 0.2], [0.1, 0.1]], "sum to one"),
    ([[np.nan, 0.5], [0.25, 0.25]], "NaN"),
    ([0.5, 0.5], "shape"),
])
def test_bad_tables_are_refused(table, message):
    with pytest.raises(ValueError, match=message):
        pr.JointPMF({"a": (0, 1), "b": (0, 1)}, table)


def test_bad_variables_and_events_are_refused(shapes):
    with pytest.raises(ValueError, match="unknown variable"):
        shapes.prob({"size": "big"})
    with pytest.raises(ValueError, match="not a value"):
        shapes.prob({"color": "green"})
    with pytest.raises(TypeError, match="event"):
        shapes.prob("red")
    with pytest.raises(ValueError, match="twice"):
        pr.JointPMF({"a": (0, 0)}, [0.5, 0.5])


def test_from_dict_and_uniform():
    j = pr.JointPMF.from_dict({"a": ("x", "y"), "b": (0, 1)}, {("x", 0): 0.4, ("y", 1): 0.6})
    assert j.prob({"a": "x"}) == pytest.approx(0.4) and j.prob({"b": 0}) == pytest.approx(0.4)
    with pytest.raises(ValueError, match="sum to one"):
        pr.JointPMF.from_dict({"a": ("x", "y")}, {("x",): 0.4})
    with pytest.raises(ValueError, match="not a value"):
        pr.JointPMF.from_dict({"a": ("x", "y")}, {("z",): 1.0})
    np.testing.assert_allclose(pr.JointPMF.uniform({"a": range(4)}).table, 0.25)


# ---------------------------------------------------------------- Bayes' rule

def test_bayes_rule_against_the_joint(shapes):
    lik = [shapes.cond_prob({"color": "red", "shape": "circle"}, {"category": c}) for c in ("pos",
                                                                                            "neg")]
    prior = [0.25, 0.75]
    np.testing.assert_allclose(pr.bayes_rule(lik, prior), [0.8, 0.2])
    np.testing.assert_allclose(pr.bayes_rule(lik, prior, evidence=0.25), [0.8, 0.2])
    with pytest.raises(ValueError, match="0/0"):
        pr.bayes_rule([0.0, 0.0], [0.5, 0.5])
    with pytest.raises(ValueError, match="sum to one"):
        pr.bayes_rule([0.1, 0.2], [0.5, 0.6])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        pr.total_probability([1.5, 0.0], [0.5, 0.5])


# ---------------------------------------------------------------- the Bayes classifier

def test_bayes_classifier_and_error_on_shapes(shapes):
    c = pr.bayes_classifier(shapes, "category")
    assert c == {("red", "circle"): "pos", ("red", "square"): "neg",
                 ("blue", "circle"): "neg", ("blue", "square"): "neg"}
    assert pr.bayes_error(shapes, "category") == pytest.approx(0.10, abs=1e-15)
    assert pr.classifier_error(shapes, "category", c) == pytest.approx(0.10, abs=1e-15)
    errors = pr.all_classifier_errors(shapes, "category")
    assert len(errors) == 16 and errors.min() == pytest.approx(0.10)
    # the classifier that always says "pos" errs with probability P(neg)
    assert pr.classifier_error(shapes, "category", lambda x: "pos") == pytest.approx(0.75)
    with pytest.raises(ValueError, match="class value"):
        pr.classifier_error(shapes, "category", lambda x: "maybe")


@pytest.mark.parametrize("seed", range(6))
def test_bayes_classifier_is_optimal_by_brute_force(seed):
    rng = np.random.default_rng(seed)
    joint = random_joint(rng, (3, 2, 3))               # 6 feature tuples, 3 classes:
                                                       # 729 classifiers
    errors = pr.all_classifier_errors(joint, "X2")
    assert errors.min() == pytest.approx(pr.bayes_error(joint, "X2"), abs=1e-12)
    assert np.all(errors >= pr.bayes_error(joint, "X2") - 1e-12)
    # the enumeration agrees with classifier_error for a few classifiers
    keys = list(itertools.product(range(3), range(2)))
    for number in rng.integers(0, len(errors), 5):
        digits = np.base_repr(int(number), 3).zfill(6)
        c = {k: int(d) for k, d in zip(keys, digits)}
        assert errors[number] == pytest.approx(pr.classifier_error(joint, "X2", c))
    with pytest.raises(ValueError, match="too many"):
        pr.all_classifier_errors(joint, "X2", max_classifiers=100)


def test_map_and_ml_rules():
    lik = np.array([[0.8, 0.07], [0.08, 0.4], [0.1, 0.2]])
    assert pr.map_rule([0.5, 0.5], lik).tolist() == pr.ml_rule(lik).tolist() == [0, 1, 1]
    # a skewed prior changes the MAP decision on the first x but not the ML one
    assert pr.map_rule([0.05, 0.95], lik).tolist() == [1, 1, 1]
    assert pr.ml_rule(lik).tolist()[0] == 0
    # MAP equals the argmax of the posterior (Bayes)
    prior = np.array([0.3, 0.7])
    post = np.array([pr.bayes_rule(row, prior) for row in lik])
    assert pr.map_rule(prior, lik).tolist() == np.argmax(post, axis=1).tolist()
    with pytest.raises(ValueError, match="classes"):
        pr.map_rule([0.2, 0.3, 0.5], lik)


# ---------------------------------------------------------------- parameter counts

@pytest.mark.parametrize("n", [1, 2, 5, 10, 30])
def test_parameter_counts_binary(n):
    assert pr.n_params_full_joint(n) == 2 ** (n + 1) - 1
    assert pr.n_params_conditional(n) == 2 ** n
    assert pr.n_params_naive_bayes(n) == 2 * n
    assert pr.n_params_naive_bayes(n, include_prior=True) == 2 * n + 1


def test_parameter_counts_general_and_by_enumeration(shapes):
    # the shapes joint has 2*2*2 entries: 7 free numbers
    assert pr.n_params_full_joint(2) == shapes.table.size - 1
    assert pr.n_params_full_joint(3, [3, 3, 3], 2) == 53
    assert pr.n_params_conditional(3, 3, 2) == 27
    assert pr.n_params_naive_bayes(3, 3, 2) == 12
    with pytest.raises(ValueError, match=r"'n' must be an integer in \[0, inf\)"):
        pr.n_params_full_joint(-1)
    with pytest.raises(ValueError, match="n_values"):
        pr.n_params_naive_bayes(2, [2])
    with pytest.raises(ValueError, match="n_classes"):
        pr.n_params_conditional(2, 2, 0)


# ---------------------------------------------------------------- Bayesian networks

def back_network():
    tf = (True, False)
    return pr.BayesianNetwork(
        values={v: tf for v in "CSWBA"},
        parents={"W": ("C",), "B": ("C", "S"), "A": ("B",)},
        cpts={"C": [0.8, 0.2], "S": [0.02, 0.98],
              "W": [[0.9, 0.1], [0.01, 0.99]],
              "B": [[[0.9, 0.1], [0.2, 0.8]], [[0.9, 0.1], [0.01, 0.99]]],
              "A": [[0.7, 0.3], [0.1, 0.9]]})


def test_bayesian_network_counts_and_joint():
    net = back_network()
    assert net.n_params() == 10
    assert pr.n_params_full_joint(4) == 31
    joint = net.joint()
    assert joint.prob() == pytest.approx(1.0)
    # one entry by hand: P(C)P(S)P(W|C)P(B|C,S)P(A|B)
    a = {"C": True, "S": False, "W": False, "B": True, "A": True}
    assert net.prob(a) == pytest.approx(0.8 * 0.98 * 0.1 * 0.2 * 0.7)
    assert joint.prob(a) == pytest.approx(net.prob(a))
    # the factorisation shows up as conditional independences
    assert joint.conditionally_independent("A", ["C", "S", "W"], "B")
    assert joint.independent("C", "S")


def test_bayesian_network_query_by_hand():
    net = back_network()
    q = net.query("C", {"A": True})
    joint = net.joint()
    assert q[True] == pytest.approx(joint.cond_prob({"C": True}, {"A": True}))
    # by hand: sum over S, B
    pc, ps = {True: 0.8, False: 0.2}, {True: 0.02, False: 0.98}
    pb = {(True, True): 0.9, (True, False): 0.2, (False, True): 0.9, (False, False): 0.01}
    pa = {True: 0.7, False: 0.1}
    num = {c: sum(pc[c] * ps[s] * (pb[c, s] * pa[True] + (1 - pb[c, s]) * pa[False])
                  for s in (True, False)) for c in (True, False)}
    assert q[True] == pytest.approx(num[True] / (num[True] + num[False]))
    assert sum(q.values()) == pytest.approx(1.0)
    assert net.query("S") == pytest.approx({True: 0.02, False: 0.98})


def test_naive_bayes_as_a_network_gives_the_naive_bayes_posterior():
    t = datasets.naive_bayes_tables()
    values = {"Y": t.classes, **dict(zip(t.features, t.categories))}
    net = pr.BayesianNetwork(values, {f: ("Y",) for f in t.features},
                             {"Y": t.prior, **dict(zip(t.features, t.conditionals))})
    assert net.n_params() == 1 + 3 * 2 * 2
    q = net.query("Y", {"size": "medium", "color": "red", "shape": "circle"})
    assert q["positive"] == pytest.approx(9 / 11)
    nb = CategoricalNaiveBayes.from_tables(t.classes, t.prior, t.categories, t.conditionals)
    proba = nb.predict_proba([["medium", "red", "circle"]])[0]
    assert proba[list(nb.classes_).index("positive")] == pytest.approx(q["positive"])


def test_bayesian_network_bad_input():
    tf = (True, False)
    with pytest.raises(ValueError, match="cycle"):
        pr.BayesianNetwork({"a": tf, "b": tf}, {"a": ("b",), "b": ("a",)},
                           {"a": [[0.5, 0.5]] * 2, "b": [[0.5, 0.5]] * 2})
    with pytest.raises(ValueError, match="shape"):
        pr.BayesianNetwork({"a": tf, "b": tf}, {"b": ("a",)}, {"a": [0.5, 0.5], "b": [0.5, 0.5]})
    with pytest.raises(ValueError, match="sum to one"):
        pr.BayesianNetwork({"a": tf}, {}, {"a": [0.5, 0.6]})
    with pytest.raises(ValueError, match="non-negative"):
        pr.BayesianNetwork({"a": tf}, {}, {"a": [1.5, -0.5]})
    with pytest.raises(ValueError, match="no conditional"):
        pr.BayesianNetwork({"a": tf}, {}, {})
    with pytest.raises(ValueError, match="full assignment"):
        back_network().prob({"C": True})


# ---------------------------------------------------------------- the logistic sigmoid

def test_slide_case_posterior_is_the_sigmoid():
    xi = np.linspace(-30, 30, 601)
    w, b = pr.gaussian_logistic_weights(0.5, -0.5, 1.0)
    assert w.tolist() == [1.0] and b == 0.0
    np.testing.assert_allclose(pr.gaussian_class_posterior(xi, 0.5, -0.5, 1.0), sigmoid(xi),
                               rtol=1e-12, atol=1e-15)
    direct = norm.pdf(xi, 0.5, 1) / (norm.pdf(xi, 0.5, 1) + norm.pdf(xi, -0.5, 1))
    np.testing.assert_allclose(sigmoid(xi), direct, atol=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_shared_covariance_posterior_is_a_sigmoid_of_a_linear_function(seed):
    rng = np.random.default_rng(seed)
    d = 3
    A = rng.normal(size=(d, d))
    cov = A @ A.T + d * np.eye(d)
    m1, m0, prior1 = rng.normal(size=d), rng.normal(size=d), rng.uniform(0.1, 0.9)
    X = rng.normal(size=(200, d)) * 2
    w, b = pr.gaussian_logistic_weights(m1, m0, cov, prior1)
    p1 = prior1 * multivariate_normal(m1, cov).pdf(X)
    p0 = (1 - prior1) * multivariate_normal(m0, cov).pdf(X)
    np.testing.assert_allclose(sigmoid(X @ w + b), p1 / (p1 + p0), atol=1e-12)
    np.testing.assert_allclose(pr.gaussian_class_posterior(X, m1, m0, cov, prior1),
                               p1 / (p1 + p0), atol=1e-12)


def test_gaussian_posterior_bad_input():
    with pytest.raises(ValueError, match="positive definite"):
        pr.gaussian_logistic_weights([0, 0], [1, 1], [[1, 2], [2, 1]])
    with pytest.raises(ValueError, match="prior"):
        pr.gaussian_logistic_weights(0.5, -0.5, 1.0, prior1=1.0)
    with pytest.raises(ValueError, match="same length"):
        pr.gaussian_logistic_weights([0, 0], [1], 1.0)
    with pytest.raises(ValueError, match="shape"):
        pr.gaussian_class_posterior(np.zeros((3, 2)), 0.5, -0.5, 1.0)
