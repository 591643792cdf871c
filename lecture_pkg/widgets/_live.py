"""The one piece every explorer's ``.widget()`` shares: a figure that redraws in place."""

from __future__ import annotations

from collections.abc import Callable

import matplotlib.pyplot as plt


def single_axes_figure(draw: Callable, figsize: tuple[float, float]) -> Callable:
    """A figure factory for ``live_figure``: one new Axes of ``figsize`` passed to ``draw``."""
    def make():
        fig, ax = plt.subplots(figsize=figsize)
        draw(ax)
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
