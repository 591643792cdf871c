"""Data shared by the tests of lecture_pkg.prototypes: standardised iris and a noisy toy set."""

import numpy as np
import pytest
from sklearn.datasets import load_iris

from lecture_pkg.datasets import standardize, three_clusters


@pytest.fixture(scope="module")
def iris():
    X, y = load_iris(return_X_y=True)
    return standardize(X)[0], y


@pytest.fixture
def toy():
    return three_clusters(random_state=np.random.default_rng(7), n_per_class=30, label_noise=0.05)
