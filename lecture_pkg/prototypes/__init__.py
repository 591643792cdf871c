"""Prototype-based classifiers (Biehl ch. 5): nearest neighbours, nearest prototypes, LVQ.

* :mod:`~lecture_pkg.prototypes.distances` -- dissimilarities: (squared) Euclidean,
  Minkowski, kernel distances, relevance (quadratic-form) distances;
* :mod:`~lecture_pkg.prototypes.neighbors` -- :class:`NearestNeighborClassifier` (k-NN),
  :class:`NearestPrototypeClassifier`, Hart's :func:`condensed_nearest_neighbor` and the
  Cover--Hart bounds :func:`cover_hart_bound`;
* :mod:`~lecture_pkg.prototypes.lvq` -- :class:`LVQ1`, :class:`GLVQ` and :class:`GMLVQ`, with
  their training engine :class:`PrototypeTrainer` and the GLVQ cost.
"""

from .distances import (squared_euclidean, euclidean, minkowski, inner_product_distance,
                        kernel_distance, quadratic_form_distance, relevance_distance,
                        relevance_distance_gradients, mahalanobis_matrix)
from ._base import relative_distance_difference, class_means
from .neighbors import (NearestNeighborClassifier, NearestPrototypeClassifier,
                        condensed_nearest_neighbor, cover_hart_bound)
from .lvq import (init_prototypes, glvq_cost, glvq_gradients, normalize_omega, PrototypeTrainer,
                  LVQ1, GLVQ, GMLVQ)

__all__ = [
    "squared_euclidean", "euclidean", "minkowski", "inner_product_distance", "kernel_distance",
    "quadratic_form_distance", "relevance_distance", "relevance_distance_gradients",
    "mahalanobis_matrix", "relative_distance_difference", "class_means",
    "NearestNeighborClassifier", "NearestPrototypeClassifier", "condensed_nearest_neighbor",
    "cover_hart_bound", "init_prototypes", "glvq_cost",
    "glvq_gradients", "normalize_omega", "PrototypeTrainer", "LVQ1", "GLVQ", "GMLVQ",
]
