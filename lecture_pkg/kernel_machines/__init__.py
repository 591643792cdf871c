"""Kernel machines (Biehl §4.3, Mooney's slides, Frieß and Harrison): SVMs, kernel perceptrons,
LP machines.

* the kernels and the AdaTron/SMO solvers on embedding strengths (:func:`rbf_kernel`,
  :func:`adatron_embeddings`, ...), which the linear and prototype families use too;
* :mod:`~lecture_pkg.kernel_machines.svm` -- the support vector machine by the kernel
  AdaTron (:class:`KernelAdaTron`);
* :mod:`~lecture_pkg.kernel_machines.kernel_perceptron` -- the data-dependent (dual, kernel)
  perceptron (:class:`KernelPerceptron`);
* :mod:`~lecture_pkg.kernel_machines.lp_machine` -- linear programming machines
  (:class:`LPMachine`);
* :mod:`~lecture_pkg.kernel_machines.mesr` -- minimal expansion set reduction;
* :mod:`~lecture_pkg.kernel_machines.experiments` -- the protocol of Frieß and Harrison's
  experiments (their tables).
"""

from ..core.kernels import (KERNELS, DIETRICH_NORMAL, NotPSDError, NotPSDWarning, check_gram,
                           dietrich_map, gamma_from_sigma, is_psd, kernel_matrix, linear_kernel,
                           min_eigenvalue, monomial_exponents, polynomial_feature_dimension,
                           polynomial_feature_map, polynomial_kernel, quadratic_feature_map,
                           rbf_kernel)
from ..core.order import presentation_order
from ..core.solvers import (DIVERGENCE_FACTOR, EmbeddingRun, KKTResiduals, LearningRateWarning,
                            adaline_embeddings, adatron_embeddings, box_kkt_violation,
                            check_learning_rate, dual_objective, kkt_residuals, support_vectors)
from .svm import (gram_of_labels, KernelAdaTronRun, kernel_adatron, svm_decision, primal_weights,
                  bias_from_support_vector, KernelAdaTron)
from .kernel_perceptron import (KernelPerceptronRun, kernel_perceptron,
                                explicit_perceptron, KernelPerceptron, DualPerceptronRun,
                                dual_perceptron)
from .lp_machine import (LP_STATUS, LPError, solve_lp, lp_matrices, LPMachineRun, lp_machine,
                         MinnickMurogaRun, minnick_muroga_lp, LPMachine)
from .mesr import (NoReductionWarning, MESRResult, mesr, expansion_rank, row_dependency,
                   feature_space_residual, t_mesr, loo_ratio)
from .experiments import (PAPER_SIGMAS, random_split, PAPER_TABLES, paper_experiment, svm_rows,
                          lpm_grid)

__all__ = [
    "NotPSDError", "NotPSDWarning", "linear_kernel", "polynomial_kernel", "gamma_from_sigma",
    "rbf_kernel", "KERNELS", "kernel_matrix", "min_eigenvalue", "is_psd", "check_gram",
    "quadratic_feature_map", "DIETRICH_NORMAL", "dietrich_map", "polynomial_feature_dimension",
    "monomial_exponents", "polynomial_feature_map", "LearningRateWarning", "check_learning_rate",
    "DIVERGENCE_FACTOR", "dual_objective",
    "KKTResiduals", "kkt_residuals", "support_vectors", "EmbeddingRun", "adaline_embeddings",
    "adatron_embeddings", "box_kkt_violation", "gram_of_labels", "KernelAdaTronRun",
    "kernel_adatron", "svm_decision", "primal_weights", "bias_from_support_vector",
    "KernelAdaTron", "KernelPerceptronRun",
    "presentation_order", "kernel_perceptron", "explicit_perceptron", "KernelPerceptron",
    "DualPerceptronRun", "dual_perceptron", "LP_STATUS", "LPError", "solve_lp", "lp_matrices",
    "LPMachineRun", "lp_machine", "MinnickMurogaRun", "minnick_muroga_lp", "LPMachine",
    "NoReductionWarning", "MESRResult", "mesr", "expansion_rank", "row_dependency",
    "feature_space_residual", "t_mesr", "loo_ratio", "PAPER_SIGMAS", "random_split",
    "PAPER_TABLES", "paper_experiment", "svm_rows", "lpm_grid",
]
