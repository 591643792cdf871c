"""Explorer: the linear programming machine beside the support vector machine.

The plain class :class:`LPMExplorer` fits an LPM (eq. 16,
:class:`lecture_pkg.kernel_machines.LPMachine`) and an SVM (the quadratic program,
scikit-learn's ``SVC``) with the same RBF kernel of width ``sigma`` (by default
``exp(-|a - b|^2 / sigma^2)``, Frieß and Harrison's eq. 6) and draws both decision
functions with their expansion vectors; ``.widget()`` wires sliders for ``sigma``, the
LPM's price ``zeta`` and the SVM's ``C`` and a data-set choice to it.  The names are the
book's, as in :class:`~lecture_pkg.widgets.SVMExplorer`: ``sigma`` the kernel width,
``zeta`` the LPM's price on ``||alpha||_1`` (``LPMachine``'s ``C``), ``C`` the SVM's
price of slack.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import matplotlib.pyplot as plt
import numpy as np
from sklearn.svm import SVC

from ..datasets import moons, two_spirals
from ..kernel_machines import LPMachine, gamma_from_sigma
from ..plotting import plot_labelled_points, plot_regions
from ..validation import NON_NEGATIVE, POSITIVE, check_scalar
from ._live import RemembersStaticPicture, axes_figure, live_box, live_figure
from ._static import StaticExplorer, control, grid_with, sweep_explorer

if TYPE_CHECKING:
    import ipywidgets
    from matplotlib.figure import Figure

    from ..kernel_machines import KernelAdaTron

__all__ = ["LPMExplorer"]

#: The two machines one above the other, 5 in wide, so that a phone shows both whole.
FIGSIZE = (5.0, 9.6)
#: Colours per picture, static and live: the shaded regions need no more.
COLORS = 32


def _data(name: str) -> tuple[np.ndarray, np.ndarray]:
    """The explorer's data sets: the two spirals (194 points) or 150 noisy moons."""
    if name == "spirals":
        return two_spirals()
    if name == "moons":
        return moons(150, noise=0.25)
    raise ValueError(f"data set must be 'spirals' or 'moons', got {name!r}")


class LPMExplorer(RemembersStaticPicture):
    """LPM and SVM with the same RBF width, side by side.

    Parameters
    ----------
    X, y : array (P, 2) and array (P,) of +-1, optional
        2-d inputs and +-1 labels (default: the two spirals).
    sigma : float, default 0.8
        The RBF width, in the ``convention`` given (``gamma_from_sigma(sigma,
        convention)`` is the machines' ``gamma``).
    zeta : float, default 0.0
        The LPM's price ``zeta`` on ``||alpha||_1`` (the paper's and ``LPMachine``'s
        ``C``; 0 is the paper's spiral setting).
    C : float, default 1000.0
        The SVM's price of slack, ``SVC``'s ``C`` (1000 in the paper's spiral figure).
    convention : {"friess", "biehl"}, default "friess"
        ``"friess"`` (default): ``sigma`` is the paper's ``sigma_F`` of its
        eq. (6), ``gamma = 1 / sigma_F^2``; ``"biehl"``: the book's ``sigma``,
        ``gamma = 1 / (2 sigma^2)`` (``sigma_F = sqrt(2) sigma``), as in
        :class:`~lecture_pkg.widgets.SVMExplorer`.
    resolution : int, default 100
        Grid points per axis of the pictures.
    """

    def __init__(self, X: np.ndarray | None = None, y: np.ndarray | None = None, *,
                 sigma: float = 0.8, zeta: float = 0.0, C: float = 1000.0,
                 convention: str = "friess", resolution: int = 100) -> None:
        if X is None:
            X, y = _data("spirals")
        self.resolution = int(resolution)
        gamma_from_sigma(1.0, convention)                 # refuses an unknown convention
        self.convention = convention
        self.sigma, self.zeta, self.C = float(sigma), float(zeta), float(C)
        self._fits: dict = {}       # the last few states' machines and summaries, by state
        self._set_data(X, y)
        self._check()
        self.fit()

    def _set_data(self, X, y):
        X = np.asarray(X, dtype=float)
        if X.ndim != 2 or X.shape[1] != 2:
            raise ValueError(f"the explorer shows 2-d inputs; X has shape {X.shape}")
        y = np.asarray(y, dtype=float)
        if y.shape != (len(X),) or not np.all(np.isin(y, (-1.0, 1.0))):
            raise ValueError("y must hold one label +1 or -1 per row of X")
        self.X, self.y = X, y
        self._fits.clear()                                # they belong to the old data

    def _check(self):
        check_scalar(self.sigma, "sigma", POSITIVE)
        check_scalar(self.zeta, "zeta", NON_NEGATIVE)
        check_scalar(self.C, "C", POSITIVE)

    def set(self, *, sigma: float | None = None, zeta: float | None = None,
            C: float | None = None, X: np.ndarray | None = None,
            y: np.ndarray | None = None) -> None:
        """Change the settings (or the data) and refit both machines."""
        old = (self.sigma, self.zeta, self.C)
        self.sigma = float(sigma) if sigma is not None else self.sigma
        self.zeta = float(zeta) if zeta is not None else self.zeta
        self.C = float(C) if C is not None else self.C
        try:
            self._check()
        except ValueError:
            self.sigma, self.zeta, self.C = old
            raise
        if X is not None:
            self._set_data(X, y)
        self.fit()

    #: How many states' fitted machines are kept: a sweep that returns to a state (the
    #: static explorer restoring its start) does not fit them again.
    _KEEP = 8

    def fit(self) -> tuple[LPMachine, KernelAdaTron]:
        """Fit the LPM and the SVM; returns them as a pair."""
        key = (self.sigma, self.zeta, self.C)
        if key in self._fits:
            self._fits[key] = self._fits.pop(key)         # the most recently used, last
        else:
            gamma = gamma_from_sigma(self.sigma, self.convention)
            lpm = LPMachine(C=self.zeta, gamma=gamma).fit(self.X, self.y)
            svm = SVC(C=self.C, gamma=gamma).fit(self.X, self.y)
            self._fits[key] = [lpm, svm, None]            # None: the summary, when asked for
            while len(self._fits) > self._KEEP:
                del self._fits[next(iter(self._fits))]
        self.lpm, self.svm = self._fits[key][:2]
        return self.lpm, self.svm

    def summary(self) -> dict:
        """Expansion vectors, training errors and ``sum alpha`` of both machines."""
        entry = self._fits.get((self.sigma, self.zeta, self.C))
        if entry is None or entry[0] is not self.lpm or entry[1] is not self.svm:
            entry = [self.lpm, self.svm, None]            # machines set from outside: no cache
        if entry[2] is None:
            out = {}
            for name, model, alpha in (("LPM", self.lpm, self.lpm.alpha_),
                                       ("SVM", self.svm, np.abs(self.svm.dual_coef_[0]))):
                out[name] = dict(n_expansion=int(len(model.support_)),
                                 train_errors=int(np.sum(model.predict(self.X) != self.y)),
                                 sum_alpha=float(alpha.sum()))
            entry[2] = out
        return {name: dict(info) for name, info in entry[2].items()}

    def draw(self, axes: np.ndarray | None = None) -> np.ndarray:
        """Two panels: regions, ``f = 0`` and ``f = +-1``, expansion vectors circled."""
        if axes is None:
            _, axes = plt.subplots(2, 1, figsize=FIGSIZE)
        info = self.summary()
        for ax, (name, model, price) in zip(axes, (("LPM", self.lpm, self.zeta),
                                                    ("SVM", self.svm, self.C))):
            plot_regions(model.decision_function, self.X, ax, margins=True,
                         resolution=self.resolution, alpha=0.15)
            plot_labelled_points(self.X, self.y, ax, size=14)
            sv = self.X[model.support_]
            ax.scatter(*sv.T, s=70, facecolors="none", edgecolors="#e69f00", linewidths=1.1,
                       label="expansion vectors", zorder=2)
            ax.set_aspect("equal")
            ax.set_xlabel("$x_1$")
            ax.set_ylabel("$x_2$")
            i = info[name]
            symbol = "\u03b6" if name == "LPM" else "C"   # the book's zeta: the LPM's price
            ax.set_title(f"{name}, {symbol} = {price:g}: {i['n_expansion']} expansion vectors,\n"
                         f"{i['train_errors']} training errors, "
                         f"\u2016\u03b1\u2016\u2081 = {i['sum_alpha']:.3g}", fontsize=10)
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3,
                      handletextpad=0.2, columnspacing=0.8, borderaxespad=0)
        return axes

    def figure(self) -> Figure:
        """A new figure of the current state (the live and the static explorer draw this)."""
        return axes_figure(self.draw, FIGSIZE, nrows=2)()

    def redraw(self, fig: Figure) -> None:
        """Draw the current state into a figure drawn by :meth:`figure`, keeping its layout.

        The panels are cleared and drawn again; their frames, ticks and legends do not
        depend on the state, so the picture is the one :meth:`figure` gives, without
        building the figure and its layout again."""
        for ax in fig.axes:
            ax.cla()
        self.draw(fig.axes)

    @property
    def _sigma_label(self) -> str:
        """The width's name on the controls: the paper's ``sigma_F`` or the book's ``sigma``."""
        return "sigma_F" if self.convention == "friess" else "sigma"

    def static(self, sigma: Sequence[float] = (0.4, 0.8, 1.6),
               zeta: Sequence[float] = (0.0, 0.05, 0.2)) -> StaticExplorer:
        """The explorer for the HTML book: a grid of the RBF width ``sigma`` and of the
        LPM's price ``zeta`` (the SVM's ``C`` fixed)."""
        start = dict(sigma=self.sigma, zeta=self.zeta)
        controls = [
            control("sigma", grid_with(sigma, self.sigma), label=self._sigma_label,
                    initial=self.sigma, fmt="{:g}"),
            control("zeta", grid_with(zeta, self.zeta), label="zeta (LPM)",
                    initial=self.zeta, fmt="{:g}", kind="choice"),
        ]

        def describe():
            info = self.summary()
            return (f"{self._sigma_label} = {self.sigma:g}, LPM zeta = {self.zeta:g}: "
                    f"{info['LPM']['n_expansion']} expansion vectors, "
                    f"{info['LPM']['train_errors']} training errors; SVM C = {self.C:g}: "
                    f"{info['SVM']['n_expansion']} support vectors, "
                    f"{info['SVM']['train_errors']} training errors")

        explorer = sweep_explorer(self, self.set, controls, title="LPM beside the SVM",
                                  restore=lambda: self.set(**start), describe=describe,
                                  colors=COLORS, redraw=self.redraw)
        # the start state's picture, as the live widget draws it (same figure, resolution and
        # colours): the widget shows it without drawing it again
        self._remember_picture(explorer.frame(**start))
        return explorer

    def _state(self) -> tuple:
        """What the picture depends on: the fitted machines (new ones for new data; an
        estimator equals only itself), the settings and the grid."""
        return self.lpm, self.svm, self.sigma, self.zeta, self.C, self.resolution

    def widget(self) -> ipywidgets.VBox:
        """The live explorer: sliders for sigma, the LPM's zeta and the SVM's C; a data choice."""
        import ipywidgets as widgets

        sigma = widgets.FloatSlider(value=self.sigma, min=0.2, max=3.0, step=0.1,
                                    description=self._sigma_label, continuous_update=False)
        zeta = widgets.FloatSlider(value=self.zeta, min=0.0, max=0.5, step=0.01,
                                   description="zeta (LPM)", continuous_update=False)
        C = widgets.FloatLogSlider(value=self.C, base=10, min=-1, max=4, step=0.25,
                                   description="C (SVM)", continuous_update=False)
        data = widgets.Dropdown(options=["spirals", "moons"], value="spirals", description="data")

        out, redraw = live_figure(self.figure, colors=COLORS)

        def changed(change):
            if change["owner"] is data:
                X, y = _data(data.value)
                self.set(sigma=sigma.value, zeta=zeta.value, C=C.value, X=X, y=y)
            else:
                self.set(sigma=sigma.value, zeta=zeta.value, C=C.value)
            redraw()

        for ctrl in (sigma, zeta, C, data):
            ctrl.observe(changed, names="value")
        redraw(self._drawn_picture())
        return live_box([widgets.HBox([sigma, zeta]), widgets.HBox([C, data]), out],
                        "LPMExplorer")
