"""The perceptron and its relatives: linear classifiers ``sign(w . x + b)`` (Biehl ch. 3, §4.1).

* :mod:`~lecture_pkg.linear.perceptron` -- Rosenblatt's rule (:class:`RosenblattTrainer`,
  :class:`Perceptron`, :class:`PerceptronHistory`);
* :mod:`~lecture_pkg.linear.margins` -- local potentials, margins and stabilities, the
  maximum-margin hyperplane, the Novikoff bound and Biehl's convergence bound;
* :mod:`~lecture_pkg.linear.generic_perceptron` -- Biehl's generic update with a
  modulation function (:func:`generic_perceptron`);
* :mod:`~lecture_pkg.linear.separability` -- linear separability by linear programming,
  the Boolean functions, Cover's counting theorem;
* :mod:`~lecture_pkg.linear.teacher_student` -- student-teacher learning: generalisation
  error, version space, learning curves;
* :mod:`~lecture_pkg.linear.embeddings` -- Biehl's embedding strengths: the correlation
  matrix and the weights from embedding strengths;
* :mod:`~lecture_pkg.linear.minover` -- optimal stability by :class:`MinOver`;
* :mod:`~lecture_pkg.linear.adatron` -- optimal stability by the :class:`AdaTron`;
* :mod:`~lecture_pkg.linear.adaline` -- :class:`Adaline` and the windows of its learning
  rate;
* :mod:`~lecture_pkg.linear.pocket` -- data that are not separable: the number of errors,
  its minimum in the plane, :class:`Pocket`;
* :mod:`~lecture_pkg.linear.soft_margin` -- the soft margin: the AdaTron with errors,
  :class:`SoftMarginAdaTron`;
* :mod:`~lecture_pkg.linear.cost_family` -- the cost family ``ℰ_k`` (Biehl's ``H^[k]``);
* :mod:`~lecture_pkg.linear.gradient_descent` -- gradient descent for linear models:
  Deckert's one-dimensional demonstrations, his Adaline with a general activation, and
  the slides' batch perceptron and least-squares descent.

:class:`LinearBinaryClassifier` is the scikit-learn base class they share (two classes
mapped to +-1, ``decision_function = w . x + b``, ``predict`` with ``sign(0) = +1``); it is
defined, with :func:`sign` and :func:`augment`, in the family's private ``_base`` module.
The AdaTron and Adaline iterations on embedding strengths are shared with the kernel
AdaTron: :func:`~lecture_pkg.kernel_machines.adatron_embeddings` and
:func:`~lecture_pkg.kernel_machines.adaline_embeddings`.
"""

from ._base import LinearBinaryClassifier, sign, augment
from .margins import (local_potentials, geometric_margin, stabilities, stability, data_radius,
                      novikoff_bound, max_margin_hyperplane, biehl_bound, overlap_and_norm)
from .perceptron import PerceptronHistory, RosenblattTrainer, Perceptron
from .generic_perceptron import modulation_function, GenericRun, generic_perceptron
from .separability import (hyperplane_distance, project_onto_hyperplane, separating_hyperplane,
                           is_linearly_separable, hull_intersection, BOOLEAN_INPUTS,
                           boolean_functions, boolean_gate,
                           cover_count, cover_fraction, count_separable_dichotomies,
                           separable_fraction_mc)
from .teacher_student import (LITERATURE_ASYMPTOTICS, overlap, generalization_error,
                              mc_generalization_error, hebb_student, hebb_overlap_theory,
                              hebb_error_theory, version_space_mask, sample_version_space,
                              center_of_mass, rosenblatt_student, max_stability_student, ALGORITHMS,
                              LearningCurves, learning_curves, loglog_slope)
from .embeddings import correlation_matrix, weights_from_embeddings
from .minover import MinOverRun, minover_embeddings, MinOver
from .adatron import AdaTron
from .adaline import LearningRateWarning, gd_stability_limit, lms_stability_limit, Adaline
from .pocket import n_errors, min_errors_2d, PocketRun, pocket, Pocket
from .soft_margin import (primal_objective, soft_margin_adatron, support_vector_categories,
                          SoftMarginAdaTron)
from .cost_family import cost_hk, cost_hk_gradient
from .gradient_descent import (gradient_descent_1d, single_sample_loss, single_sample_grad,
                               double_well_loss, double_well_grad, double_well_stationary_points,
                               GradientDescentDemo, deckert_demo, ACTIVATIONS, adaline_loss,
                               adaline_gradient, AdalineDescent, adaline_descent,
                               BatchPerceptronRun, batch_perceptron, DescentRun,
                               least_squares_descent, dual_exponent, norm_prox,
                               NormPenalisedFit, norm_penalised_least_squares)

__all__ = [
    "LinearBinaryClassifier", "sign", "augment", "local_potentials", "geometric_margin",
    "data_radius", "novikoff_bound", "max_margin_hyperplane", "PerceptronHistory",
    "RosenblattTrainer", "Perceptron", "modulation_function", "GenericRun", "generic_perceptron",
    "biehl_bound", "overlap_and_norm",
    "hyperplane_distance", "project_onto_hyperplane",
    "separating_hyperplane", "is_linearly_separable", "hull_intersection", "BOOLEAN_INPUTS",
    "boolean_functions",
    "boolean_gate", "cover_count", "cover_fraction", "count_separable_dichotomies",
    "separable_fraction_mc", "LITERATURE_ASYMPTOTICS", "overlap", "generalization_error",
    "mc_generalization_error", "hebb_student", "hebb_overlap_theory", "hebb_error_theory",
    "version_space_mask", "sample_version_space", "center_of_mass", "rosenblatt_student",
    "max_stability_student", "ALGORITHMS", "LearningCurves", "learning_curves", "loglog_slope",
    "LearningRateWarning", "stabilities", "stability", "correlation_matrix",
    "weights_from_embeddings", "gd_stability_limit", "lms_stability_limit", "MinOverRun",
    "minover_embeddings", "MinOver", "AdaTron", "Adaline", "n_errors", "min_errors_2d",
    "PocketRun", "pocket", "Pocket", "primal_objective", "soft_margin_adatron",
    "support_vector_categories", "SoftMarginAdaTron", "cost_hk", "cost_hk_gradient",
    "gradient_descent_1d",
    "single_sample_loss", "single_sample_grad", "double_well_loss", "double_well_grad",
    "double_well_stationary_points", "GradientDescentDemo", "deckert_demo", "ACTIVATIONS",
    "adaline_loss", "adaline_gradient", "AdalineDescent", "adaline_descent",
    "BatchPerceptronRun", "batch_perceptron", "DescentRun", "least_squares_descent",
    "dual_exponent", "norm_prox", "NormPenalisedFit", "norm_penalised_least_squares",
]
