"""The one piece every explorer's ``.widget()`` shares: a figure that redraws in place."""

from __future__ import annotations

from collections.abc import Callable

import matplotlib.pyplot as plt


def axes_figure(draw: Callable, figsize: tuple[float, float], ncols: int = 1) -> Callable:
    """A figure factory for ``live_figure``: a new row of ``ncols`` Axes passed to ``draw``.

    ``draw`` receives one Axes for ``ncols=1`` and the array of Axes otherwise.
    """
    def make():
        fig, axes = plt.subplots(1, ncols, figsize=figsize)
        draw(axes)
        fig.tight_layout()
        return fig
    return make


def live_figure(make_figure: Callable):
    """An ipywidgets ``Output`` and a ``redraw()`` that shows ``make_figure()`` in it.

    ``make_figure`` builds and returns a matplotlib Figure; each redraw replaces the
    previous picture and closes the figure, so no figure accumulates.
    """
    import ipywidgets as widgets
    from IPython.display import display

    out = widgets.Output()

    def redraw():
        with out:
            out.clear_output(wait=True)
            fig = make_figure()
            display(fig)
            plt.close(fig)

    return out, redraw
