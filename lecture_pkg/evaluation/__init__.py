"""Evaluating classifiers (Biehl ch. 6): bias and variance, cross-validation, ROC and
confusion matrices.

* :mod:`~lecture_pkg.evaluation.bias_variance` -- polynomial regression and the bias-variance
  decomposition, exact and by Monte Carlo;
* :mod:`~lecture_pkg.evaluation.cross_validation` -- n-fold, leave-one-out and Monte Carlo
  splitters, cross-validation scores, model selection and nested cross-validation;
* :mod:`~lecture_pkg.evaluation.metrics` -- thresholds, confusion counts and matrices,
  ROC curves and the AUC, multi-class summaries.
"""

from .bias_variance import (polynomial_design, fit_polynomial, polynomial_predict,
                            polynomial_smoother, BiasVariance, bias_variance_linear,
                            bias_variance_monte_carlo)
from .cross_validation import (NFold, LeaveOneOut, RepeatedNFold, MonteCarloSplits,
                               ClasswiseLeaveOneOut, leave_p_out_count, leave_p_out_splits,
                               check_partition, cross_validation_scores, select_by_cv,
                               NestedCVResult, nested_cross_validation)
from .metrics import (threshold_predict, ConfusionCounts, confusion_counts, rates, roc_curve,
                      auc_trapezoid, auc_pairs, confusion_matrix, per_class_rates,
                      balanced_accuracy, multiclass_summary, most_confused, FIG_6_4_CONFUSION)

__all__ = [
    "polynomial_design", "fit_polynomial", "polynomial_predict", "polynomial_smoother",
    "BiasVariance", "bias_variance_linear", "bias_variance_monte_carlo", "NFold", "LeaveOneOut",
    "RepeatedNFold", "MonteCarloSplits", "ClasswiseLeaveOneOut", "leave_p_out_count",
    "leave_p_out_splits", "check_partition", "cross_validation_scores", "select_by_cv",
    "NestedCVResult", "nested_cross_validation", "threshold_predict", "ConfusionCounts",
    "confusion_counts", "rates", "roc_curve", "auc_trapezoid", "auc_pairs", "confusion_matrix",
    "per_class_rates", "balanced_accuracy", "multiclass_summary", "most_confused",
    "FIG_6_4_CONFUSION",
]
