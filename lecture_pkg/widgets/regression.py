"""Explorer of ridge / Bayesian linear regression on Hubble-like data.

The logic lives in :class:`RegressionExplorer`, testable without a browser; ``.widget()``
only wires sliders to it and redraws.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import matplotlib.pyplot as plt
import numpy as np

from .. import datasets
from ..learning import regression as reg
from ..validation import POSITIVE, check_scalar
from ._live import axes_figure, live_box, live_figure
from ._static import StaticExplorer, control, grid_with, sweep_explorer

if TYPE_CHECKING:
    import ipywidgets
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["RegressionExplorer"]


class RegressionExplorer:
    """Fit ``v = H d`` to the first ``n_points`` of a synthetic Hubble diagram.

    Shows the least-squares line (eq. 2.8), the MAP / ridge line for a Gaussian prior of
    width ``tau`` on ``H`` (eq. 2.16, ``lambda = sigma^2 / tau^2``) and the band of plus or minus
    two standard deviations of the posterior predictive distribution (eq. 2.17).

    Parameters
    ----------
    n_points : int
        How many of the galaxies are used (at most ``n_max``).
    tau : float
        Prior width of the Hubble constant (km/s/Mpc).
    sigma : float
        Noise level of the velocities (km/s), known to the model.
    random_state : int
        Seed of the synthetic data.
    n_max : int
    """

    def __init__(self, n_points: int = 6, tau: float = 100.0, sigma: float = 150.0,
                 random_state: int = 0, n_max: int = 40) -> None:
        self.n_max = int(n_max)
        self.sigma = float(sigma)
        self.d_all, self.v_all = datasets.synthetic_hubble(
            self.n_max, random_state=np.random.default_rng(random_state), sigma=self.sigma)
        self.set(n_points=n_points, tau=tau)

    def set(self, *, n_points: int | None = None, tau: float | None = None) -> None:
        """Change the number of points or the prior width and refit."""
        if n_points is not None:
            if not 1 <= n_points <= self.n_max:
                raise ValueError(f"n_points must lie between 1 and {self.n_max}, got {n_points}")
            self.n_points = int(n_points)
        if tau is not None:
            check_scalar(tau, "tau", POSITIVE)
            self.tau = float(tau)
        d, v = self.data
        self.lam = self.sigma ** 2 / self.tau ** 2
        self.slope_ls = float(reg.least_squares(d, v)[0])
        self.slope_map = float(reg.map_estimate(d, v, self.sigma, self.tau)[0])
        self.mean, self.cov = reg.bayes_posterior(d, v, self.sigma, self.tau)

    @property
    def data(self) -> tuple[np.ndarray, np.ndarray]:
        """The distances and velocities of the galaxies in use (the first ``n_points``)."""
        return self.d_all[: self.n_points], self.v_all[: self.n_points]

    def band(self, d_grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Posterior predictive mean and standard deviation on a grid of distances."""
        mean, var = reg.posterior_predictive(np.asarray(d_grid, dtype=float)[:, None],
                                             self.mean, self.cov, self.sigma)
        return mean, np.sqrt(var)

    def status(self) -> str:
        """One line with the least-squares and the MAP estimates of ``H_0``."""
        return (f"{self._galaxies()}, tau_0 = {self.tau:.3g} (lambda = {self.lam:.3g}): "
                f"least squares H_0 = {self.slope_ls:.0f}, MAP H_0 = {self.slope_map:.0f} "
                f"+- {np.sqrt(self.cov[0, 0]):.0f} km/s/Mpc")

    def _galaxies(self) -> str:
        return "1 galaxy" if self.n_points == 1 else f"{self.n_points} galaxies"

    def draw(self, ax: Axes | None = None) -> Axes:
        """Draw the data, the MAP line with its predictive band and the least-squares line.

        Parameters
        ----------
        ax : matplotlib Axes, optional
            Where to draw; the current axes by default.

        Returns
        -------
        matplotlib Axes
        """
        ax = ax if ax is not None else plt.gca()
        grid = np.linspace(0, 2.1, 200)
        mean, std = self.band(grid)
        ax.fill_between(grid, mean - 2 * std, mean + 2 * std, color="C0", alpha=0.18,
                        label="predictive mean $\\pm$ 2 sd")
        ax.plot(grid, mean, color="C0", label="MAP line")
        ax.plot(grid, self.slope_ls * grid, "--", color="C1",
                label=f"least squares, $H_0$ = {self.slope_ls:.0f}")
        ax.plot(self.d_all[self.n_points:, 0], self.v_all[self.n_points:], "o", color="lightgray",
                ms=4,
                label="unused galaxies")
        d, v = self.data
        ax.plot(d[:, 0], v, "o", color="k", ms=5, label="used galaxies")
        ax.set_xlim(0, 2.1)
        ax.set_ylim(-600, 1600)
        ax.set_xlabel("distance d (Mpc)")
        ax.set_ylabel("velocity v (km/s)")
        # below the axes, so that the picture is narrow enough for a phone's column
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncols=2, fontsize=9)
        ax.set_title(f"{self._galaxies()}, prior width $\\tau_0$ = {self.tau:g}: "
                     f"MAP $H_0$ = {self.slope_map:.0f} $\\pm$ {np.sqrt(self.cov[0, 0]):.0f}",
                     fontsize=10)
        return ax

    def figure(self) -> Figure:
        """A new figure of the current state (the live and the static explorer draw this)."""
        return axes_figure(self.draw, (5.0, 4.4))()

    def static(self, n_points: Sequence[int] = (1, 2, 4, 6, 10, 20, 40),
               tau: Sequence[float] = (10.0, 100.0, 1000.0, 10000.0)) -> StaticExplorer:
        """The explorer for the HTML book: a grid of the number of galaxies (with a play
        button) and the prior width ``tau``."""
        start = dict(n_points=self.n_points, tau=self.tau)
        n_points = [n for n in n_points if n <= self.n_max]
        controls = [
            control("n_points", grid_with(n_points, self.n_points), label="galaxies",
                    initial=self.n_points, fmt="{:d}", play=True),
            control("tau", grid_with(tau, self.tau), label="prior tau_0", initial=self.tau,
                    fmt="{:g}"),
        ]

        return sweep_explorer(self, self.set, controls, title="regression prior",
                              restore=lambda: self.set(**start),
                              colors=32)

    def widget(self) -> ipywidgets.VBox:
        """The live explorer: sliders for the number of galaxies and the prior width."""
        import ipywidgets as widgets

        n = widgets.IntSlider(value=self.n_points, min=1, max=self.n_max, description="galaxies",
                              continuous_update=False)
        tau = widgets.FloatLogSlider(value=self.tau, base=10, min=0.5, max=4, step=0.1,
                                     description="prior tau_0", continuous_update=False)

        out, redraw = live_figure(self.figure)

        def on_change(_):
            self.set(n_points=n.value, tau=tau.value)
            redraw()

        n.observe(on_change, names="value")
        tau.observe(on_change, names="value")
        redraw()
        return live_box([widgets.HBox([n, tau]), out], "RegressionExplorer")
