"""Tests of lecture_pkg.kernel_machines.experiments: the protocol and tables of Frieß and
Harrison §4."""

import numpy as np
import pytest

from lecture_pkg.datasets import mirror_symmetry
from lecture_pkg.kernel_machines import PAPER_SIGMAS, PAPER_TABLES, paper_experiment, random_split


def test_random_split_is_disjoint_and_seeded():
    tr, te = random_split(569, 200, 200, random_state=0)
    assert len(tr) == 200 and len(te) == 200 and not set(tr) & set(te)
    np.testing.assert_array_equal(tr, random_split(569, 200, 200, random_state=0)[0])
    with pytest.raises(ValueError, match="exceeds"):
        random_split(10, 6, 5)
    with pytest.raises(ValueError, match="n_train"):
        random_split(10, 0, 5)


def test_paper_tables_have_seventeen_rows_each():
    for name, rows in PAPER_TABLES.items():
        assert len(rows) == 17
        sig = sorted({r[2] for r in rows if r[2] is not None})
        assert tuple(sig) == PAPER_SIGMAS[name]
    mirror = {(r[0], r[1], r[2]): r[4] for r in PAPER_TABLES["mirror"]}
    assert mirror[("SVM", None, 6)] == 2 and mirror[("k-Adatron", 250, 7)] == 5
    assert PAPER_TABLES["breast_cancer"][8] == ("LPM", None, 0.4, 9, 16)


def test_paper_experiment_rows_and_separable_training_sets():
    Xtr, ytr = mirror_symmetry(80, random_state=0)
    Xte, yte = mirror_symmetry(40, random_state=1)
    rows = paper_experiment(Xtr, ytr, Xte, yte, (5.0, 7.0), k_large=7, random_state=0)
    assert len(rows) == 2 + 2 * 5
    assert [r["method"] for r in rows[:2]] == ["KNN (k=1)", "KNN (k=7)"]
    paper = [r for r in PAPER_TABLES["mirror"] if r[2] in (None, 5, 7)]
    assert [(r["method"], r["cycles"]) for r in rows] == [(p[0], p[1]) for p in paper]
    assert [r["sigma"] for r in rows[2:]] == [5.0, 7.0] * 5
    assert rows[0]["train_errors"] == 0                          # 1-NN memorises
    svm = [r for r in rows if r["method"] == "SVM"]
    assert all(r["train_errors"] == 0 for r in svm)               # RBF: separable
    assert all(0 <= r["test_errors"] <= 40 for r in rows)
    lpm = [r for r in rows if r["method"] == "LPM"]
    assert all(r["note"] in ("bias", "no bias") for r in lpm)
    # deterministic for a seed
    assert rows == paper_experiment(Xtr, ytr, Xte, yte, (5.0, 7.0), k_large=7, random_state=0)
    with pytest.raises(ValueError, match="lpm_validation"):
        paper_experiment(Xtr, ytr, Xte, yte, (5.0,), lpm_validation=1.5)
    with pytest.raises(ValueError, match="same number"):
        paper_experiment(Xtr, ytr[:-1], Xte, yte, (5.0,))


def test_sonar_svm_row_of_table_1_exactly():
    from lecture_pkg.datasets import sonar
    from lecture_pkg.kernel_machines import svm_rows
    X, y, train = sonar()
    split = X[train], y[train], X[~train], y[~train]
    paper = [r[4] for r in PAPER_TABLES["sonar"] if r[0] == "SVM"]
    assert paper == [8, 7, 7]
    for C in (100.0, 1e6, np.inf):
        rows = svm_rows(*split, PAPER_SIGMAS["sonar"], C)
        assert [r["test_errors"] for r in rows] == paper
        assert [r["svc_test_errors"] for r in rows] == paper            # the oracle agrees
        assert [r["train_errors"] for r in rows] == [0, 0, 0]
        assert [r["n_support"] for r in rows] == [99, 92, 87]
        assert min(r["min_abs_test_f"] for r in rows) > 1e-3            # counts are robust
    # C = 10 is below the largest hard-margin multiplier at sigma = 1.2: soft, one more error
    hard = svm_rows(*split, (1.2,))[0]
    assert 10 < hard["max_alpha"] < 100
    assert svm_rows(*split, (1.2,), 10.0)[0]["test_errors"] == 8
    with pytest.raises(ValueError, match="sigma"):
        svm_rows(*split, (0.0,))


def test_sonar_lpm_grid_without_bias_reproduces_the_papers_row():
    from lecture_pkg.datasets import sonar
    from lecture_pkg.kernel_machines import lpm_grid
    X, y, train = sonar()
    grid = lpm_grid(X[train], y[train], X[~train], y[~train], (0.8, 1.0, 1.2), (0.1, 0.3))
    assert len(grid) == 3 * 2 * 2
    assert [grid[(0.8, 0.3, False)], grid[(1.0, 0.3, False)], grid[(1.2, 0.1, False)]] == [
        (1, 11), (1, 9), (0, 8)]
    assert all(grid[(s, 0.1, True)][1] > 10 for s in (0.8, 1.0, 1.2))   # the bias hurts here


def test_paper_experiment_chooses_lpm_C_from_a_grid():
    Xtr, ytr = mirror_symmetry(60, random_state=0)
    Xte, yte = mirror_symmetry(30, random_state=1)
    rows = paper_experiment(Xtr, ytr, Xte, yte, (5.0,), k_large=7, lpm_C=(0.0, 0.1),
                            random_state=0)
    lpm = [r for r in rows if r["method"] == "LPM"][0]
    assert lpm["note"].endswith(("C = 0", "C = 0.1"))
    with pytest.raises(ValueError, match="lpm_C"):
        paper_experiment(Xtr, ytr, Xte, yte, (5.0,), lpm_C=(-1.0,))
