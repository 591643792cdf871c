"""Explorer of Hopfield retrieval: how load and corruption decide whether a pattern comes back.

The logic lives in :class:`HopfieldExplorer`, testable without a browser; ``.widget()``
only wires sliders to it and redraws.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import TYPE_CHECKING

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.ticker import MaxNLocator

from ..neurons import hopfield as hp
from ..validation import COUNT, Interval, check_scalar
from ._live import live_box, live_figure
from ._static import StaticExplorer, control, grid_with, sweep_explorer

if TYPE_CHECKING:
    import ipywidgets
    from matplotlib.figure import Figure

__all__ = ["HopfieldExplorer"]

#: The figure fits the book's text column (6.8 in): three pictures, the curve below.
FIGSIZE = (5.0, 4.4)   # narrow enough for a phone's column

_LOAD = Interval(numbers.Real, 0, 1, closed="right")          # alpha = P / N
_CORRUPTION = Interval(numbers.Real, 0, 0.5)                  # flipping more inverts the cue


class HopfieldExplorer:
    """Store ``P = alpha N`` random patterns, cue the network with a corrupted copy of one
    of them and follow the overlap sweep by sweep (random sequential dynamics).

    Parameters
    ----------
    side : int
        The ``N = side**2`` neurons are drawn as a ``side x side`` picture (``side >= 4``).
    alpha : float
        Load ``P / N``, in ``(0, 1]``.
    corruption : float
        Fraction of the cued pattern's neurons flipped in the initial state, in ``[0, 0.5]``.
    random_state : int
        Seed of the patterns, the corruption and the update order.
    max_sweeps : int
        The most sweeps of the dynamics, ``>= 1``.
    """

    def __init__(self, side: int = 24, alpha: float = 0.05, corruption: float = 0.2,
                 random_state: int = 0, max_sweeps: int = 30) -> None:
        self.side = int(check_scalar(side, "side", Interval(numbers.Integral, 4, None)))
        self.n_neurons = self.side ** 2
        self.max_sweeps = int(check_scalar(max_sweeps, "max_sweeps", COUNT))
        self.set(alpha=alpha, corruption=corruption, random_state=random_state)

    @property
    def n_patterns(self) -> int:
        """The number of stored patterns, ``P = round(alpha N)`` (at least 1)."""
        return max(1, int(round(self.alpha * self.n_neurons)))

    def set(self, *, alpha: float | None = None, corruption: float | None = None,
            random_state: int | None = None) -> None:
        """Change any parameter and rerun the retrieval."""
        if alpha is not None:
            self.alpha = float(check_scalar(alpha, "alpha", _LOAD))
        if corruption is not None:
            self.corruption = float(check_scalar(corruption, "corruption", _CORRUPTION))
        if random_state is not None:
            self.random_state = int(random_state)
        rng = np.random.default_rng(self.random_state)
        self.patterns = hp.random_patterns(self.n_patterns, self.n_neurons, random_state=rng)
        W = hp.hebb_weights(self.patterns)
        self.initial = hp.corrupt(self.patterns[0], self.corruption, random_state=rng)
        self.result = hp.run(self.initial, W, dynamics="random", max_sweeps=self.max_sweeps,
                             random_state=rng, record_states=True)
        self.overlaps = self.result.states @ self.patterns[0] / self.n_neurons

    @property
    def final_overlap(self) -> float:
        """The overlap of the final state with the cued pattern."""
        return float(self.overlaps[-1])

    def status(self) -> str:
        """One line describing the run."""
        n = self.result.n_sweeps
        how = (f"fixed point after {n} sweep{'' if n == 1 else 's'}" if self.result.converged
               else f"no fixed point within {self.max_sweeps} sweeps")
        return (f"N = {self.n_neurons}, P = {self.n_patterns} "
                f"(\u03b1 = {self.n_patterns / self.n_neurons:.3f}), "
                f"{self.corruption:.0%} flipped: overlap {self.overlaps[0]:.2f} \u2192 "
                f"{self.final_overlap:.3f}, {how}")

    def _curve_title(self) -> str:
        return (f"P = {self.n_patterns} patterns in N = {self.n_neurons} neurons, "
                f"{self.corruption:.0%} flipped")

    def draw(self, fig: Figure | None = None) -> Figure:
        """Cue, final state and stored pattern in a row; the overlap per sweep below.

        The run's numbers are in ``status()`` (the page prints it under the controls)."""
        fig = fig if fig is not None else plt.figure(figsize=FIGSIZE)
        grid = fig.add_gridspec(2, 3, height_ratios=[1, 0.8])
        axes = [fig.add_subplot(grid[0, k]) for k in range(3)]
        pictures = [(self.initial, r"cue $\mathbf{S}(0)$"), (self.result.state, "final state"),
                    (self.patterns[0], "stored pattern")]
        for ax, (img, title) in zip(axes, pictures):
            ax.imshow(img.reshape(self.side, self.side), cmap="gray_r", vmin=-1, vmax=1)
            ax.set_title(title)
            ax.set_xticks([])
            ax.set_yticks([])
            ax.grid(False)
        ax = fig.add_subplot(grid[1, :])
        ax.plot(np.arange(len(self.overlaps)), self.overlaps, "o-", ms=4)
        ax.set_ylim(-0.05, 1.05)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("sweep")
        ax.set_ylabel("overlap $R$")
        ax.set_title(self._curve_title())
        fig.tight_layout()
        return fig

    def figure(self) -> Figure:
        """A new figure of the current state (the live and the static explorer draw this)."""
        return self.draw(plt.figure(figsize=FIGSIZE))

    def redraw(self, fig: Figure) -> None:
        """Bring a figure drawn by :meth:`draw` up to the current run in place.

        The three pictures, the overlap curve (its sweep axis rescaled) and the curve's
        title change; the layout stays, so the picture is the one :meth:`draw` gives."""
        *pictures, curve = fig.axes
        for ax, img in zip(pictures, (self.initial, self.result.state, self.patterns[0])):
            ax.images[0].set_data(img.reshape(self.side, self.side))
        curve.lines[0].set_data(np.arange(len(self.overlaps)), self.overlaps)
        curve.relim()
        curve.autoscale_view(scaley=False)
        curve.set_title(self._curve_title())

    def seed_range(self, width: int = 20) -> tuple[int, int]:
        """The seed slider's range: ``width`` seeds starting at the explorer's own seed,
        so the slider shows the seed the first picture was drawn with."""
        return self.random_state, self.random_state + int(width)

    def static(self, alpha: Sequence[float] = (0.02, 0.05, 0.08, 0.1, 0.14, 0.2, 0.3),
               corruption: Sequence[float] = (0.1, 0.3)) -> StaticExplorer:
        """The explorer for the HTML book: the load swept over ``alpha`` (with a play
        button) and the corruption over ``corruption``, the seed fixed."""
        start = dict(alpha=self.alpha, corruption=self.corruption)
        controls = [
            control("alpha", grid_with(alpha, self.alpha), label="load \u03b1 = P/N",
                    initial=self.alpha, fmt="{:.2f}", play=True),
            control("corruption", grid_with(corruption, self.corruption), label="flipped",
                    initial=self.corruption, fmt="{:.0%}", kind="choice"),
        ]

        return sweep_explorer(self, self.set, controls, title="Hopfield retrieval",
                              restore=lambda: self.set(**start), redraw=self.redraw)

    def widget(self) -> ipywidgets.VBox:
        """The live explorer: sliders for the load, the corruption and the seed."""
        import ipywidgets as widgets

        alpha = widgets.FloatSlider(value=self.alpha, min=0.01, max=0.4, step=0.01,
                                    description="\u03b1 = P/N", continuous_update=False,
                                    style={"description_width": "initial"})
        corruption = widgets.FloatSlider(value=self.corruption, min=0.0, max=0.5, step=0.02,
                                         description="flipped", continuous_update=False)
        low, high = self.seed_range()
        seed = widgets.IntSlider(value=self.random_state, min=low, max=high, description="seed",
                                 continuous_update=False)

        out, redraw = live_figure(self.figure)
        label = widgets.Label(self.status())

        def on_change(_):
            self.set(alpha=alpha.value, corruption=corruption.value, random_state=seed.value)
            label.value = self.status()
            redraw()

        for slider in (alpha, corruption, seed):
            slider.observe(on_change, names="value")
        redraw()
        return live_box([widgets.HBox([alpha, corruption, seed]), label, out], "HopfieldExplorer")
