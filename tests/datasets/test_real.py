"""Tests of lecture_pkg.datasets' real data bundled with scikit-learn (datasets/_real.py)."""

import numpy as np

from lecture_pkg.datasets import breast_cancer


def test_breast_cancer_is_the_569_sample_diagnostic_set():
    X, y = breast_cancer()
    assert X.shape == (569, 30)
    assert np.sum(y == 1) == 212 and np.sum(y == -1) == 357      # malignant / benign
    assert X.min() == 0.0 and X.max() == 1.0
    np.testing.assert_allclose(X.min(axis=0), 0.0)
    np.testing.assert_allclose(X.max(axis=0), 1.0)
    Xr, _ = breast_cancer(scale=False)
    assert Xr.max() > 100                                          # raw areas
