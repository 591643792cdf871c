"""Tests of the LVQ explorer and its drawing helpers (no browser needed)."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

from lecture_pkg.datasets import three_clusters
from lecture_pkg.plotting import (plot_classes, plot_nearest_regions, plot_prototype_paths,
                                  plot_prototypes)
from lecture_pkg.prototypes import GLVQ, LVQ1
from lecture_pkg.widgets.prototypes import PrototypeExplorer
from lecture_pkg import datasets


@pytest.fixture
def toy():
    return three_clusters(random_state=np.random.default_rng(11), n_per_class=20)


def test_explorer_moves_prototypes_epoch_by_epoch(toy):
    X, y = toy
    ex = PrototypeExplorer(X, y, rule="lvq1", eta=0.1, random_state=3)
    start = ex.prototypes
    assert ex.epoch == 0 and "epoch 0" in ex.status()
    assert ex.next_epoch() == 1
    assert not np.allclose(ex.prototypes, start)
    assert ex.next_epoch(4) == 5
    history = np.array(ex.trainer.prototype_history)
    assert history.shape == (6, 3, 2)
    np.testing.assert_array_equal(history[0], start)
    # the start prototypes are examples of their own class
    for w, k in zip(start, ex.trainer.c):
        assert np.any(np.all(X[y == k] == w, axis=1))


def test_explorer_reset_switches_rule_and_rate(toy):
    X, y = toy
    ex = PrototypeExplorer(X, y, random_state=3)
    start = ex.prototypes
    ex.next_epoch(3)
    ex.reset(rule="glvq", eta=0.05)
    assert ex.epoch == 0 and ex.trainer.rule == "glvq" and ex.eta == 0.05
    np.testing.assert_array_equal(ex.prototypes, start)          # same initial prototypes
    with pytest.raises(ValueError, match="rule"):
        ex.reset(rule="lvq3")
    with pytest.raises(ValueError, match="2-d"):
        PrototypeExplorer(np.zeros((4, 3)), [0, 1, 0, 1])


def test_explorer_training_improves_and_matches_the_errors(toy):
    X, y = toy
    ex = PrototypeExplorer(X, y, rule="glvq", eta=0.1, random_state=0)
    before = ex.trainer.errors_per_epoch[0]
    ex.next_epoch(15)
    after = ex.trainer.errors_per_epoch[-1]
    assert after <= before and after == int(np.sum(ex.trainer.predict_classes() != ex.y))
    assert f"{after} of {len(y)}" in ex.status()


def test_explorer_draws_and_builds_a_widget(toy):
    X, y = toy
    ex = PrototypeExplorer(X, y, random_state=1)
    ex.next_epoch(2)
    ax = ex.draw()
    assert "epoch 2" in ax.get_title()
    assert len(ax.lines) == 2 * 3                                  # one path (two strokes) per
                                                                   # prototype
    w = ex.widget()
    buttons = w.children[0].children
    assert [b.description for b in buttons] == ["Next epoch", "10 epochs", "Reset"]
    buttons[0].click()
    assert ex.epoch == 3
    buttons[1].click()
    assert ex.epoch == 13
    buttons[2].click()
    assert ex.epoch == 0
    rule, eta = w.children[1].children
    rule.value = "glvq"
    assert ex.trainer.rule == "glvq" and ex.epoch == 0
    eta.value = 0.01
    assert ex.eta == pytest.approx(0.01)


def test_drawing_helpers(toy):
    X, y = toy
    model = LVQ1(prototypes_per_class=2, random_state=0, max_epochs=5).fit(X, y)
    fig, ax = plt.subplots()
    plot_nearest_regions(model.predict, X, ax, resolution=50)
    plot_classes(X, y, ax)
    plot_prototype_paths(model.prototype_history_, model.prototype_labels_, ax)
    plot_prototypes(model.prototypes_, model.prototype_labels_, ax)
    labels = [t.get_label() for t in ax.collections]
    assert "class 0" in labels and "prototypes" in labels
    assert len(ax.lines) == 2 * 6
    with pytest.raises(ValueError, match="history"):
        plot_prototype_paths(np.zeros((3, 2)), [0, 1], ax)
    with pytest.raises(ValueError, match="at most"):
        plot_classes(np.zeros((6, 2)), np.arange(6))
    # regions: each class of a fitted GLVQ covers part of the plane
    glvq = GLVQ(random_state=0, max_epochs=5).fit(X, y)
    ax2 = plot_nearest_regions(glvq.predict, X, resolution=40)
    assert len(ax2.collections) >= 2


def test_explorer_class_scores_pick_the_nearest_prototypes_class(toy):
    X, y = toy
    ex = PrototypeExplorer(X, y, rule="glvq", prototypes_per_class=2, random_state=2)
    ex.next_epoch(3)
    G = np.random.default_rng(0).uniform(-4, 4, size=(500, 2))
    scores = ex.class_scores(G)
    assert scores.shape == (500, len(ex.classes))
    np.testing.assert_array_equal(scores.argmax(axis=1), ex.trainer.predict_classes(G))


def test_explorer_redraw_in_place_gives_the_picture_of_a_new_figure(toy):
    from lecture_pkg.widgets._static import png_bytes

    X, y = toy
    ex = PrototypeExplorer(X, y, rule="lvq1", prototypes_per_class=2, random_state=2)
    reused = ex.figure()
    for epochs in (1, 2, 5):
        ex.next_epoch(epochs)
        ex.redraw(reused)
        fresh = ex.figure()
        assert png_bytes(reused, dpi=60) == png_bytes(fresh, dpi=60)
        plt.close(fresh)


def test_prototype_learning_rate_change_retrains_the_same_epochs():
    X, y = datasets.three_clusters(random_state=np.random.default_rng(1), n_per_class=20)
    ex = PrototypeExplorer(X, y, rule="lvq1", eta=0.1, random_state=3)
    ex.next_epoch(3)
    W = ex.prototypes
    assert "eta = 0.1," in ex.status()
    ex.set(eta=0.5)
    assert ex.epoch == 3 and ex.eta == 0.5 and "eta = 0.5," in ex.status()
    assert not np.allclose(ex.prototypes, W)
    same = PrototypeExplorer(X, y, rule="lvq1", eta=0.5, random_state=3)
    same.next_epoch(3)
    np.testing.assert_array_equal(ex.prototypes, same.prototypes)


# ----------------------------------------------------------------- prototypes at epoch 0

def test_prototype_rate_acts_from_epoch_zero_and_the_title_shows_it():
    X, y = datasets.three_clusters(random_state=np.random.default_rng(1), n_per_class=20)
    ex = PrototypeExplorer(X, y, rule="lvq1", eta=0.1, random_state=3)
    w = ex.widget()
    rule, eta = w.children[1].children
    assert eta.value == 0.1 and ex.epoch == 0
    start = ex.prototypes
    assert "$\\eta$ = 0.1, epoch 0" in ex.draw(plt.figure().gca()).get_title()
    eta.value = 0.5
    assert ex.eta == 0.5 and ex.epoch == 1
    assert not np.allclose(ex.prototypes, start)
    same = PrototypeExplorer(X, y, rule="lvq1", eta=0.5, random_state=3)
    same.next_epoch(1)
    np.testing.assert_array_equal(ex.prototypes, same.prototypes)
    assert "$\\eta$ = 0.5, epoch 1" in ex.draw(plt.figure().gca()).get_title()
    ex.next_epoch(4)
    eta.value = 0.2                           # later on: the same number of epochs again
    assert ex.epoch == 5 and ex.eta == 0.2


@pytest.mark.parametrize("rules", [["lvq1"], ["lvq1", "glvq"]])
def test_the_widget_shows_the_static_pictures_first_state_as_the_live_figure_draws_it(toy, rules):
    from lecture_pkg.plotting import PIXEL_DENSITY
    from lecture_pkg.widgets._static import png_bytes
    from lecture_pkg.widgets.prototypes import COLORS

    X, y = toy
    ex = PrototypeExplorer(X, y, rule="lvq1", prototypes_per_class=2, random_state=2)
    ex.next_epoch(2)                               # the start: restored after the sweep
    static = ex.static(epochs=3, rules=rules)
    assert ex.epoch == 2
    ex.reset()
    image = ex.widget().children[-1]
    fig = ex.figure()
    drawn = png_bytes(fig, dpi=100 * PIXEL_DENSITY, colors=COLORS)
    plt.close(fig)
    first = {"epoch": 0, "rule": "lvq1"} if len(rules) > 1 else {"epoch": 0}
    assert image.value == drawn == static.frame(**first)
    ex.next_epoch()                                # another state: the widget draws it
    image = ex.widget().children[-1]
    assert image.value == static.frame(**{**first, "epoch": 1}) != drawn


@pytest.mark.parametrize("rules, title", [(["lvq1"], "LVQ1"), (["glvq"], "GLVQ"),
                                          (["lvq1", "glvq"], "LVQ1 and GLVQ")])
def test_the_static_explorers_title_names_the_rules_it_replays(toy, rules, title):
    X, y = toy
    ex = PrototypeExplorer(X, y, rule="lvq1", prototypes_per_class=2, random_state=2)
    static = ex.static(epochs=1, rules=rules)
    assert static.title == title
    if len(rules) == 1:                      # and it replays that rule, whatever the start
        both = ex.static(epochs=1, rules=["lvq1", "glvq"])
        assert static.frame(epoch=1) == both.frame(epoch=1, rule=rules[0])
