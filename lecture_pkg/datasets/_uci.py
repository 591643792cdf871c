"""Two UCI data sets that scikit-learn does not bundle, vendored in ``lecture_pkg/data/``.

Both are the exact files the UCI Machine Learning Repository distributes (licence
CC BY 4.0), copied unchanged so that the book runs offline:

``sonar.mines``, ``sonar.rocks`` -- *Connectionist Bench (Sonar, Mines vs. Rocks)*
    The original CMU benchmark files of R. P. Gorman and T. J. Sejnowski, "Analysis of
    hidden units in a layered network trained to classify sonar targets", Neural
    Networks 1 (1988) 75--89 (bib key ``gorman1988analysis``).  111 returns from a metal
    cylinder and 97 from rocks, each a name (``CM...``/``CR...``) and 60 band energies in
    ``[0, 1]`` between braces.  A leading ``*`` marks the 104 training patterns (49 mines,
    55 rocks) of the *aspect-angle dependent* experiments; the other 104 are the test set.
    That split is the one of Frieß and Harrison's Table 1.

``breast-cancer-wisconsin.data`` -- *Breast Cancer Wisconsin (Original)*
    Donated by W. H. Wolberg, University of Wisconsin Hospitals; O. L. Mangasarian and
    W. H. Wolberg, "Cancer diagnosis via linear programming", SIAM News 23(5) (1990) 1
    and 18 (bib key ``mangasarian1990cancer``).  699 rows: a sample code number, nine
    cytological scores 1--10 and the class (2 benign, 4 malignant); 16 values of the
    sixth score ("bare nuclei") are missing, written ``?``.  This is the 699 x 9 database
    of Frieß and Harrison's Table 3, **not** scikit-learn's 569 x 30 *diagnostic* set
    (:func:`~lecture_pkg.datasets.breast_cancer`).
"""

from __future__ import annotations

import re
from importlib import resources

import numpy as np

from ..validation import Options, validate_args

__all__ = [
    "sonar",
    "WISCONSIN_FEATURES",
    "breast_cancer_wisconsin",
]

_SONAR_PATTERN = re.compile(r"(\*?)(C[MR]\d+):\s*\{([^}]*)\}")

WISCONSIN_FEATURES: tuple[str, ...] = (
    "clump thickness", "uniformity of cell size", "uniformity of cell shape",
    "marginal adhesion", "single epithelial cell size", "bare nuclei",
    "bland chromatin", "normal nucleoli", "mitoses")
"""The nine attributes of the original Wisconsin database, in file order (scores 1--10)."""


def _read_text(name: str) -> str:
    return resources.files("lecture_pkg").joinpath("data", name).read_text(encoding="ascii")


def sonar() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The sonar benchmark of Gorman and Sejnowski with its aspect-angle split.

    Returns
    -------
    X : ndarray of shape (208, 60)
        Band energies in ``[0, 1]``: first the 111 mines in file order, then the 97 rocks.
    y : ndarray of shape (208,)
        ``+1`` for a mine (metal cylinder), ``-1`` for a rock.
    train : ndarray of bool, shape (208,)
        ``True`` for the 104 patterns marked ``*`` in the files (49 mines, 55 rocks), the
        training set of the aspect-angle dependent experiments; ``~train`` is the test set.

    Examples
    --------
    >>> from lecture_pkg.datasets import sonar
    >>> X, y, train = sonar()
    >>> X.shape, int(train.sum()), int((y[train] == 1).sum())
    ((208, 60), 104, 49)
    """
    rows, labels, marks = [], [], []
    for name, label in (("sonar.mines", 1.0), ("sonar.rocks", -1.0)):
        for star, _, numbers in _SONAR_PATTERN.findall(_read_text(name)):
            values = np.array(numbers.split(), dtype=float)
            if values.shape != (60,):
                raise ValueError(f"{name}: a pattern with {values.size} values, expected 60")
            rows.append(values)
            labels.append(label)
            marks.append(star == "*")
    return np.array(rows), np.array(labels), np.array(marks)


@validate_args(missing=Options("drop", "nan"))
def breast_cancer_wisconsin(missing: str = "drop", scale: bool = True
                            ) -> tuple[np.ndarray, np.ndarray]:
    """The original Wisconsin breast-cancer database (699 x 9, 16 missing values).

    Parameters
    ----------
    missing : {"drop", "nan"}
        ``"drop"`` (default) removes the 16 rows with a missing "bare nuclei" score,
        leaving 683 complete rows (444 benign, 239 malignant); ``"nan"`` keeps all 699
        rows (458 benign, 241 malignant) with ``NaN`` for the missing scores.  Frieß and
        Harrison do not say what they did; an RBF kernel needs complete vectors, and
        dropping the rows invents no values (Mangasarian and Wolberg's later studies did
        the same).
    scale : bool
        Divide the scores 1--10 by 10, which puts squared distances on the scale of the
        paper's widths ``sigma = 0.4 ... 0.6``.

    Returns
    -------
    X : ndarray of shape (683, 9) or (699, 9)
        The scores in the order of :data:`WISCONSIN_FEATURES` (the sample code number,
        which repeats in the file, is left out).
    y : ndarray
        ``+1`` malignant (class 4), ``-1`` benign (class 2).

    Examples
    --------
    >>> from lecture_pkg.datasets import breast_cancer_wisconsin
    >>> X, y = breast_cancer_wisconsin()
    >>> X.shape, int((y == 1).sum()), int((y == -1).sum())
    ((683, 9), 239, 444)
    """
    table = []
    for line in _read_text("breast-cancer-wisconsin.data").split():
        fields = line.split(",")
        if len(fields) != 11:
            raise ValueError(f"a row with {len(fields)} fields, expected 11: {line!r}")
        table.append([np.nan if f == "?" else float(f) for f in fields[1:]])
    table = np.array(table)
    X, label = table[:, :9], table[:, 9]
    if not set(np.unique(label)) <= {2.0, 4.0}:
        raise ValueError("class labels other than 2 and 4 in the breast-cancer file")
    y = np.where(label == 4.0, 1.0, -1.0)
    if missing == "drop":
        keep = ~np.isnan(X).any(axis=1)
        X, y = X[keep], y[keep]
    return (X / 10.0 if scale else X), y
