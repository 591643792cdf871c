"""Example data of the lecture notes and small generators.

Everything here is offline: fixed tables from the notes, scikit-learn's bundled
iris copy, and seeded generators.  Labels are ``+1`` / ``-1`` unless a function
says otherwise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from sklearn.datasets import load_iris

import numbers

from ..validation import ARRAY, COUNT, FINITE, MATRIX, VECTOR, Interval, resolve_rng, validate_args

if TYPE_CHECKING:
    from ..probabilistic import JointPMF

__all__ = [
    "koski_example",
    "mooney_example",
    "biehl_fig34_example",
    "xor",
    "IRIS_FEATURES",
    "iris_setosa_vs_rest",
    "standardize",
    "teacher_student",
    "fair_die",
    "shapes_joint",
    "NaiveBayesTables",
    "naive_bayes_tables",
    "naive_bayes_training_set",
    "m_estimate_counts",
    "oaks",
]


@validate_args(variant=Interval(numbers.Integral, 1, 2))
def koski_example(variant: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Koski's six points in the plane (sf2935, lecture 1), three per class.

    The notes list point 6 twice, once as (-2, -2) (``variant=1``, the data table)
    and once as (-2, -1) (``variant=2``, the "stored examples" slide).  It is never
    misclassified in the worked example, so both give the same run.
    """
    X = np.array([[1.5, -0.5], [1.0, 1.0], [-2.0, 1.0], [-1.0, -1.5], [2.0, -2.0],
                  [-2.0, -2.0 if variant == 1 else -1.0]])
    y = np.array([1, 1, 1, -1, -1, -1])
    return X, y


def mooney_example() -> tuple[np.ndarray, np.ndarray]:
    """The three-point example of the probabilistic-classification slides (after Mooney).

    Returns the inputs and the **0/1 class labels** ``c = (1, 1, 0)`` used there;
    ``2 c - 1`` converts them to the course's ``+-1``.
    """
    X = np.array([[2.0, -1.0], [2.0, 1.0], [1.0, 3.0]])
    c = np.array([1, 1, 0])
    return X, c


def biehl_fig34_example() -> tuple[np.ndarray, np.ndarray]:
    """Six labelled inputs in N = 2 behaving as Biehl's Fig. 3.4 describes.

    The notes show the Rosenblatt run only as a picture: from ``w = 0`` with
    ``c = 0`` the examples at t = 1, 3, 5 cause updates, those at t = 2, 4, 6 do not,
    and all six are stored after one epoch.  The figure's data are not given; this
    set (a reconstruction from the course's reference notes) has exactly that behaviour.
    """
    X = np.array([[-4.0, -4.0], [2.0, -4.0], [-2.0, 0.0], [-1.0, 2.0], [4.0, 1.0], [1.0, 2.0]])
    y = np.array([-1, -1, 1, 1, -1, 1])
    return X, y


def xor() -> tuple[np.ndarray, np.ndarray]:
    """The XOR function on {0, 1}^2 with labels +1 (output 1) and -1 (output 0)."""
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    y = np.array([-1, 1, 1, -1])
    return X, y


IRIS_FEATURES = ("sepal length", "sepal width", "petal length", "petal width")


def iris_setosa_vs_rest(features: tuple[str, ...] = ("sepal length", "sepal width")
                        ) -> tuple[np.ndarray, np.ndarray]:
    """Deckert's iris task: setosa (-1) against versicolor and virginica (+1).

    Uses scikit-learn's bundled copy of Fisher's data (150 rows, no download).  It
    carries the corrected values of the UCI file; for the two sepal features only
    row 38 differs (sepal width 3.6 here, 3.1 in the UCI file).
    """
    unknown = [f for f in features if f not in IRIS_FEATURES]
    if unknown or not features:
        raise ValueError(f"features must be chosen from {IRIS_FEATURES}, got {features!r}")
    data = load_iris()
    columns = [IRIS_FEATURES.index(f) for f in features]
    X = data.data[:, columns].astype(float)
    y = np.where(data.target == 0, -1, 1)
    return X, y


@validate_args(X=MATRIX, mean=[ARRAY, None], std=[ARRAY, None])
def standardize(X: np.ndarray, mean: np.ndarray | None = None, std: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Z-score every feature: ``(x - mu) / sigma`` with the population sigma (ddof = 0).

    Pass the ``mean`` and ``std`` of a training set to transform test data the same way.
    Returns the transformed data, the mean and the standard deviation.
    """
    mean = X.mean(axis=0) if mean is None else np.asarray(mean, dtype=float)
    std = X.std(axis=0) if std is None else np.asarray(std, dtype=float)
    if np.any(std == 0):
        raise ValueError("a feature has zero standard deviation and cannot be standardised")
    return (X - mean) / std, mean, std


@validate_args(n_samples=COUNT, n_features=COUNT, random_state="random_state",
               teacher=[VECTOR, None], teacher_bias=FINITE, gap=Interval(numbers.Real, 0, 3))
def teacher_student(n_samples: int, n_features: int, *,
                    random_state: np.random.Generator | int | None = None,
                    teacher: np.ndarray | None = None, teacher_bias: float = 0.0,
                    gap: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Inputs with labels from a teacher perceptron: ``y = sign(w* . x + b*)``.

    Inputs are standard normal in ``n_features`` dimensions.  ``teacher`` defaults to
    a random unit vector.  With ``gap > 0`` only inputs at distance at least ``gap``
    from the teacher's hyperplane are kept, so the teacher separates the data with
    geometric margin ``>= gap``.  Rejection sampling is done in vectorised batches.

    Returns ``X`` (n_samples, n_features), ``y`` and the unit teacher vector.
    """
    rng = resolve_rng(random_state)
    if teacher is None:
        teacher = rng.standard_normal(n_features)
    teacher = np.asarray(teacher, dtype=float)
    if teacher.shape != (n_features,) or not np.any(teacher):
        raise ValueError(f"teacher must be a non-zero vector of length {n_features}")
    norm = np.linalg.norm(teacher)
    teacher, teacher_bias = teacher / norm, teacher_bias / norm
    chunks, have = [], 0
    while have < n_samples:
        batch = rng.standard_normal((2 * (n_samples - have) + 16, n_features))
        keep = batch[np.abs(batch @ teacher + teacher_bias) >= gap]
        chunks.append(keep)
        have += len(keep)
    X = np.vstack(chunks)[:n_samples]
    y = np.where(X @ teacher + teacher_bias >= 0, 1, -1)
    return X, y, teacher


def fair_die() -> JointPMF:
    """A fair die as a :class:`~lecture_pkg.probabilistic.JointPMF` of one variable ``"roll"``."""
    from ..probabilistic.bayes import JointPMF

    return JointPMF.uniform({"roll": (1, 2, 3, 4, 5, 6)})


def shapes_joint() -> JointPMF:
    """The coloured-shapes joint pmf of the slides: colour, shape and category.

    ``P(colour, shape, category)`` with colour in (red, blue), shape in (circle, square)
    and category in (pos, neg):

    ========  ======  ======  ======  ======
    category  pos             neg
    --------  --------------  --------------
    colour    circle  square  circle  square
    ========  ======  ======  ======  ======
    red       0.20    0.02    0.05    0.30
    blue      0.02    0.01    0.20    0.20
    ========  ======  ======  ======  ======
    """
    from ..probabilistic.bayes import JointPMF

    table = np.empty((2, 2, 2))
    table[:, :, 0] = [[0.20, 0.02], [0.02, 0.01]]      # pos
    table[:, :, 1] = [[0.05, 0.30], [0.20, 0.20]]      # neg
    return JointPMF({"color": ("red", "blue"), "shape": ("circle", "square"),
                     "category": ("pos", "neg")}, table)


class NaiveBayesTables(NamedTuple):
    """Given naive Bayes tables:
    ``conditionals[i][k, j] = P(feature_i = categories[i][j] | classes[k])``."""

    classes: tuple
    prior: np.ndarray
    features: tuple
    categories: tuple
    conditionals: tuple


def naive_bayes_tables() -> NaiveBayesTables:
    """The slides' first naive Bayes example: priors and ``P(X_i | Y)`` for size, colour, shape.

    Classes (positive, negative) with ``P(Y) = (0.5, 0.5)``; values in the order
    (small, medium, large), (red, blue, green), (square, triangle, circle).
    """
    return NaiveBayesTables(
        classes=("positive", "negative"),
        prior=np.array([0.5, 0.5]),
        features=("size", "color", "shape"),
        categories=(("small", "medium", "large"), ("red", "blue", "green"),
                    ("square", "triangle", "circle")),
        conditionals=(np.array([[0.4, 0.1, 0.5], [0.4, 0.2, 0.4]]),
                      np.array([[0.9, 0.05, 0.05], [0.3, 0.3, 0.4]]),
                      np.array([[0.05, 0.05, 0.9], [0.4, 0.3, 0.3]])),
    )


def naive_bayes_training_set() -> tuple[np.ndarray, np.ndarray]:
    """The slides' four training rows (size, colour, shape) and their classes.

    Returns a string array ``X`` of shape (4, 3) and labels ``y`` ('positive' / 'negative');
    the possible values of each feature are ``naive_bayes_tables().categories``.
    """
    X = np.array([["small", "red", "circle"], ["large", "red", "circle"],
                  ["small", "red", "triangle"], ["large", "blue", "circle"]])
    y = np.array(["positive", "positive", "negative", "negative"])
    return X, y


def m_estimate_counts() -> dict[str, int]:
    """The slides' m-estimate example: sizes of 10 positive examples (4 small, 0 medium,
    6 large)."""
    return {"small": 4, "medium": 0, "large": 6}


def oaks() -> tuple[np.ndarray, np.ndarray]:
    """Age (years) and diameter at breast height (inches) of 12 oaks in Wisconsin.

    The data come from Darrell Huff's *How to Lie with Statistics* (1954) via the slides.
    Returns the ages as an input matrix of shape (12, 1) and the diameters, shape (12,).
    """
    age = np.array([97, 93, 88, 81, 75, 57, 52, 45, 28, 15, 12, 11], dtype=float)
    dbh = np.array([12.5, 12.5, 8.0, 9.5, 16.5, 11.0, 10.5, 9.0, 6.0, 1.5, 1.0, 1.0])
    return age[:, None], dbh
