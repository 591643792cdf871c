"""The architecture diagrams and the convex-hull picture of lecture_pkg.plotting."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.patches import Circle  # noqa: E402

from lecture_pkg import plotting  # noqa: E402


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
