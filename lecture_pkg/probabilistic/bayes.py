"""Discrete probability for classification: joint tables, Bayes' rule, the Bayes classifier.

Follows the first block of the probabilistic-classification slides (after Mooney):

* :class:`JointPMF` -- a joint probability mass function of named discrete variables,
  with events, marginals, conditioning and (conditional) independence checks;
* :func:`total_probability`, :func:`bayes_rule` -- ``P(A) = sum_i P(A|B_i) P(B_i)`` and
  ``P(A|B) = P(B|A) P(A) / P(B)``;
* :func:`bayes_classifier`, :func:`classifier_error`, :func:`bayes_error`,
  :func:`all_classifier_errors` -- ``C^Bayes(x) = argmax_y P(Y=y | X=x)``, its error
  ``E_C = P(Y != C)`` and the brute-force check of its optimality;
* :func:`map_rule`, :func:`ml_rule` -- the MAP and maximum-likelihood decision rules;
* :func:`n_params_full_joint`, :func:`n_params_conditional`, :func:`n_params_naive_bayes`
  -- how many numbers each model needs (``2^{n+1} - 1``, ``2^n``, ``2n`` for binary variables);
* :class:`BayesianNetwork` -- a tiny Bayesian network evaluated by enumeration;
* :func:`gaussian_logistic_weights`, :func:`gaussian_class_posterior` --
  the logistic sigmoid (:func:`lecture_pkg.neurons.sigmoid`) as the posterior of two Gaussian
  classes with a shared covariance.

Bad input (negative probabilities, tables that do not sum to one, conditioning on an
event of probability zero) raises a ``ValueError`` that names the problem.
"""

from __future__ import annotations

import itertools
import math
import numbers
from collections.abc import Callable, Mapping, Sequence

import numpy as np
from scipy.special import logsumexp

from .._ties import first_argmax
from ..validation import ARRAY, COUNT, NON_NEGATIVE, Array, Interval, validate_args

__all__ = [
    "ATOL",
    "check_distribution",
    "JointPMF",
    "total_probability",
    "bayes_rule",
    "bayes_classifier",
    "classifier_error",
    "bayes_error",
    "all_classifier_errors",
    "map_rule",
    "ml_rule",
    "n_params_full_joint",
    "n_params_conditional",
    "n_params_naive_bayes",
    "BayesianNetwork",
    "gaussian_logistic_weights",
    "gaussian_class_posterior",
]

ATOL = 1e-9


# ---------------------------------------------------------------- checks

@validate_args(axis=[Interval(numbers.Integral), None], atol=NON_NEGATIVE)
def check_distribution(p: np.ndarray, name: str = "probabilities", *, axis: int | None = None,
                       atol: float = ATOL) -> np.ndarray:
    """Return ``p`` as a float array after checking it is a probability distribution.

    Every entry must be finite and non-negative, and the entries must sum to one
    (along ``axis``, or in total when ``axis`` is ``None``) within ``atol``.

    Raises
    ------
    ValueError
        Naming the first problem found: NaN/infinite, negative entries, wrong sum.
    """
    p = np.asarray(p, dtype=float)
    if p.size == 0:
        raise ValueError(f"{name} are empty")
    if not np.all(np.isfinite(p)):
        raise ValueError(f"{name} contain NaN or infinite values")
    if np.any(p < 0):
        raise ValueError(f"{name} must be non-negative; found {p[p < 0][:3].tolist()}")
    sums = p.sum(axis=axis)
    bad = np.abs(sums - 1.0) > atol
    if np.any(bad):
        shown = np.atleast_1d(sums)[np.atleast_1d(bad)][:3]
        raise ValueError(f"{name} must sum to one; they sum to {np.round(shown, 12).tolist()}")
    return p


def _probability_vector(p, name: str) -> np.ndarray:
    """``p`` (finite: checked by ``validate_args``) as probabilities, up to ``ATOL`` above 1."""
    p = np.asarray(p, dtype=float)
    if np.any(p < 0) or np.any(p > 1 + ATOL):
        raise ValueError(f"{name} must lie in [0, 1]")
    return p


# ---------------------------------------------------------------- the joint table

class JointPMF:
    """Joint probability mass function of named discrete random variables.

    Parameters
    ----------
    values : mapping of str to sequence
        The variables in axis order, each with its list of values, e.g.
        ``{"color": ("red", "blue"), "shape": ("circle", "square")}``.
    table : array_like
        ``table[i, j, ...] = P(X_1 = values_1[i], X_2 = values_2[j], ...)``; its shape is
        the number of values of each variable.  It must be non-negative and sum to one.

    Notes
    -----
    Events are given as a mapping ``{variable: value}`` (a conjunction; a set, list or
    tuple of values means "one of these"), or as a function that receives the values of
    all variables as keyword arguments and returns ``True`` or ``False``.
    """

    def __init__(self, values: Mapping[str, Sequence], table: np.ndarray, *,
                 atol: float = ATOL) -> None:
        if not values:
            raise ValueError("a joint pmf needs at least one variable")
        self.values = {str(k): tuple(v) for k, v in values.items()}
        for name, vals in self.values.items():
            if len(vals) == 0:
                raise ValueError(f"variable {name!r} has no values")
            if len(set(vals)) != len(vals):
                raise ValueError(f"variable {name!r} lists a value twice: {vals}")
        shape = tuple(len(v) for v in self.values.values())
        table = np.asarray(table, dtype=float)
        if table.shape != shape:
            raise ValueError(f"the table has shape {table.shape}, but the variables' values "
                             f"give shape {shape}")
        self.table = check_distribution(table, "joint probabilities", atol=atol).copy()
        self.table.setflags(write=False)

    # -- construction
    @classmethod
    def from_dict(cls, values: Mapping[str, Sequence], probs: Mapping[tuple, float], *,
                  atol: float = ATOL) -> JointPMF:
        """Build from ``{(value_1, value_2, ...): probability}``; missing tuples get 0."""
        pmf_values = {str(k): tuple(v) for k, v in values.items()}
        table = np.zeros(tuple(len(v) for v in pmf_values.values()))
        for key, prob in probs.items():
            key = key if isinstance(key, tuple) else (key,)
            if len(key) != len(pmf_values):
                raise ValueError(f"key {key} must give one value per variable {tuple(pmf_values)}")
            index = []
            for (name, vals), v in zip(pmf_values.items(), key):
                if v not in vals:
                    raise ValueError(f"{v!r} is not a value of {name!r}; values are {vals}")
                index.append(vals.index(v))
            table[tuple(index)] += prob
        return cls(pmf_values, table, atol=atol)

    @classmethod
    def uniform(cls, values: Mapping[str, Sequence]) -> JointPMF:
        """Every combination of values equally likely (e.g. a fair die)."""
        shape = tuple(len(v) for v in values.values())
        return cls(values, np.full(shape, 1.0 / math.prod(shape)))

    # -- basic access
    @property
    def variables(self) -> tuple[str, ...]:
        """The names of the random variables, in the order of the table's axes."""
        return tuple(self.values)

    def __repr__(self) -> str:
        return f"JointPMF({', '.join(f'{k}: {len(v)} values' for k, v in self.values.items())})"

    def _axis(self, name: str) -> int:
        if name not in self.values:
            raise ValueError(f"unknown variable {name!r}; the variables are {self.variables}")
        return self.variables.index(name)

    def mask(self, event: Mapping[str, object]) -> np.ndarray:
        """Boolean array over the table: which outcomes belong to ``event``."""
        if callable(event):
            grids = np.meshgrid(*[np.arange(len(v)) for v in self.values.values()], indexing="ij")
            out = np.zeros(self.table.shape, dtype=bool)
            for idx in zip(*[g.ravel() for g in grids]):
                assignment = {n: self.values[n][i] for n, i in zip(self.variables, idx)}
                out[idx] = bool(event(**assignment))
            return out
        if not isinstance(event, Mapping):
            raise TypeError("an event is a mapping {variable: value(s)} "
                            "or a function of the variables")
        out = np.ones(self.table.shape, dtype=bool)
        for name, wanted in event.items():
            axis = self._axis(name)
            vals = self.values[name]
            wanted = set(wanted) if isinstance(wanted, (set, frozenset, list, tuple)) else {wanted}
            unknown = [w for w in wanted if w not in vals]
            if unknown:
                raise ValueError(f"{unknown[0]!r} is not a value of {name!r}; values are {vals}")
            sel = np.array([v in wanted for v in vals])
            shape = [1] * self.table.ndim
            shape[axis] = len(vals)
            out &= sel.reshape(shape)
        return out

    def prob(self, event: Mapping[str, object] | None = None) -> float:
        """``P(E) = sum_{omega in E} f(omega)``; ``None`` is the sure event."""
        if event is None:
            return float(self.table.sum())
        return float(self.table[self.mask(event)].sum())

    def cond_prob(self, event: Mapping[str, object], given: Mapping[str, object]) -> float:
        """``P(A | B) = P(A and B) / P(B)``.

        Raises ``ValueError`` if ``P(B) = 0``: the conditional probability is undefined.
        """
        mb = self.mask(given)
        pb = float(self.table[mb].sum())
        if pb <= 0:
            raise ValueError(f"the conditioning event {given!r} has probability zero, "
                             "so the conditional probability is undefined (0/0)")
        return float(self.table[mb & self.mask(event)].sum()) / pb

    def marginal(self, variables: str | Sequence[str]) -> JointPMF:
        """Marginal pmf of the listed variables (summing the others out), in the given order."""
        variables = [variables] if isinstance(variables, str) else list(variables)
        if not variables or len(set(variables)) != len(variables):
            raise ValueError(f"give each variable at most once and at least one, got {variables}")
        axes = [self._axis(v) for v in variables]
        drop = tuple(i for i in range(self.table.ndim) if i not in axes)
        kept = self.table.sum(axis=drop) if drop else self.table
        order = sorted(axes)
        table = np.transpose(kept, [order.index(a) for a in axes])
        return JointPMF({v: self.values[v] for v in variables}, table)

    def condition(self, given: Mapping[str, object]) -> JointPMF:
        """The pmf given an event: ``P(omega | B) = f(omega) / P(B)`` on ``B`` and 0 outside.

        Combine with :meth:`marginal` for conditional pmfs, e.g.
        ``joint.condition({"cat": "pos"}).marginal("color")`` is ``P(color | pos)``.
        """
        mb = self.mask(given)
        pb = float(self.table[mb].sum())
        if pb <= 0:
            raise ValueError(f"the conditioning event {given!r} has probability zero")
        return JointPMF(self.values, np.where(mb, self.table, 0.0) / pb)

    # -- independence
    def events_independent(self, a: Mapping[str, object], b: Mapping[str, object], *,
                           atol: float = ATOL) -> bool:
        """``P(A and B) = P(A) P(B)`` (within ``atol``)."""
        pab = float(self.table[self.mask(a) & self.mask(b)].sum())
        return abs(pab - self.prob(a) * self.prob(b)) <= atol

    def independent(self, first: str | Sequence[str], second: str | Sequence[str], *,
                    atol: float = ATOL) -> bool:
        """Are the random variables (or vectors) ``first`` and ``second`` independent?

        Checks ``P(X1 = a, X2 = b) = P(X1 = a) P(X2 = b)`` for **all** value combinations.
        """
        first = [first] if isinstance(first, str) else list(first)
        second = [second] if isinstance(second, str) else list(second)
        if set(first) & set(second):
            raise ValueError("the two groups of variables must be disjoint")
        both = self.marginal(first + second).table
        a = self.marginal(first).table
        b = self.marginal(second).table
        outer = np.multiply.outer(a, b)
        return bool(np.all(np.abs(both - outer) <= atol))

    def conditionally_independent(self, first: str | Sequence[str], second: str | Sequence[str],
                                  given: str | Sequence[str], *, atol: float = ATOL) -> bool:
        """``P(X1, X2 | Y) = P(X1 | Y) P(X2 | Y)`` for all values (``Y`` of positive
        probability)."""
        given = [given] if isinstance(given, str) else list(given)
        first = [first] if isinstance(first, str) else list(first)
        second = [second] if isinstance(second, str) else list(second)
        if set(given) & (set(first) | set(second)):
            raise ValueError("the conditioning variables must differ from the other two groups")
        gm = self.marginal(given)
        for idx in itertools.product(*[range(len(self.values[g])) for g in given]):
            if gm.table[idx] <= 0:
                continue
            event = {g: self.values[g][i] for g, i in zip(given, idx)}
            if not self.condition(event).independent(first, second, atol=atol):
                return False
        return True


# ---------------------------------------------------------------- total probability, Bayes

@validate_args(conditionals=ARRAY, priors=ARRAY)
def total_probability(conditionals: np.ndarray, priors: np.ndarray) -> float:
    """Law of total probability ``P(A) = sum_i P(A | B_i) P(B_i)`` for a partition ``B_i``.

    ``priors`` (the ``P(B_i)``) must be a distribution; ``conditionals`` lie in ``[0, 1]``.
    """
    priors = check_distribution(priors, "the priors P(B_i)")
    conditionals = _probability_vector(conditionals, "the conditionals P(A | B_i)")
    if conditionals.shape != priors.shape:
        raise ValueError(f"{conditionals.shape[0] if conditionals.ndim else 1} conditionals "
                         f"for {priors.shape[0]} parts of the partition")
    return float(conditionals @ priors)


@validate_args(likelihoods=ARRAY, priors=ARRAY, evidence=[Interval(numbers.Real, 0, 1), None])
def bayes_rule(likelihoods: np.ndarray, priors: np.ndarray,
               evidence: float | None = None) -> np.ndarray:
    """Bayes' rule ``P(A_i | B) = P(B | A_i) P(A_i) / P(B)``.

    Parameters
    ----------
    likelihoods : array_like
        ``P(B | A_i)`` for each hypothesis ``A_i``.
    priors : array_like
        ``P(A_i)``.
    evidence : float, optional
        ``P(B)``.  If omitted, the ``A_i`` must form a partition (``priors`` sum to one)
        and ``P(B)`` is computed by the law of total probability, which makes the
        posteriors sum to one.

    Raises
    ------
    ValueError
        If ``P(B) = 0``: the posterior is then undefined (0/0).
    """
    likelihoods = _probability_vector(likelihoods, "the likelihoods P(B | A_i)")
    if evidence is None:
        priors = check_distribution(priors, "the priors P(A_i)")
        if likelihoods.shape != priors.shape:
            raise ValueError("likelihoods and priors must have the same shape")
        evidence = float(likelihoods @ priors)
    else:
        priors = _probability_vector(priors, "the priors P(A_i)")
        evidence = float(evidence)
    if evidence <= 0:
        raise ValueError("the evidence P(B) is zero, so the posterior is undefined (0/0)")
    return likelihoods * priors / evidence


# ---------------------------------------------------------------- the Bayes classifier

def _split(joint: JointPMF, class_var: str) -> tuple[np.ndarray, list[tuple], tuple]:
    """The joint as a matrix ``P(X = x_k, Y = y_i)`` (rows: feature tuples x_k)."""
    axis = joint._axis(class_var)
    if joint.table.ndim < 2:
        raise ValueError("the joint needs at least one feature besides the class variable")
    t = np.moveaxis(joint.table, axis, -1)
    features = [v for v in joint.variables if v != class_var]
    keys = list(itertools.product(*[joint.values[f] for f in features]))
    return t.reshape(-1, t.shape[-1]), keys, joint.values[class_var]


def bayes_classifier(joint: JointPMF, class_var: str) -> dict[tuple, object]:
    """``C^Bayes(x_k) = argmax_i P(Y = y_i | X = x_k)`` for every feature tuple ``x_k``.

    The features are the other variables of ``joint`` in their order.  Maximising the
    joint ``P(X = x_k, Y = y_i)`` over ``i`` is the same (the denominator ``P(X = x_k)``
    does not depend on ``i``); ties, and tuples of probability zero (where the posterior
    is undefined and any choice costs nothing), go to the first class value.
    """
    pxy, keys, classes = _split(joint, class_var)
    best = first_argmax(pxy, axis=1)
    return {k: classes[i] for k, i in zip(keys, best)}


def classifier_error(joint: JointPMF, class_var: str, classifier: Mapping | Callable) -> float:
    """``E_C = P(Y != C(X)) = 1 - sum_k P(X = x_k, Y = C(x_k))``.

    ``classifier`` is a mapping from feature tuples to class values, or a function of
    the feature tuple.
    """
    pxy, keys, classes = _split(joint, class_var)
    correct = 0.0
    for row, key in zip(pxy, keys):
        label = classifier[key] if isinstance(classifier, Mapping) else classifier(key)
        if label not in classes:
            raise ValueError(f"the classifier returns {label!r}, not a class value {classes}")
        correct += row[classes.index(label)]
    return float(1.0 - correct)


def bayes_error(joint: JointPMF, class_var: str) -> float:
    """Error of the Bayes classifier, ``1 - sum_k max_i P(X = x_k, Y = y_i)``."""
    pxy, _, _ = _split(joint, class_var)
    return float(1.0 - pxy.max(axis=1).sum())


@validate_args(max_classifiers=COUNT)
def all_classifier_errors(joint: JointPMF, class_var: str, *, max_classifiers: int = 2 ** 20
                          ) -> np.ndarray:
    """Errors of **all** ``m^K`` classifiers (``K`` feature tuples, ``m`` classes).

    Classifier number ``c`` assigns class ``digit_k(c)`` (base ``m``, first tuple most
    significant) to tuple ``k``; used to check the optimality theorem by brute force.
    """
    pxy, keys, classes = _split(joint, class_var)
    K, m = pxy.shape
    if m ** K > max_classifiers:
        raise ValueError(f"{m}^{K} classifiers are too many to enumerate (limit {max_classifiers})")
    choices = np.array(list(itertools.product(range(m), repeat=K)), dtype=int).reshape(-1, K)
    return 1.0 - pxy[np.arange(K)[None, :], choices].sum(axis=1)


@validate_args(priors=ARRAY, likelihoods=ARRAY)
def map_rule(priors: np.ndarray, likelihoods: np.ndarray) -> np.ndarray:
    """``C^MAP(x_k) = argmax_i P(Y = y_i) P(X = x_k | Y = y_i)`` (class indices).

    ``likelihoods`` has shape ``(n_x, n_classes)`` (or ``(n_classes,)`` for one ``x``).
    Identical to the Bayes classifier, whose posterior only divides by ``P(X = x_k)``.
    """
    priors = check_distribution(priors, "the priors P(Y)")
    lik = _probability_vector(likelihoods, "the likelihoods P(X | Y)")
    if lik.shape[-1] != priors.shape[0]:
        raise ValueError(f"likelihoods have {lik.shape[-1]} classes, priors {priors.shape[0]}")
    return first_argmax(lik * priors, axis=-1)


@validate_args(likelihoods=ARRAY)
def ml_rule(likelihoods: np.ndarray) -> np.ndarray:
    """``C^ML(x_k) = argmax_i P(X = x_k | Y = y_i)``: MAP with the prior ignored (uniform)."""
    return first_argmax(_probability_vector(likelihoods, "the likelihoods P(X | Y)"), axis=-1)


# ---------------------------------------------------------------- parameter counts

def _value_counts(n: int, n_values) -> list[int]:
    """``n_values`` (checked by ``validate_args``) as one count per feature."""
    counts = [n_values] * n if isinstance(n_values, numbers.Integral) else list(n_values)
    if len(counts) != n:
        raise ValueError("n_values must be an integer >= 1 or one such integer per feature")
    return [int(c) for c in counts]


def _check_classes(n_classes) -> int:
    return int(n_classes)


# n features with n_values values each (or one count per feature), n_classes classes
_COUNTS = dict(n=Interval(numbers.Integral, 0, None), n_values=[COUNT, Array(1, within=COUNT)],
               n_classes=COUNT)


@validate_args(**_COUNTS)
def n_params_full_joint(n: int, n_values: int | Sequence[int] = 2, n_classes: int = 2) -> int:
    """Free numbers of the full joint ``P(Y, X_1, ..., X_n)``: ``|Y| prod |V_i| - 1``.

    For binary variables ``2^{n+1} - 1``.
    """
    return _check_classes(n_classes) * math.prod(_value_counts(n, n_values)) - 1


@validate_args(**_COUNTS)
def n_params_conditional(n: int, n_values: int | Sequence[int] = 2, n_classes: int = 2) -> int:
    """Free numbers of ``P(Y | X_1, ..., X_n)``: ``(|Y| - 1) prod |V_i|``; ``2^n`` if binary."""
    return (_check_classes(n_classes) - 1) * math.prod(_value_counts(n, n_values))


@validate_args(**_COUNTS)
def n_params_naive_bayes(n: int, n_values: int | Sequence[int] = 2, n_classes: int = 2, *,
                         include_prior: bool = False) -> int:
    """Free numbers of naive Bayes' ``P(X_i | Y)``: ``|Y| sum (|V_i| - 1)``; ``2n`` if binary.

    The slides count only the conditionals; ``include_prior`` adds the ``|Y| - 1``
    numbers of ``P(Y)``.
    """
    k = _check_classes(n_classes)
    count = k * sum(c - 1 for c in _value_counts(n, n_values))
    return count + (k - 1 if include_prior else 0)


# ---------------------------------------------------------------- Bayesian networks

class BayesianNetwork:
    """A Bayesian network over named discrete variables, evaluated by enumeration.

    The joint factorises as ``P(X_1, ..., X_d) = prod_j P(X_j | parents(X_j))``.

    Parameters
    ----------
    values : mapping of str to sequence
        The variables and their values.
    parents : mapping of str to sequence of str
        The parents of each variable (missing or empty: a root).  The graph must be acyclic.
    cpts : mapping of str to array_like
        Conditional probability tables: for ``X`` with parents ``(U, V)`` an array of
        shape ``(|U|, |V|, |X|)`` with ``cpts[X][u, v, x] = P(X = x | U = u, V = v)``;
        for a root simply ``P(X)``.  Every row must be a distribution.
    """

    def __init__(self, values: Mapping[str, Sequence], parents: Mapping[str, Sequence[str]],
                 cpts: Mapping[str, object]) -> None:
        self.values = {str(k): tuple(v) for k, v in values.items()}
        unknown = (set(parents) | set(cpts)) - set(self.values)
        if unknown:
            raise ValueError(f"unknown variables {sorted(unknown)}")
        self.parents = {v: tuple(parents.get(v, ())) for v in self.values}
        for child, ps in self.parents.items():
            bad = [p for p in ps if p not in self.values]
            if bad:
                raise ValueError(f"parent {bad[0]!r} of {child!r} is not a variable")
        self.order = self._topological_order()
        self.cpts = {}
        for var in self.values:
            if var not in cpts:
                raise ValueError(f"no conditional probability table for {var!r}")
            shape = tuple(len(self.values[p]) for p in self.parents[var]) + (len(self.values[var]),)
            table = np.asarray(cpts[var], dtype=float)
            if table.shape != shape:
                raise ValueError(f"the table of {var!r} has shape {table.shape}, expected {shape} "
                                 f"(parents {self.parents[var]}, then {var!r})")
            self.cpts[var] = check_distribution(table, f"P({var} | parents)", axis=-1)

    def _topological_order(self) -> list[str]:
        order, done, visiting = [], set(), set()

        def visit(v):
            if v in done:
                return
            if v in visiting:
                raise ValueError(f"the graph has a cycle through {v!r}; "
                                 "a Bayesian network is acyclic")
            visiting.add(v)
            for p in self.parents[v]:
                visit(p)
            visiting.discard(v)
            done.add(v)
            order.append(v)

        for v in self.values:
            visit(v)
        return order

    def n_params(self) -> int:
        """Free numbers in the tables: ``sum_X (|X| - 1) prod_{U in parents(X)} |U|``."""
        return sum((len(self.values[v]) - 1)
                   * math.prod(len(self.values[p]) for p in self.parents[v])
                   for v in self.values)

    def prob(self, assignment: Mapping[str, object]) -> float:
        """Probability of a full assignment: the product of one entry of each table."""
        missing = set(self.values) - set(assignment)
        if missing:
            raise ValueError(f"a full assignment needs values for {sorted(missing)}")
        idx = {}
        for v, val in assignment.items():
            if v not in self.values or val not in self.values[v]:
                raise ValueError(f"{val!r} is not a value of {v!r}")
            idx[v] = self.values[v].index(val)
        return float(math.prod(self.cpts[v][tuple(idx[p] for p in self.parents[v]) + (idx[v],)]
                               for v in self.values))

    def joint(self) -> JointPMF:
        """The full joint by enumeration (vectorised: one broadcast product per table)."""
        names = list(self.values)
        table = np.ones(tuple(len(self.values[v]) for v in names))
        for v in names:
            axes = [names.index(p) for p in self.parents[v]] + [names.index(v)]
            # the table's axes are (parents..., v); order them as in the joint, then broadcast
            cpt = np.transpose(self.cpts[v], np.argsort(axes))
            shape = [1] * len(names)
            for a in sorted(axes):
                shape[a] = len(self.values[names[a]])
            table = table * cpt.reshape(shape)
        return JointPMF(self.values, table)

    def query(self, target: str, evidence: Mapping[str, object] | None = None) -> dict:
        """``P(target | evidence)`` for every value of ``target``, by enumerating the joint."""
        joint = self.joint()
        conditioned = joint.condition(evidence) if evidence else joint
        table = conditioned.marginal(target).table
        return dict(zip(self.values[target], table.tolist()))


# ---------------------------------------------------------------- the Gaussian class posterior

def _gaussian_inputs(mean1, mean0, cov, prior1):
    mean1 = np.atleast_1d(np.asarray(mean1, dtype=float))
    mean0 = np.atleast_1d(np.asarray(mean0, dtype=float))
    d = mean1.shape[0]
    if mean1.shape != (d,) or mean0.shape != (d,):
        raise ValueError("the two means must be vectors of the same length")
    cov = np.asarray(cov, dtype=float)
    cov = cov * np.eye(d) if cov.ndim == 0 else cov
    if cov.shape != (d, d) or not np.allclose(cov, cov.T):
        raise ValueError(f"the covariance must be a symmetric ({d}, {d}) matrix")
    try:
        chol = np.linalg.cholesky(cov)
    except np.linalg.LinAlgError:
        raise ValueError("the covariance must be positive definite") from None
    return mean1, mean0, cov, chol


# two Gaussian classes: their means, the shared covariance (or a number: cov * I), P(1)
_GAUSSIANS = dict(mean1=ARRAY, mean0=ARRAY, cov=ARRAY,
                  prior1=Interval(numbers.Real, 0, 1, closed="neither"))


@validate_args(**_GAUSSIANS)
def gaussian_logistic_weights(mean1: np.ndarray, mean0: np.ndarray, cov: np.ndarray,
                              prior1: float = 0.5) -> tuple[np.ndarray, float]:
    """``(w, b)`` with ``P(1 | x) = sigma(w . x + b)`` for two Gaussian classes, shared ``Sigma``.

    ``w = Sigma^-1 (mu_1 - mu_0)``,
    ``b = -1/2 mu_1^T Sigma^-1 mu_1 + 1/2 mu_0^T Sigma^-1 mu_0 + ln(P(1) / P(0))``.
    The slides' case is one dimension, ``mu_1 = -mu_0 = 1/2``, ``Sigma = 1``, equal priors:
    ``w = 1``, ``b = 0``.  A scalar ``cov`` means ``cov * I``.
    """
    mean1, mean0, cov, _ = _gaussian_inputs(mean1, mean0, cov, prior1)
    a1 = np.linalg.solve(cov, mean1)
    a0 = np.linalg.solve(cov, mean0)
    w = a1 - a0
    b = -0.5 * mean1 @ a1 + 0.5 * mean0 @ a0 + math.log(prior1 / (1 - prior1))
    return w, float(b)


@validate_args(X=ARRAY, **_GAUSSIANS)
def gaussian_class_posterior(X: np.ndarray, mean1: np.ndarray, mean0: np.ndarray, cov: np.ndarray,
                             prior1: float = 0.5) -> np.ndarray:
    """``P(1 | x)`` by Bayes' rule from the two Gaussian class densities (log space).

    ``p(x | c) = N(x; mu_c, Sigma)``; this is the direct computation that
    :func:`gaussian_logistic_weights` turns into a sigmoid of a linear function.
    ``X`` has shape ``(P, d)`` (or ``(P,)`` in one dimension).
    """
    mean1, mean0, cov, chol = _gaussian_inputs(mean1, mean0, cov, prior1)
    X = np.asarray(X, dtype=float)
    X = X[:, None] if X.ndim == 1 and mean1.shape[0] == 1 else X
    if X.ndim != 2 or X.shape[1] != mean1.shape[0]:
        raise ValueError(f"X must have shape (P, {mean1.shape[0]})")

    def log_density(mean):
        z = np.linalg.solve(chol, (X - mean).T)
        return -0.5 * (z * z).sum(axis=0) - np.log(np.diag(chol)).sum() \
            - 0.5 * mean.shape[0] * math.log(2 * math.pi)

    log_joint = np.stack([log_density(mean1) + math.log(prior1),
                          log_density(mean0) + math.log(1 - prior1)])
    return np.exp(log_joint[0] - logsumexp(log_joint, axis=0))
