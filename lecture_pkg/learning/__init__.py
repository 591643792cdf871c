"""Learning from examples (Biehl ch. 2): regression and version spaces.

* :mod:`~lecture_pkg.learning.regression` -- least squares, ridge, maximum likelihood,
  MAP and the Bayesian posterior of linear regression; :class:`RidgeRegression`,
  :class:`BayesianLinearRegression`;
* :mod:`~lecture_pkg.learning.version_space` -- the integer toy example of learning in
  version space.
"""

from .regression import (add_clamped_input, sse, sse_gradient, least_squares, ridge, ridge_path,
                         residual_variance, log_likelihood, log_likelihood_gradient, log_prior,
                         log_posterior, log_posterior_gradient, map_estimate, bayes_posterior,
                         posterior_predictive, RidgeRegression, BayesianLinearRegression)
from .version_space import (LABELS, Hypothesis, is_prime, integer_toy_examples, hypothesis_class,
                            consistent, version_space_sizes, lookup_table_hypothesis)

__all__ = [
    "add_clamped_input", "sse", "sse_gradient", "least_squares", "ridge", "ridge_path",
    "residual_variance", "log_likelihood", "log_likelihood_gradient", "log_prior",
    "log_posterior", "log_posterior_gradient", "map_estimate", "bayes_posterior",
    "posterior_predictive", "RidgeRegression", "BayesianLinearRegression", "LABELS",
    "Hypothesis", "is_prime", "integer_toy_examples", "hypothesis_class", "consistent",
    "version_space_sizes", "lookup_table_hypothesis",
]
