"""Probabilistic classification (Mooney's slides): Bayes' rule, the Bayes classifier, naive Bayes.

* :mod:`~lecture_pkg.probabilistic.bayes` -- joint probability tables, the Bayes, MAP and ML
  decisions and their errors, parameter counts, Bayesian networks, the Gaussian case;
* :mod:`~lecture_pkg.probabilistic.naive_bayes` -- :class:`CategoricalNaiveBayes` (with the
  m-estimate) and :class:`GaussianNaiveBayes`.
"""

from .bayes import (ATOL, check_distribution, JointPMF, total_probability, bayes_rule,
                    bayes_classifier, classifier_error, bayes_error, all_classifier_errors,
                    map_rule, ml_rule, n_params_full_joint, n_params_conditional,
                    n_params_naive_bayes, BayesianNetwork, gaussian_logistic_weights,
                    gaussian_class_posterior)
from .naive_bayes import (UndefinedPosteriorWarning, UnseenCategoryWarning, m_estimate,
                          CategoricalNaiveBayes, GaussianNaiveBayes)

__all__ = [
    "ATOL", "check_distribution", "JointPMF", "total_probability", "bayes_rule",
    "bayes_classifier", "classifier_error", "bayes_error", "all_classifier_errors", "map_rule",
    "ml_rule", "n_params_full_joint", "n_params_conditional", "n_params_naive_bayes",
    "BayesianNetwork", "gaussian_logistic_weights", "gaussian_class_posterior",
    "UndefinedPosteriorWarning", "UnseenCategoryWarning", "m_estimate", "CategoricalNaiveBayes",
    "GaussianNaiveBayes",
]
