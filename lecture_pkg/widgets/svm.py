"""Explorer of a soft-margin RBF support vector machine (kernel AdaTron) on a 2-d set.

The logic is the plain class :class:`SVMExplorer`; ``.widget()`` wires two logarithmic
sliders (the RBF width ``sigma`` and the price of slack ``C``, the book's names, as in
:class:`~lecture_pkg.widgets.LPMExplorer`) and a data-set choice to it.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING

import matplotlib.pyplot as plt
import numpy as np

from ..datasets import circles, moons
from ..kernel_machines import KernelAdaTron, gamma_from_sigma
from ..plotting import plot_labelled_points, plot_regions
from ..validation import POSITIVE, POSITIVE_OR_INF, check_scalar
from ._live import axes_figure, live_box, live_figure
from ._static import StaticExplorer, control, grid_with, sweep_explorer

if TYPE_CHECKING:
    import ipywidgets
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["SVMExplorer"]


def _data(name: str) -> tuple[np.ndarray, np.ndarray]:
    """The explorer's data sets: 120 moons or 120 circles (:mod:`lecture_pkg.datasets`)."""
    if name == "moons":
        return moons(120, noise=0.2)
    if name == "circles":
        return circles(120, noise=0.1)
    raise ValueError(f"data set must be 'moons' or 'circles', got {name!r}")


class SVMExplorer:
    """Fit a soft-margin RBF SVM for a given width ``sigma`` and price ``C`` and draw it.

    Parameters
    ----------
    X, y : array (P, 2) and array (P,) of +-1, optional
        2-d inputs and +-1 labels (default: 120 noisy moons).
    sigma : float, default 0.7
        The RBF width, in the ``convention`` given: the book's ``sigma`` of
        ``exp(-|a - b|^2 / (2 sigma^2))`` by default, so that the machine's ``gamma`` is
        ``1 / (2 sigma^2)`` (:func:`~lecture_pkg.kernel_machines.gamma_from_sigma`).
    C : float, default 1.0
        The price of slack, the upper bound of the embeddings; ``np.inf`` for the hard margin.
    convention : {"biehl", "friess"}, default "biehl"
        ``"biehl"`` (default) or ``"friess"`` (``exp(-|a - b|^2 / sigma^2)``), as
        for :func:`~lecture_pkg.kernel_machines.gamma_from_sigma`.
    resolution : int, default 120
        Grid points per axis of the picture.
    """

    def __init__(self, X: np.ndarray | None = None, y: np.ndarray | None = None, *,
                 sigma: float = 0.7, C: float = 1.0, convention: str = "biehl",
                 resolution: int = 120) -> None:
        if X is None:
            X, y = _data("moons")
        self.X = np.asarray(X, dtype=float)
        if self.X.ndim != 2 or self.X.shape[1] != 2:
            raise ValueError(f"the explorer shows 2-d inputs; X has shape {self.X.shape}")
        self.y = np.asarray(y)
        if not np.all(np.isin(self.y, (-1, 1))):
            raise ValueError("labels must be +1 or -1")
        self.resolution = int(resolution)
        gamma_from_sigma(1.0, convention)                 # refuses an unknown convention
        self.convention = convention
        self.sigma, self.C = float(check_scalar(sigma, "sigma", POSITIVE)), float(C)
        self.fit()

    @property
    def gamma(self) -> float:
        """The machine's ``gamma`` of ``exp(-gamma |a - b|^2)`` for the width ``sigma``."""
        return gamma_from_sigma(self.sigma, self.convention)

    def set(self, *, sigma: float | None = None, C: float | None = None,
            X: np.ndarray | None = None, y: np.ndarray | None = None) -> None:
        """Change the settings (or the data) and refit."""
        if sigma is not None:
            check_scalar(sigma, "sigma", POSITIVE)
            self.sigma = float(sigma)
        if C is not None:
            check_scalar(C, "C", POSITIVE_OR_INF)
            self.C = float(C)
        if X is not None:
            self.X, self.y = np.asarray(X, dtype=float), np.asarray(y)
        self.fit()

    def fit(self) -> KernelAdaTron:
        """Train the kernel AdaTron; warnings (e.g. no convergence) are kept in
        ``self.warnings``."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            self.model = KernelAdaTron(C=self.C, gamma=self.gamma, max_epochs=3000).fit(self.X,
                                                                                        self.y)
        self.warnings = [w.category.__name__ for w in caught]
        return self.model

    @property
    def support_fraction(self) -> float:
        """``n_s / P``, the fraction of support vectors (Biehl's overfitting signal)."""
        return self.model.n_support_ / len(self.y)

    @property
    def training_error(self) -> float:
        """The fraction of training examples the machine misclassifies."""
        return float(np.mean(self.model.predict(self.X) != self.y))

    def status(self) -> str:
        """One line with the settings, the support vectors and the training error."""
        text = (f"sigma = {self.sigma:.3g}, C = {self.C:.3g}: "
                f"{self.model.n_support_} support vectors "
                f"({self.support_fraction:.0%}), training error {self.training_error:.1%}")
        return text + ("" if self.model.converged_ else " (not converged)")

    def draw(self, ax: Axes | None = None) -> Axes:
        """Regions, decision boundary (f = 0), margins (f = +-1) and the support vectors."""
        ax = ax if ax is not None else plt.gca()
        plot_regions(self.model.decision_function, self.X, ax, margins=True, pad=0.4,
                     resolution=self.resolution, alpha=0.15)
        plot_labelled_points(self.X, self.y, ax, size=22)
        for idx, colour, label in ((self.model.margin_support_, "#e69f00", "on the margin"),
                                   (self.model.bound_support_, "#7f7f7f", "at the bound C")):
            if len(idx):
                ax.scatter(*self.X[idx].T, s=110, facecolors="none", edgecolors=colour,
                           linewidths=1.5, label=label, zorder=2)
        ax.set_xlabel("$x_1$")
        ax.set_ylabel("$x_2$")
        # below the axes, so that the picture is narrow enough for a phone's column
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncols=2, fontsize=9)
        ax.set_title(f"{self.model.n_support_} support vectors "
                     f"({self.support_fraction:.0%}), training error "
                     f"{self.training_error:.1%}", fontsize=10)
        return ax

    def figure(self) -> Figure:
        """A new figure of the current state (the live and the static explorer draw this)."""
        return axes_figure(self.draw, (5.0, 4.3))()

    def static(self, sigma: Sequence[float] = (0.13, 0.2, 0.4, 0.7, 1.3, 2.2),
               C: Sequence[float] = (0.1, 1.0, 10.0, 100.0, 1000.0)) -> StaticExplorer:
        """The explorer for the HTML book: a grid of the RBF width ``sigma`` and of ``C``."""
        start = dict(sigma=self.sigma, C=self.C)
        controls = [
            control("sigma", grid_with(sigma, self.sigma), label="sigma", initial=self.sigma,
                    fmt="{:g}"),
            control("C", grid_with(C, self.C), label="C", initial=self.C, fmt="{:g}"),
        ]

        return sweep_explorer(self, self.set, controls, title="soft-margin SVM",
                              restore=lambda: self.set(**start),
                              colors=32)

    def widget(self) -> ipywidgets.VBox:
        """The live explorer: logarithmic sliders for sigma and C and a data-set choice."""
        import ipywidgets as widgets

        sigma = widgets.FloatLogSlider(value=self.sigma, base=10, min=-1.2, max=0.4, step=0.05,
                                       description="sigma", continuous_update=False)
        C = widgets.FloatLogSlider(value=self.C, base=10, min=-2, max=3, step=0.25,
                                   description="C", continuous_update=False)
        data = widgets.Dropdown(options=["moons", "circles"], value="moons", description="data")
        out, redraw = live_figure(self.figure)

        def changed(change):
            if change["owner"] is data:
                X, y = _data(data.value)
                self.set(sigma=sigma.value, C=C.value, X=X, y=y)
            else:
                self.set(sigma=sigma.value, C=C.value)
            redraw()

        for ctrl in (sigma, C, data):
            ctrl.observe(changed, names="value")
        redraw()
        return live_box([widgets.HBox([sigma, C, data]), out], "SVMExplorer")
