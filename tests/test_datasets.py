"""Tests of lecture_pkg.datasets."""

import numpy as np
import pytest

from lecture_pkg import datasets
from lecture_pkg.linear import geometric_margin, max_margin_hyperplane


def test_koski_example_variants_differ_only_in_point_six():
    X1, y1 = datasets.koski_example(1)
    X2, y2 = datasets.koski_example(2)
    assert X1.shape == (6, 2) and y1.tolist() == [1, 1, 1, -1, -1, -1]
    assert (y1 == y2).all()
    assert X1[5].tolist() == [-2, -2] and X2[5].tolist() == [-2, -1]
    np.testing.assert_array_equal(X1[:5], X2[:5])
    with pytest.raises(ValueError):
        datasets.koski_example(3)


def test_mooney_example_has_zero_one_labels():
    X, c = datasets.mooney_example()
    assert X.tolist() == [[2, -1], [2, 1], [1, 3]] and c.tolist() == [1, 1, 0]


def test_fig34_example_is_separable_through_the_origin():
    X, y = datasets.biehl_fig34_example()
    _, _, gamma = max_margin_hyperplane(X, y, fit_intercept=False)
    assert gamma > 0


def test_xor_is_the_exclusive_or():
    X, y = datasets.xor()
    assert ((X[:, 0] != X[:, 1]) == (y == 1)).all()


def test_iris_setosa_vs_rest():
    X, y = datasets.iris_setosa_vs_rest()
    assert X.shape == (150, 2) and (y == -1).sum() == 50
    # scikit-learn's corrected copy: row 38 (index 37) has sepal width 3.6, the UCI file 3.1
    assert X[37].tolist() == [4.9, 3.6]
    Xp, _ = datasets.iris_setosa_vs_rest(("petal length",))
    assert Xp.shape == (150, 1)
    with pytest.raises(ValueError, match="features"):
        datasets.iris_setosa_vs_rest(("colour",))


def test_standardize_uses_population_std():
    X, _ = datasets.iris_setosa_vs_rest()
    Z, mean, std = datasets.standardize(X)
    np.testing.assert_allclose(Z.mean(axis=0), 0, atol=1e-12)
    np.testing.assert_allclose(Z.std(axis=0, ddof=0), 1, atol=1e-12)
    np.testing.assert_allclose(mean, [5.843333, 3.057333], atol=1e-6)
    Z2, _, _ = datasets.standardize(X[:10], mean, std)
    np.testing.assert_allclose(Z2, Z[:10])
    with pytest.raises(ValueError, match="zero standard deviation"):
        datasets.standardize(np.ones((3, 2)))


def test_teacher_student_labels_and_gap():
    rng = np.random.default_rng(0)
    X, y, w = datasets.teacher_student(200, 5, random_state=rng, teacher_bias=0.5, gap=0.25)
    assert X.shape == (200, 5) and np.linalg.norm(w) == pytest.approx(1.0)
    assert set(np.unique(y)) == {-1, 1}
    b = 0.5  # teacher bias for a unit teacher vector equals teacher_bias / |teacher|
    margins = y * (X @ w + b)
    assert margins.min() >= 0  # every label agrees with the teacher
    X, y, w = datasets.teacher_student(200, 5, random_state=np.random.default_rng(1), gap=0.25)
    assert geometric_margin(X, y, w) >= 0.25


def test_teacher_student_is_reproducible_and_checks_arguments():
    a = datasets.teacher_student(10, 3, random_state=np.random.default_rng(7))
    b = datasets.teacher_student(10, 3, random_state=np.random.default_rng(7))
    np.testing.assert_array_equal(a[0], b[0])
    with pytest.raises(ValueError):
        datasets.teacher_student(10, 3, random_state=np.random.default_rng(0), gap=5.0)
    with pytest.raises(ValueError):
        datasets.teacher_student(10, 3, random_state=np.random.default_rng(0), teacher=np.zeros(3))


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
