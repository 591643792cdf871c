"""Tests of lecture_pkg.datasets' vendored UCI data (datasets/_uci.py): sonar and the Wisconsin
breast cancer data."""

import numpy as np
import pytest

from lecture_pkg import datasets


def test_sonar_reader_matches_the_data_readme():
    X, y, train = datasets.sonar()
    assert X.shape == (208, 60) and y.shape == (208,) and train.dtype == bool
    assert np.sum(y == 1) == 111 and np.sum(y == -1) == 97          # mines, rocks
    assert train.sum() == 104
    assert np.sum(y[train] == 1) == 49 and np.sum(y[train] == -1) == 55
    assert X.min() >= 0.0 and X.max() <= 1.0
    # first pattern of sonar.mines is *CM078, starting 0.0491 0.0279; values have 4 decimals
    assert train[0] and X[0, :2].tolist() == [0.0491, 0.0279]
    np.testing.assert_allclose(np.round(X * 1e4), X * 1e4, rtol=0, atol=1e-9)
    assert len({tuple(row) for row in X}) == 208                      # no duplicated pattern


def test_sonar_files_are_vendored_unchanged():
    from importlib import resources
    data = resources.files("lecture_pkg").joinpath("data")
    mines = data.joinpath("sonar.mines").read_text()
    assert mines.count("CM") == 111 and mines.count("*CM") == 49
    assert data.joinpath("sonar.rocks").read_text().count("*CR") == 55


def test_breast_cancer_wisconsin_reader_matches_the_data_readme():
    X, y = datasets.breast_cancer_wisconsin(missing="nan", scale=False)
    assert X.shape == (699, 9)
    assert np.sum(y == -1) == 458 and np.sum(y == 1) == 241            # benign, malignant
    assert np.isnan(X).sum() == 16 and np.isnan(X).any(axis=0).tolist() == [
        name == "bare nuclei" for name in datasets.WISCONSIN_FEATURES]
    assert np.nanmin(X) == 1 and np.nanmax(X) == 10
    np.testing.assert_array_equal(X[0], [5, 1, 1, 1, 2, 1, 3, 1, 1])   # row 1000025
    Xd, yd = datasets.breast_cancer_wisconsin()
    assert Xd.shape == (683, 9) and not np.isnan(Xd).any()
    assert np.sum(yd == -1) == 444 and np.sum(yd == 1) == 239
    keep = ~np.isnan(X).any(axis=1)
    np.testing.assert_array_equal(Xd, X[keep] / 10)
    np.testing.assert_array_equal(yd, y[keep])
    with pytest.raises(ValueError, match="missing"):
        datasets.breast_cancer_wisconsin(missing="mean")
