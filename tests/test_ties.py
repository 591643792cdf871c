"""Tests of lecture_pkg._ties: choices among values equal up to rounding go to the first index."""

import numpy as np

from lecture_pkg import _ties
from lecture_pkg.prototypes import NearestNeighborClassifier


def test_a_near_tie_from_rounding_goes_to_the_first_index():
    values = np.array([0.1 + 0.2, 0.3, 0.5])              # 0.30000000000000004 and 0.3
    assert np.argmin(values) == 1                          # plain argmin follows the last bit
    assert _ties.first_argmin(values) == 0
    assert _ties.first_argmin(values[::-1]) == 1          # the first of the tied pair again


def test_real_differences_are_kept_and_infinities_allowed():
    values = np.array([[np.inf, 2.0, 2.0 + 1e-6], [3.0, np.inf, 1.0]])
    np.testing.assert_array_equal(_ties.first_argmin(values, axis=1), [1, 2])
    np.testing.assert_array_equal(_ties.stable_argsort(np.array([1.0 + 1e-16, 1.0, 0.5])), [2, 0,
                                                                                            1])


def test_the_choice_does_not_depend_on_the_summation_order():
    rng = np.random.default_rng(0)
    terms = rng.normal(size=(200, 50))
    forward = terms.sum(axis=1)
    backward = terms[:, ::-1].sum(axis=1)               # the same sums, rounded otherwise
    tied = np.r_[forward[:1], forward[:1] * 0 + backward[:1]]
    assert _ties.first_argmin(tied) == 0
    np.testing.assert_array_equal(_ties.snap(forward), _ties.snap(backward))


def test_nearest_neighbour_with_equidistant_references_votes_for_the_first():
    # references at -3.0 and 0.2, query at -1.4: both 1.6 away in exact arithmetic, but
    # (-1.4 + 3.0)^2 and (-1.4 - 0.2)^2 round to different floats, the second one smaller
    X = np.array([[-3.0], [0.2]])
    d = (np.array([-1.4]) - X[:, 0]) ** 2
    assert d[1] < d[0]                                   # plain argmin would pick the second
    for k in (1, 2):
        knn = NearestNeighborClassifier(n_neighbors=k).fit(X, [0, 1])
        assert knn.predict([[-1.4]])[0] == 0


def test_each_choice_is_scaled_by_its_own_values():
    # one row of tiny probabilities, one of large ones: the tiny row is still decided
    P = np.array([[1e-12, 3e-12, 2e-12], [0.5, 0.2, 0.3]])
    np.testing.assert_array_equal(_ties.first_argmax(P, axis=1), [1, 0])


def test_the_fast_path_chooses_what_the_snapped_values_choose():
    """first_argmin/first_argmax skip the rounding when no near-tie exists; the choice is
    the one argmin/argmax make on the snapped values, with and without near-ties,
    infinities and NaN."""
    rng = np.random.default_rng(0)
    for _ in range(3000):
        n = int(rng.integers(1, 12))
        v = rng.normal(size=n) * 10.0 ** rng.integers(-3, 4)
        if rng.random() < 0.4:                                # a near-tie from rounding
            v[rng.integers(n)] = v[rng.integers(n)] * (1 + rng.normal() * 1e-10)
        if rng.random() < 0.2:                                # exact ties
            v = np.round(v, 1)
        if rng.random() < 0.1:
            v[rng.integers(n)] = rng.choice([np.inf, -np.inf, np.nan])
        assert _ties.first_argmin(v) == int(np.argmin(_ties.snap(v))), v
        assert _ties.first_argmax(v) == int(np.argmax(_ties.snap(v))), v
