"""The signed-matrix heat map of lecture_pkg.plotting (GMLVQ's relevance matrix)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from lecture_pkg import plotting  # noqa: E402

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
