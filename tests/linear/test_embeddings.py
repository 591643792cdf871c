"""Tests of lecture_pkg.linear.embeddings: the correlation matrix and the weights from
embedding strengths, Biehl's identities (3.58)-(3.60)."""

import numpy as np
import pytest

from lecture_pkg.linear import correlation_matrix, weights_from_embeddings


def test_correlation_matrix_identities(adatron_solution, teacher_data):
    X, y = teacher_data
    C = correlation_matrix(X, y)
    a = adatron_solution.embeddings_
    w = weights_from_embeddings(a, X, y)
    np.testing.assert_allclose(C, C.T)
    np.testing.assert_allclose(C @ a, y * (X @ w), atol=1e-10)            # (3.59)
    assert w @ w == pytest.approx(a @ C @ a / X.shape[1], rel=1e-12)      # (3.60)
    np.testing.assert_allclose(np.diag(C), np.sum(X**2, axis=1) / X.shape[1])
    with pytest.raises(ValueError, match="rows"):
        correlation_matrix(X, y[:-1])
    with pytest.raises(ValueError, match="embedding"):
        weights_from_embeddings(a[:-1], X, y)
