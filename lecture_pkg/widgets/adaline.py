"""Explorer of Adaline's loss trajectory as the learning rate crosses the stability limit.

The logic lives in :class:`AdalineExplorer`, which can be tested without a browser;
``.widget()`` only wires sliders to it and redraws the figure.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING

import matplotlib.pyplot as plt
import numpy as np

from ..linear import Adaline, augment, gd_stability_limit, lms_stability_limit
from ..plotting import plot_hyperplane, plot_labelled_points
from ..validation import COUNT, POSITIVE, check_scalar
from ._live import RemembersStaticPicture, axes_figure, live_box, live_figure
from ._static import StaticExplorer, control, grid_with, sweep_explorer

if TYPE_CHECKING:
    import ipywidgets
    from matplotlib.figure import Figure

__all__ = ["AdalineExplorer"]

#: The figure fits the book's text column (6.8 in): loss and data side by side.
FIGSIZE = (5.0, 7.6)   # two panels stacked: a phone shows them whole


class AdalineExplorer(RemembersStaticPicture):
    """Train Adaline with ``eta = ratio * limit`` and show its loss per epoch and its line.

    ``limit`` is the upper end of the convergent window: ``2 / lambda_max`` of the
    augmented Gram matrix for batch gradient descent, ``2 / max |x|^2`` for the
    sequential (LMS) rule.  ``ratio < 1`` converges, ``ratio > 1`` diverges.

    Parameters
    ----------
    X : array (P, 2)
        Two-dimensional inputs (standardised features work best).
    y : array (P,) of +-1
    ratio : float
        The learning rate as a multiple of the limit.
    epochs : int
    solver : {"batch", "sequential"}
    """

    SOLVERS = ("batch", "sequential")

    def __init__(self, X: np.ndarray, y: np.ndarray, *, ratio: float = 0.5, epochs: int = 40,
                 solver: str = "batch") -> None:
        self.X = np.asarray(X, dtype=float)
        if self.X.ndim != 2 or self.X.shape[1] != 2:
            raise ValueError(f"the explorer shows 2-d inputs; X has shape {self.X.shape}")
        self.y = np.asarray(y)
        Xa = augment(self.X)
        self.limits = {"batch": gd_stability_limit(Xa), "sequential": lms_stability_limit(Xa)}
        w_ls = np.linalg.lstsq(Xa, self.y.astype(float), rcond=None)[0]
        self.least_squares_loss = float(0.5 * np.sum((self.y - Xa @ w_ls) ** 2))
        self.set(ratio=ratio, epochs=epochs, solver=solver)

    @property
    def limit(self) -> float:
        """The upper end of the convergent window of learning rates for the current solver."""
        return self.limits[self.solver]

    @property
    def eta(self) -> float:
        """The learning rate in use: ``ratio`` times :attr:`limit`."""
        return self.ratio * self.limit

    def set(self, *, ratio: float | None = None, epochs: int | None = None,
            solver: str | None = None) -> None:
        """Change the settings and retrain."""
        if ratio is not None:
            check_scalar(ratio, "ratio", POSITIVE)
            self.ratio = float(ratio)
        if epochs is not None:
            check_scalar(epochs, "epochs", COUNT)
            self.epochs = int(epochs)
        if solver is not None:
            if solver not in self.SOLVERS:
                raise ValueError(f"solver must be one of {self.SOLVERS}, got {solver!r}")
            self.solver = solver
        self.run()

    def run(self) -> Adaline:
        """Train from zero weights for ``epochs`` epochs; warnings are kept in ``self.warnings``."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            self.model = Adaline(eta=self.eta, solver=self.solver, max_epochs=self.epochs,
                                 tol=None).fit(self.X, self.y)
        self.warnings = [w.category.__name__ for w in caught]
        return self.model

    @property
    def loss(self) -> np.ndarray:
        """The Adaline cost after every epoch of the current run (the model's ``loss_``)."""
        return np.asarray(self.model.loss_)

    def _trend(self) -> str:
        """``diverged``, ``converging``, ``growing``, or ``flat, above the start`` (a run that
        settled, e.g. into a cycle of sequential steps, at a cost above its first one)."""
        loss = self.loss
        if self.model.diverged_:
            return "diverged"
        if loss[-1] <= loss[0]:
            return "converging"
        if len(loss) > 1 and abs(loss[-1] - loss[-2]) <= 1e-9 * loss[-1]:
            return "flat, above the start"
        return "growing"

    def status(self) -> str:
        """One line describing the run."""
        head = (f"{self.solver}: eta = {self.eta:.4g} = {self.ratio:.2f} x limit {self.limit:.4g}")
        trend = self._trend()
        if trend == "diverged":
            return head + f" -- diverged after {self.model.n_epochs_} epochs"
        word = {"converging": "loss", "growing": "loss growing"}.get(trend, f"loss {trend}:")
        return (head + f" -- {word} {self.loss[-1]:.4g} after {self.model.n_epochs_} epochs "
                f"(least squares {self.least_squares_loss:.4g})")

    def draw(self, axes: np.ndarray | None = None) -> np.ndarray:
        """Upper panel: loss per epoch (log scale) with the least-squares minimum. Lower:
        data and line."""
        if axes is None:
            _, axes = plt.subplots(2, 1, figsize=FIGSIZE)
        ax_loss, ax_data = axes
        loss = self.loss
        ax_loss.semilogy(np.arange(len(loss)), loss, marker=".", color="#1f5fa8")
        ax_loss.axhline(self.least_squares_loss, color="k", ls="--", lw=1, label="least squares")
        ax_loss.set_xlabel("epoch")
        ax_loss.set_ylabel(r"loss $\mathcal{E}_{\mathrm{SSE}}(\mathbf{w})$")
        ax_loss.legend(loc="best")
        ax_loss.set_title(rf"$\eta$ = {self.ratio:.2f} $\times$ limit: {self._trend()}")
        plot_labelled_points(self.X, self.y, ax_data, size=20)
        lo, hi = self.X.min(axis=0) - 0.5, self.X.max(axis=0) + 0.5
        ax_data.set_aspect("equal")     # one unit as long on both axes: the normal is normal
        if not self.model.diverged_:
            plot_hyperplane(self.model.coef_, self.model.intercept_, ax_data,
                            xlim=(lo[0], hi[0]), ylim=(lo[1], hi[1]))
        ax_data.set_xlim(lo[0], hi[0])
        ax_data.set_ylim(lo[1], hi[1])
        ax_data.set_xlabel("$x_1$")
        ax_data.set_ylabel("$x_2$")
        corners = np.array([[lo[0], lo[1]], [lo[0], hi[1]], [hi[0], lo[1]], [hi[0], hi[1]]])
        crosses = (not self.model.diverged_
                   and np.ptp(np.sign(corners @ self.model.coef_ + self.model.intercept_)) > 0)
        ax_data.set_title("line after the last epoch" if crosses else
                          "line after the last epoch:\noutside the plot")
        return axes

    def figure(self) -> Figure:
        """A new figure of the current state (the live and the static explorer draw this)."""
        return axes_figure(self.draw, FIGSIZE, nrows=2)()

    def static(self, ratio: Sequence[float] = (0.1, 0.5, 0.9, 0.95, 0.99, 1.01, 1.05, 1.1, 1.5),
               solver: Sequence[str] = SOLVERS) -> StaticExplorer:
        """The explorer for the HTML book: the rate as a multiple of the stability limit
        (slider with play) and, if more than one is given, the solver."""
        start = dict(ratio=self.ratio, solver=self.solver)
        controls = [control("ratio", grid_with(ratio, self.ratio), label="eta / limit",
                            initial=self.ratio, fmt="{:.2f}", play=True)]
        solvers = list(solver)
        if len(solvers) > 1:
            controls.insert(0, control("solver", solvers, label="solver", initial=self.solver,
                                       fmt="{}", kind="choice"))

        explorer = sweep_explorer(self, self.set, controls, title="Adaline learning rate",
                                  restore=lambda: self.set(**start))
        # the start state's picture, as the live widget draws it (same figure, resolution and
        # colours): the widget shows it without drawing it again
        self._remember_picture(explorer.frame(**{c.key: start[c.key] for c in controls}))
        return explorer

    def _state(self) -> tuple:
        """What the picture depends on (the data are fixed)."""
        return self.ratio, self.epochs, self.solver

    def widget(self) -> ipywidgets.VBox:
        """The live explorer: sliders for the rate (as a multiple of the limit) and the epochs."""
        import ipywidgets as widgets

        ratio = widgets.FloatSlider(value=self.ratio, min=0.05, max=1.5, step=0.01,
                                    description="eta / limit", continuous_update=False)
        epochs = widgets.IntSlider(value=self.epochs, min=1, max=200, description="epochs",
                                   continuous_update=False)
        solver = widgets.Dropdown(options=list(self.SOLVERS), value=self.solver,
                                  description="solver")

        out, redraw = live_figure(self.figure)

        def changed(_):
            self.set(ratio=ratio.value, epochs=epochs.value, solver=solver.value)
            redraw()

        for ctrl in (ratio, epochs, solver):
            ctrl.observe(changed, names="value")
        redraw(self._drawn_picture())
        return live_box([widgets.HBox([ratio, epochs, solver]), out], "AdalineExplorer")
