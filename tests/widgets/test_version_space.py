"""Tests of the version-space explorer (logic without a browser)."""

import numpy as np
import pytest

from lecture_pkg.linear import version_space_mask
from lecture_pkg.plotting import lambert_projection
from lecture_pkg.widgets.version_space import VersionSpaceExplorer


def test_lambert_projection_is_equal_area_and_centred():
    rng = np.random.default_rng(0)
    c = np.array([0.0, 0.0, 1.0])
    assert np.allclose(lambert_projection(c, c), 0.0)
    assert np.linalg.norm(lambert_projection(-c + [1e-9, 0, 0], c)) == pytest.approx(2.0, abs=1e-6)
    W = rng.normal(size=(200_000, 3))
    W /= np.linalg.norm(W, axis=1, keepdims=True)
    r = np.linalg.norm(lambert_projection(W, c), axis=1)
    # equal area: uniform points on the sphere are uniform in the disc of radius 2
    assert np.mean(r < 1.0) == pytest.approx(0.25, abs=0.005)
    assert np.mean(r < np.sqrt(2)) == pytest.approx(0.5, abs=0.005)   # the equator


def test_version_space_shrinks_and_keeps_the_teacher():
    ex = VersionSpaceExplorer(max_examples=10, random_state=3, n_candidates=20000)
    assert ex.fraction() == 1.0 and ex.centre() is not None
    informative = [ex.add_example() for _ in range(10)]
    assert ex.add_example() is False and ex.n_examples == 10      # nothing left to add
    h = np.array(ex.history)
    assert len(h) == 11 and np.all(np.diff(h) <= 0) and h[-1] < 0.1
    # an example is informative exactly when the fraction drops
    np.testing.assert_array_equal(informative, np.diff(h) < 0)
    assert version_space_mask(ex.teacher, ex.X, ex.y).all()
    assert version_space_mask(ex.centre(), ex.X, ex.y).all()
    ex.set(n_examples=4)
    assert ex.n_examples == 4 and ex.history == pytest.approx(list(h[:5]))
    with pytest.raises(ValueError, match="0..10"):
        ex.set(n_examples=11)


def test_the_kept_masks_and_centres_are_those_computed_afresh():
    ex = VersionSpaceExplorer(max_examples=6, random_state=4, n_candidates=3000)
    ex.set(n_examples=6)
    for P in (0, 3, 6):
        fresh = (np.ones(3000, dtype=bool) if P == 0
                 else version_space_mask(ex.candidates, ex.X[:P], ex.y[:P]))
        np.testing.assert_array_equal(ex.mask(P), fresh)
        assert ex.fraction(P) == fresh.mean()
    m = ex.mask()
    m[:] = False                                   # a copy: the explorer's own is unchanged
    assert ex.mask().any() and ex.fraction() > 0
    c = ex.centre()
    c[:] = 0.0
    assert np.linalg.norm(ex.centre()) == pytest.approx(1.0)
    old = ex.mask(6)
    ex.new_data(random_state=5)                    # new data: nothing kept from the old
    ex.set(n_examples=6)
    np.testing.assert_array_equal(ex.mask(), version_space_mask(ex.candidates, ex.X, ex.y))
    assert not np.array_equal(ex.mask(), old)


def test_status_and_drawing():
    ex = VersionSpaceExplorer(max_examples=6, random_state=1, n_candidates=5000)
    assert ex.status().startswith("P = 0 examples")
    ex.set(n_examples=5)
    ax = ex.draw()
    assert "centre of mass" in ax.get_title() and len(ax.lines) >= 5     # one circle per example
    labels = [c.get_label() for c in ax.collections]
    assert "version space" in labels and "centre of mass" in labels


def test_widget_controls_drive_the_logic():
    ex = VersionSpaceExplorer(max_examples=5, random_state=2, n_candidates=2000)
    w = ex.widget()
    add, new, slider = w.children[0].children
    assert add.description == "Add example" and new.description == "New data"
    add.click()
    assert ex.n_examples == 1 and slider.value == 1
    slider.value = 4
    assert ex.n_examples == 4
    teacher = ex.teacher.copy()
    new.click()
    assert ex.n_examples == 0 and slider.value == 0 and not np.allclose(ex.teacher, teacher)
    with pytest.raises(ValueError):
        VersionSpaceExplorer(max_examples=0)


def test_version_space_static_steps_through_the_examples():
    ex = VersionSpaceExplorer(max_examples=4, random_state=1, n_candidates=2000)
    static = ex.static()
    assert static.shape == (5,) and static.controls[0].kind == "steps"
    assert ex.n_examples == 0
    assert [t.split(":")[0] for t in static.texts] == [f"P = {p} example{'' if p == 1 else 's'}"
                                                       for p in range(5)]
