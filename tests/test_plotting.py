"""Tests of lecture_pkg.plotting: the book's figures, architecture diagrams, the signed-matrix
heat map, decision regions and alt text."""

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.patches import Circle

from lecture_pkg import plotting, datasets
from lecture_pkg.linear import Perceptron


matplotlib.use("Agg")


def test_draw_network_has_a_unit_per_node_and_a_line_per_connection():
    fig, ax = plt.subplots()
    plotting.draw_network([5, 3, 1], ax, ellipsis_nodes={0: 3}, fixed_layers=(1,),
                          layer_labels=["in", "hidden", "out"])
    circles = [p for p in ax.patches if isinstance(p, Circle)]
    assert len(circles) == 5 - 1 + 3 + 1                 # the ellipsis is not a unit
    solid = [ln for ln in ax.lines if ln.get_linestyle() == "-"]
    dashed = [ln for ln in ax.lines if ln.get_linestyle() == "--"]
    assert len(solid) == 4 * 3 and len(dashed) == 3      # fixed hidden-to-output weights dashed
    assert {t.get_text() for t in ax.texts} >= {"in", "hidden", "out"}
    plt.close(fig)


def test_draw_network_edge_labels_and_bad_input():
    fig, ax = plt.subplots()
    plotting.draw_network([2, 1], ax, node_labels=[["a", "b"], ["S"]],
                          edge_labels={(0, 0, 0): "$w_1$", (0, 1, 0): "$w_2$"})
    assert {"$w_1$", "$w_2$", "a", "b", "S"} <= {t.get_text() for t in ax.texts}
    with pytest.raises(ValueError, match="two layers"):
        plotting.draw_network([3], ax)
    with pytest.raises(ValueError, match="one label per unit"):
        plotting.draw_network([2, 1], ax, node_labels=[["a"], ["S"]])
    plt.close(fig)


def test_convex_hull_outline_goes_through_the_hull_vertices_only():
    fig, ax = plt.subplots()
    square = np.array([[0, 0], [1, 0], [1, 1], [0, 1], [0.5, 0.5]])
    plotting.plot_convex_hull(square, ax)
    outline = ax.lines[-1].get_xydata()
    assert len(outline) == 5 and {tuple(p) for p in outline} == {(0, 0), (1, 0), (1, 1), (0, 1)}
    plotting.plot_convex_hull([[0, 0], [1, 1], [2, 2]], ax)       # collinear: a segment
    assert ax.lines[-1].get_xydata().tolist() == [[0, 0], [2, 2]]
    with pytest.raises(ValueError, match="2-d points"):
        plotting.plot_convex_hull(np.zeros((3, 3)), ax)
    plt.close(fig)


LAMBDA = np.array([[0.026, 0.022, -0.129, -0.088],
                   [0.022, 0.019, -0.108, -0.079],
                   [-0.129, -0.108, 0.631, 0.437],
                   [-0.088, -0.079, 0.437, 0.324]])


def test_colour_limits_are_symmetric_about_zero_so_white_means_zero():
    fig, ax = plt.subplots()
    plotting.plot_signed_matrix(LAMBDA, ax)
    image = ax.images[0]
    assert image.get_clim() == (-0.631, 0.631)
    assert image.get_cmap().name.startswith("RdBu_r")
    white = np.array(image.get_cmap()(image.norm(0.0))[:3])
    assert np.all(white > 0.95)                                  # zero is (nearly) white
    negative, positive = (image.get_cmap()(image.norm(v)) for v in (-0.129, 0.437))
    assert negative[2] > negative[0] and positive[0] > positive[2]   # blue < 0 < red
    assert len(fig.axes) == 2                                    # the colour bar
    plt.close(fig)


def test_masked_diagonal_is_left_out_of_the_colours_and_the_limits():
    fig, ax = plt.subplots()
    plotting.plot_signed_matrix(LAMBDA, ax, mask_diagonal=True, annotate="{:.2f}",
                                labels=["1", "2", "3", "4"], colorbar=False)
    image = ax.images[0]
    shown = image.get_array()
    assert shown.mask.tolist() == np.eye(4, dtype=bool).tolist()
    assert image.get_clim() == (-0.437, 0.437)                   # largest off-diagonal
    texts = [t.get_text() for t in ax.texts]
    assert len(texts) == 12 and "\u22120.13" in texts and "0.44" in texts
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "2", "3", "4"]
    assert len(fig.axes) == 1
    plt.close(fig)


def test_bad_input_and_an_all_zero_matrix():
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="2-d matrix"):
        plotting.plot_signed_matrix(np.zeros(3), ax)
    with pytest.raises(ValueError, match="square"):
        plotting.plot_signed_matrix(np.zeros((2, 3)), ax, mask_diagonal=True)
    plotting.plot_signed_matrix(np.zeros((2, 2)), ax, colorbar=False)
    assert ax.images[-1].get_clim() == (-1.0, 1.0)
    plt.close(fig)


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_labelled_points_use_plus_and_circle_markers():
    X, y = datasets.koski_example()
    ax = plotting.plot_labelled_points(X, y, annotate=True)
    assert len(ax.collections) == 2
    assert [len(c.get_offsets()) for c in ax.collections] == [3, 3]
    assert len(ax.texts) == 6
    with pytest.raises(ValueError):
        plotting.plot_labelled_points(X, np.zeros(6))


@pytest.mark.parametrize("coef, intercept", [((1.0, 0.5), 0.0), ((0.5, 1.0), 0.2), ((1.0, 0.0),
                                                                                    -0.5)])
def test_hyperplane_line_satisfies_its_equation(coef, intercept):
    fig, ax = plt.subplots()
    plotting.plot_hyperplane(coef, intercept, ax, xlim=(-3, 3), ylim=(-3, 3))
    (line,) = ax.lines
    pts = np.c_[line.get_xdata(), line.get_ydata()]
    np.testing.assert_allclose(pts @ np.asarray(coef) + intercept, 0, atol=1e-12)
    # the normal arrow points to the +1 side
    arrow = ax.texts[0]
    head, tail = np.asarray(arrow.xy), np.asarray(arrow.xyann)
    assert (head - tail) @ np.asarray(coef) > 0


def test_zero_weights_draw_no_line():
    fig, ax = plt.subplots()
    plotting.plot_hyperplane((0.0, 0.0), 1.0, ax, xlim=(-1, 1), ylim=(-1, 1))
    assert not ax.lines


def test_decision_regions_shade_both_classes():
    X, y = datasets.koski_example()
    model = Perceptron().fit(X, y)
    ax = plotting.plot_decision_regions(model.decision_function, X, y)
    filled = ax.collections[0]
    assert len(filled.get_paths()) >= 2  # a +1 region and a -1 region
    assert len(ax.collections) == 3      # regions plus the two scatter sets


def test_errors_per_epoch_bars():
    ax = plotting.plot_errors_per_epoch([3, 3, 2, 0])
    assert [p.get_height() for p in ax.patches] == [3, 3, 2, 0]
    assert ax.get_xlabel() == "epoch"
    ax.figure.canvas.draw()
    assert all(float(t).is_integer() for t in ax.get_xticks())


def test_update_sequence_has_a_panel_per_state():
    X, y = datasets.koski_example()
    p = Perceptron(eta=0.2, record_history=True).fit(X, y, coef_init=[1, 0.5], intercept_init=0)
    axes = plotting.plot_update_sequence(X, y, p.history_)
    assert len(axes) == 4
    assert axes[0].get_title().startswith("start")
    assert "example 3" in axes[1].get_title()


def test_book_style_sets_the_figure_defaults():
    """A default figure fits the text column, and no default text is under 9 pt."""
    with plt.rc_context():
        plotting.use_book_style()
        width, _ = plt.rcParams["figure.figsize"]
        assert width <= plotting.COLUMN_WIDTH_IN
        assert plt.rcParams["figure.dpi"] == 100
        assert plt.rcParams["axes.grid"] is True
        for key in ("font.size", "axes.titlesize", "axes.labelsize", "xtick.labelsize",
                    "ytick.labelsize", "legend.fontsize", "figure.titlesize"):
            assert plt.rcParams[key] >= 9, key


def test_mark_example_circles_the_point():
    ax = plotting.mark_example((1.0, -2.0))
    np.testing.assert_allclose(ax.collections[0].get_offsets(), [[1.0, -2.0]])


# ---------------------------------------------------------------- the one decision-region helper

def test_grid_values_evaluates_the_function_on_the_grid():
    g1, g2, values = plotting.grid_values(lambda G: G[:, 0] - 2 * G[:, 1], (-1, 1), (0, 2), 7)
    assert g1.shape == g2.shape == values.shape == (7, 7)
    assert g1[0, 0] == -1 and g1[0, -1] == 1 and g2[0, 0] == 0 and g2[-1, 0] == 2
    np.testing.assert_allclose(values, g1 - 2 * g2)


def test_plot_regions_two_classes_with_margins_and_several_classes():
    X = np.array([[0.0, 0.0], [1.0, 2.0]])
    fig, (ax1, ax2) = plt.subplots(1, 2)
    plotting.plot_regions(lambda G: G[:, 0] - 0.5, X, ax1, margins=True, resolution=30)
    shaded, lines = ax1.collections[0], ax1.collections[1]
    assert list(shaded.levels) == [-0.5, 0.5, 1.5] and list(lines.levels) == [-1.0, 0.0, 1.0]
    assert ax1.get_xlim() == (-0.5, 1.5) and ax1.get_ylim() == (-0.5, 2.5)
    plotting.plot_regions(lambda G: (G[:, 0] > 0.5).astype(int) + (G[:, 1] > 1), X, ax2,
                          n_classes=3, xlim=(0, 1), ylim=(0, 2), resolution=30)
    assert list(ax2.collections[0].levels) == [-0.5, 0.5, 1.5, 2.5]
    with pytest.raises(ValueError, match="xlim and ylim"):
        plotting.plot_regions(lambda G: G[:, 0], None, ax2)
    plt.close(fig)


def test_alt_text_says_what_a_figure_shows():
    from lecture_pkg.plotting import alt_text, set_alt_text

    fig, axes = plt.subplots(1, 2)
    axes[0].plot([0, 1], [0, 1], label=r"$\kappa_{\max}$")
    axes[0].set_xlabel(r"load $\alpha = P/N$")
    axes[0].set_ylabel("overlap")
    axes[0].legend()
    axes[1].set_title("errors")
    axes[1].plot([0, 1], [1, 0])
    fig.suptitle("Capacity")
    text = alt_text(fig)
    assert text == ("Figure: Capacity. Panel 1: overlap against load alpha = P/N; showing "
                    "kappa max. Panel 2: errors.")
    set_alt_text(fig, "Two curves that cross.")
    assert alt_text(fig) == "Two curves that cross."
    plt.close(fig)


def test_alt_text_reads_calligraphic_capitals_as_script_letters():
    # the book writes the number of updates as \mathcal M; a plain M is another symbol
    from lecture_pkg.plotting import alt_text

    fig, ax = plt.subplots()
    ax.plot([1, 2], [1, 2], label=r"$\sqrt{\mathcal{M}/\mathcal{M}^*}$")
    ax.set_xlabel(r"updates $\mathcal{M}$")
    ax.set_ylabel(r"cost $\mathcal E_{\mathrm{err}}$")
    ax.legend()
    assert alt_text(fig) == ("Figure: cost ℰ err against updates ℳ; showing sqrt ℳ/ℳ *.")
    plt.close(fig)


def test_regions_from_class_scores_have_straight_borders_on_a_coarse_grid():
    # two prototypes of class 0 and one of class 1 (minus squared distances as scores):
    # the borders are pieces of perpendicular bisectors, found exactly on an 11 x 11 grid
    W = np.array([[-1.0, 0.0], [0.0, 2.0], [1.5, 0.5]])
    c = np.array([0, 0, 1])

    def scores(G):
        D = ((G[:, None, :] - W[None]) ** 2).sum(axis=-1)
        return -np.column_stack([D[:, c == k].min(axis=1) for k in (0, 1)])

    fig, ax = plt.subplots()
    plotting.plot_regions(scores, None, ax, n_classes=2, resolution=11, xlim=(-3, 3),
                          ylim=(-3, 3))
    fills = [s for s in ax.collections if len(s.levels) == 2]
    borders = [s for s in ax.collections if list(s.levels) == [0.0]]
    assert len(fills) == 2 and len(borders) == 2
    # the two pieces meet at the point equidistant from all three prototypes; only the
    # grid cell around it cuts the corner
    A = 2 * (W[1:] - W[0])
    corner = np.linalg.solve(A, (W[1:] ** 2).sum(axis=1) - (W[0] ** 2).sum())
    for border in borders:                          # the border line of each class
        P = np.concatenate([p.vertices for p in border.get_paths()])
        d = ((P[:, None, :] - W[None]) ** 2).sum(axis=-1)
        gap = d[:, c == 0].min(axis=1) - d[:, 2]           # 0 on the border
        far = np.hypot(*(P - corner).T) > 0.6 * np.sqrt(2)   # beyond a grid cell
        assert far.sum() >= 8 and np.abs(gap[far]).max() < 1e-9
    plt.close(fig)


def test_class_scores_and_class_indices_shade_the_same_regions():
    from lecture_pkg.prototypes import NearestPrototypeClassifier

    X, y = datasets.three_clusters(random_state=np.random.default_rng(4), n_per_class=20)
    model = NearestPrototypeClassifier().fit(X, y)
    g1, g2, s = plotting.grid_values(model.decision_function, (-4, 4), (-4, 4), 40)
    _, _, labels = plotting.grid_values(model.predict, (-4, 4), (-4, 4), 40)
    assert s.shape == (40, 40, 3)
    np.testing.assert_array_equal(np.argmax(s, axis=-1), labels)
    fig, ax = plt.subplots()
    plotting.plot_nearest_regions(model.decision_function, X, ax, resolution=40)
    assert [list(cs.levels) for cs in ax.collections if len(cs.levels) == 1] == [[0.0]] * 3
    plt.close(fig)
