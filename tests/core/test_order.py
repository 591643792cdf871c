"""Tests of lecture_pkg.core.order: the order of presentation in each epoch."""

import numpy as np
import pytest

from lecture_pkg.kernel_machines import presentation_order


def test_presentation_order():
    np.testing.assert_array_equal(presentation_order(4), [0, 1, 2, 3])
    p = presentation_order(10, "random", random_state=0)
    np.testing.assert_array_equal(np.sort(p), np.arange(10))
    np.testing.assert_array_equal(p, presentation_order(10, "random", random_state=0))
    np.testing.assert_array_equal(presentation_order(3, [2, 0, 1]), [2, 0, 1])
    with pytest.raises(ValueError, match="permutation"):
        presentation_order(3, [0, 0, 1])
    with pytest.raises(ValueError, match="order"):
        presentation_order(3, "sorted")
