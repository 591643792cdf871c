"""Tests of lecture_pkg.validation (input checks shared by the modules)."""

import numpy as np
import pytest

from lecture_pkg.validation import as_plus_minus, check_inputs, resolve_rng


def test_as_plus_minus_rejects_other_labels():
    assert as_plus_minus([1, -1, 1]).tolist() == [1.0, -1.0, 1.0]
    with pytest.raises(ValueError, match=r"\+1 or -1"):
        as_plus_minus([0, 1])
    with pytest.raises(ValueError, match="1-d"):
        as_plus_minus([[1, -1]])


def test_check_inputs_wants_finite_matrices():
    assert check_inputs([[1, 2], [3, 4]]).dtype == float
    with pytest.raises(ValueError, match="2-d"):
        check_inputs([1.0, 2.0])
    with pytest.raises(ValueError, match="Z contains NaN"):
        check_inputs([[np.nan, 1.0]], name="Z")
    with pytest.raises(ValueError, match="infinite"):
        check_inputs([[np.inf, 1.0]])


def test_resolve_rng():
    a, b = resolve_rng(3), resolve_rng(3)
    assert a.integers(1000) == b.integers(1000)
    g = np.random.default_rng(0)
    assert resolve_rng(g) is g
    legacy = np.random.RandomState(0)
    assert resolve_rng(legacy) is legacy
