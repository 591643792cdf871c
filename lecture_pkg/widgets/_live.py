"""The one piece every explorer's ``.widget()`` shares: a figure that redraws in place."""

from __future__ import annotations

from collections.abc import Callable

import matplotlib.pyplot as plt

from ..plotting import PIXEL_DENSITY


def axes_figure(draw: Callable, figsize: tuple[float, float], ncols: int = 1,
                nrows: int = 1) -> Callable:
    """A figure factory for ``live_figure``: a new grid of ``nrows`` x ``ncols`` Axes
    passed to ``draw``.

    ``draw`` receives one Axes for a single panel and the flat array of Axes otherwise.
    """
    def make():
        fig, axes = plt.subplots(nrows, ncols, figsize=figsize, squeeze=False)
        axes = axes[0, 0] if nrows * ncols == 1 else axes.ravel()
        draw(axes)
        fig.tight_layout()
        return fig
    return make


class RemembersStaticPicture:
    """For an explorer whose ``.static()`` draws the picture ``.widget()`` starts with: it
    remembers that picture with the state it shows (``_state()``, a tuple that equals
    another exactly when the two pictures are the same), and the live widget shows it
    instead of drawing it again."""

    _picture: tuple | None = None

    def _state(self) -> tuple:
        raise NotImplementedError

    def _remember_picture(self, picture: bytes) -> None:
        self._picture = (self._state(), picture)

    def _drawn_picture(self) -> bytes | None:
        """The picture ``.static()`` drew of the current state, if it did."""
        if self._picture is not None and self._picture[0] == self._state():
            return self._picture[1]
        return None


def live_figure(make_figure: Callable, *, colors: int = 256):
    """An ipywidgets ``Image`` and a ``redraw()`` that shows ``make_figure()`` in it.

    ``make_figure`` builds and returns a matplotlib Figure; each redraw draws it once,
    as the static explorer's pictures are drawn (:func:`lecture_pkg.widgets._static.png_bytes`:
    twice the displayed resolution, shown at the figure's size), puts the picture in
    place of the previous one and closes the figure, so no figure accumulates.  (A
    figure shown in an ``Output`` widget would be drawn twice, once to find its tight
    bounding box, and the old picture cleared before the new one appears.)  ``colors``
    bounds the colours per picture, as the explorer's static pictures do.
    """
    import ipywidgets as widgets

    from ._static import png_bytes, png_width

    out = widgets.Image(format="png")

    def redraw(picture: bytes | None = None):
        """Draw ``make_figure()`` into the image; or show ``picture``, the same picture
        drawn before (the static explorer's of the same state), without drawing it again."""
        if picture is None:
            fig = make_figure()
            try:
                picture = png_bytes(fig, dpi=100 * PIXEL_DENSITY, colors=colors)
            finally:
                plt.close(fig)
        out.value = picture
        out.width = str(png_width(picture) // PIXEL_DENSITY)

    return out, redraw


LIVE_HINT = "{name} (live explorer): run the notebook to use its buttons and sliders here."
"""What a live explorer's cell shows before it runs (its text form, stored in the notebook)."""

_BOX_CLASS = None


def live_box(children, name: str):
    """The explorer's widget: an ipywidgets ``VBox`` of ``children`` whose text form is
    the one line :data:`LIVE_HINT` instead of the widget tree.

    A notebook stores that text beside the widget; a notebook opened before it runs shows
    it (JupyterLab without a kernel, a viewer) where it would show
    ``VBox(children=(HBox(...``.
    """
    global _BOX_CLASS
    if _BOX_CLASS is None:
        import ipywidgets as widgets

        class LiveExplorer(widgets.VBox):
            """A VBox whose ``repr`` (the text/plain of its output) is a one-line hint."""

            hint = ""

            def __repr__(self):
                return self.hint

        _BOX_CLASS = LiveExplorer
    box = _BOX_CLASS(list(children))
    box.hint = LIVE_HINT.format(name=name)
    return box


def one_two_five(low: float, high: float) -> list[float]:
    """The 1-2-5 sequence from ``low`` to ``high`` (powers of ten), as decimal floats."""
    import math

    values = []
    for e in range(math.floor(math.log10(low)) - 1, math.ceil(math.log10(high)) + 1):
        for m in (1, 2, 5):
            v = float(f"{m}e{e}")
            if low * (1 - 1e-12) <= v <= high * (1 + 1e-12):
                values.append(v)
    return values


def rate_slider(value: float, low: float, high: float, description: str):
    """A slider over the 1-2-5 grid from ``low`` to ``high`` that holds ``value`` exactly.

    A ``FloatLogSlider`` steps through ``10 ** (min + k * step)``, which the browser
    snaps the starting value to (0.2 became 0.199526); this slider's values are the
    grid's numbers themselves, with ``value`` inserted if it is not one of them.
    """
    import ipywidgets as widgets

    from ._static import grid_with

    grid = grid_with(one_two_five(low, high), float(value))
    return widgets.SelectionSlider(options=[(f"{v:g}", v) for v in grid], value=float(value),
                                   description=description, continuous_update=False)
