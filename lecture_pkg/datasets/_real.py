"""Real data sets from scikit-learn's bundled copies (no download).
"""

from __future__ import annotations

import numpy as np
from sklearn.datasets import load_breast_cancer

__all__ = [
    "breast_cancer",
]


def breast_cancer(scale: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """scikit-learn's Wisconsin **diagnostic** breast-cancer data: 569 samples, 30 features.

    Not the paper's data: Frieß and Harrison used the *original* Wisconsin database of
    699 samples with 9 integer features.  Label ``+1`` is malignant (212 samples),
    ``-1`` benign (357).  ``scale=True`` maps every feature linearly onto ``[0, 1]``
    (its minimum and maximum over the 569 samples), which puts the squared distances
    on the scale of the paper's widths ``sigma = 0.4 ... 0.6`` (the original data's
    features 1–10 need the same treatment, division by 10).
    """
    data = load_breast_cancer()
    X = np.asarray(data.data, dtype=float)
    y = np.where(data.target == 0, 1.0, -1.0)       # target 0 is "malignant"
    if scale:
        lo, hi = X.min(axis=0), X.max(axis=0)
        X = (X - lo) / (hi - lo)
    return X, y
