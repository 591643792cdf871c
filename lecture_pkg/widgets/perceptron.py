"""Explorer of the Rosenblatt perceptron's updates.

Each explorer keeps its logic in a plain class that can be tested without a browser;
``.widget()`` only wires buttons and sliders to that logic and redraws a figure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import matplotlib.pyplot as plt
import numpy as np

from ..linear import RosenblattTrainer, augment
from ..plotting import mark_example, plot_hyperplane, plot_labelled_points
from ..validation import FINITE, check_scalar, check_vector
from ._live import axes_figure, live_box, live_figure, rate_slider
from ._static import StaticExplorer, control, grid_with, sweep_explorer

if TYPE_CHECKING:
    import ipywidgets
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["PerceptronExplorer"]


class PerceptronExplorer:
    """Step through Rosenblatt updates on a 2-d data set.

    Parameters
    ----------
    X : array (P, 2)
    y : array (P,) of +-1
    eta : float
        Learning rate.
    coef_init, intercept_init :
        Starting weights (zero by default).
    lim : float
        Half-width of the square plotting window.
    """

    def __init__(self, X: np.ndarray, y: np.ndarray, *, eta: float = 0.2,
                 coef_init: Sequence[float] | np.ndarray = (0.0, 0.0), intercept_init: float = 0.0,
                 lim: float = 3.0) -> None:
        self.X = np.asarray(X, dtype=float)
        if self.X.ndim != 2 or self.X.shape[1] != 2:
            raise ValueError(f"the explorer shows 2-d inputs; X has shape {self.X.shape}")
        self.y = np.asarray(y)
        self.coef_init = check_vector(coef_init, "coef_init")
        if self.coef_init.shape != (2,):
            raise ValueError(f"coef_init has shape {self.coef_init.shape}, expected (2,)")
        self.intercept_init = float(check_scalar(intercept_init, "intercept_init", FINITE))
        self.lim = float(lim)
        self.reset(eta)

    def reset(self, eta: float | None = None) -> None:
        """Back to the initial weights, optionally with a new learning rate."""
        if eta is not None:
            self.eta = float(eta)
        w0 = np.r_[self.intercept_init, self.coef_init]
        self.trainer = RosenblattTrainer(augment(self.X), self.y, w0, eta=self.eta)
        self.last_example: int | None = None

    def set(self, *, eta: float) -> None:
        """Change the learning rate and replay as many updates as were made so far.

        The picture then shows the same step of the algorithm under the new rate (a
        bare restart would redraw the unchanged starting line).
        """
        n = self.trainer.n_updates
        self.reset(eta)
        self.run_updates(n)

    def run_updates(self, n: int) -> int:
        """Make up to ``n`` more updates (fewer if all examples become correct); return
        the total number of updates made."""
        for _ in range(int(n)):
            if self.next_update() is None:
                break
        return self.trainer.n_updates

    @property
    def coef(self) -> np.ndarray:
        """The current weights ``w`` (a copy)."""
        return self.trainer.weights[1:].copy()

    @property
    def intercept(self) -> float:
        """The current bias: the weight of the clamped input."""
        return float(self.trainer.weights[0])

    def next_update(self) -> int | None:
        """Make the next update (cyclic order); ``None`` once every example is correct."""
        self.last_example = self.trainer.next_update()
        return self.last_example

    def _n_not_correct(self) -> int:
        """How many examples are on the wrong side of the line or on it (E <= 0)."""
        return int(np.sum(self.trainer.local_potentials() <= 0))

    def status(self) -> str:
        """One line describing the current state."""
        t = self.trainer
        w = ", ".join(f"{v:.3g}" for v in self.coef)
        head = (f"eta = {self.eta:g}, after {t.n_updates} update(s): b = {self.intercept:.3g}, "
                f"w = ({w})")
        if t.converged:
            return head + f" -- all examples correct, converged in epoch {t.epoch}"
        wrong = self._n_not_correct()
        last = ("" if self.last_example is None
                else f"; last update used example {self.last_example + 1}")
        if wrong == 0:          # the next pass over the examples will find nothing to update
            return head + f" -- all examples correct, no further update{last}"
        return head + (f"; {wrong} example(s) not yet correct "
                       f"(on the wrong side or on the line){last}")

    def draw(self, ax: Axes | None = None) -> Axes:
        """Draw the data, the current line and the last updated example."""
        ax = ax if ax is not None else plt.gca()
        plot_labelled_points(self.X, self.y, ax, annotate=True)
        lim = (-self.lim, self.lim)
        ax.set_xlim(lim)
        ax.set_ylim(lim)
        plot_hyperplane(self.coef, self.intercept, ax, xlim=lim, ylim=lim)
        if self.last_example is not None:
            mark_example(self.X[self.last_example], ax)
        ax.set_xlabel("$x_1$")
        ax.set_ylabel("$x_2$")
        t = self.trainer
        wrong = self._n_not_correct()
        verdict = "all examples correct" if wrong == 0 else f"{wrong} not yet correct"
        last = "" if self.last_example is None else f", last: example {self.last_example + 1}"
        # from a zero start (c = 0) the rate only scales the weights and the line stays
        # the same; from a non-zero start it changes the run
        w = ", ".join(f"{v:.3g}" for v in self.coef)
        ax.set_title(f"after {t.n_updates} update(s): {verdict}{last}\n"
                     f"$\\eta$ = {self.eta:g}: $b$ = {self.intercept:.3g}, "
                     f"$\\mathbf{{w}}$ = ({w})", fontsize=10)
        return ax

    def figure(self) -> Figure:
        """A new figure of the current state (the live and the static explorer draw this)."""
        return axes_figure(self.draw, (4.2, 4.4))()   # fits a phone's column at 0.85

    def static(self, eta: Sequence[float] = (0.05, 0.2, 1.0),
               max_updates: int = 40) -> StaticExplorer:
        """The explorer for the HTML book: a choice of learning rates and the updates
        stepped one by one (buttons, slider and play) until every example is correct."""
        start_eta, start_n = self.eta, self.trainer.n_updates
        etas = grid_with(eta, self.eta)
        needed = 0
        for e in etas:                       # how many updates the slowest rate needs
            self.reset(e)
            needed = max(needed, self.run_updates(max_updates))
        controls = [
            control("eta", etas, label="eta", initial=start_eta, fmt="{:g}", kind="choice"),
            control("updates", range(needed + 1), label="update", initial=0, fmt="{:d}",
                    kind="steps"),
        ]

        def set_state(eta, updates):
            if eta != self.eta or updates < self.trainer.n_updates:
                self.reset(eta)
            self.run_updates(updates - self.trainer.n_updates)

        return sweep_explorer(self, set_state, controls, title="perceptron updates",
                              restore=lambda: (self.reset(start_eta), self.run_updates(start_n)))

    def widget(self) -> ipywidgets.VBox:
        """The live explorer: *Next update*, *Reset* and a learning-rate slider.

        The slider steps through 0.01, 0.02, 0.05, ..., 10 and the explorer's own rate
        (``rate_slider``), so that it starts exactly at the lecture's value.
        """
        import ipywidgets as widgets

        eta = rate_slider(self.eta, 0.01, 10.0, "eta")
        step = widgets.Button(description="Next update", button_style="primary")
        reset = widgets.Button(description="Reset")

        out, redraw = live_figure(self.figure)

        step.on_click(lambda _: (self.next_update(), redraw()))
        reset.on_click(lambda _: (self.reset(eta.value), redraw()))
        eta.observe(lambda change: (self.set(eta=change["new"]), redraw()), names="value")
        redraw()
        return live_box([widgets.HBox([step, reset, eta]), out], "PerceptronExplorer")
