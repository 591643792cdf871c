"""Every data set of the course: the lecture notes' small examples, generators and real data.

Each loader returns ``X, y`` (or the table the notes print); a generator takes
``random_state`` (a seed or a ``numpy.random.Generator``) and gives the same data for the
same seed; with ``random_state=None`` it draws fresh data every call.

* the notes' examples -- :func:`koski_example`, :func:`mooney_example`,
  :func:`biehl_fig34_example`, :func:`xor`, the probability tables (:func:`fair_die`,
  :func:`shapes_joint`, :func:`naive_bayes_tables`, :func:`oaks`, ...);
* generators -- :func:`teacher_student`, :func:`synthetic_hubble`, :func:`three_clusters`,
  :func:`two_spirals`, :func:`mirror_symmetry`, :func:`add_spurious_feature`,
  :func:`moons` and :func:`circles` (scikit-learn's, with labels +-1);
* real data -- :func:`iris_setosa_vs_rest` and :func:`breast_cancer` (from scikit-learn's
  bundled copies), :func:`standardize`; copies of UCI files that come with the package:
  :func:`sonar` (Gorman and Sejnowski's sonar benchmark with its aspect-angle split) and
  :func:`breast_cancer_wisconsin` (the original 699 x 9 Wisconsin database).
"""

from ._examples import (koski_example, mooney_example, biehl_fig34_example, xor, IRIS_FEATURES,
                        iris_setosa_vs_rest, standardize, teacher_student, fair_die, shapes_joint,
                        NaiveBayesTables, naive_bayes_tables, naive_bayes_training_set,
                        m_estimate_counts, oaks)
from ._synthetic import (moons, circles, three_clusters, synthetic_hubble, add_spurious_feature,
                         two_spirals, is_mirror_symmetric, mirror_symmetry)
from ._real import breast_cancer
from ._uci import sonar, WISCONSIN_FEATURES, breast_cancer_wisconsin

__all__ = [
    "koski_example", "mooney_example", "biehl_fig34_example", "xor", "IRIS_FEATURES",
    "iris_setosa_vs_rest", "standardize", "teacher_student", "fair_die", "shapes_joint",
    "NaiveBayesTables", "naive_bayes_tables", "naive_bayes_training_set", "m_estimate_counts",
    "oaks", "moons", "circles", "three_clusters", "synthetic_hubble", "add_spurious_feature",
    "two_spirals", "is_mirror_symmetric", "mirror_symmetry", "breast_cancer",
    "sonar", "WISCONSIN_FEATURES", "breast_cancer_wisconsin",
]
