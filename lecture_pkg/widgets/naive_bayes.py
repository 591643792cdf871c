"""Explorer of the m-estimate: how smoothing moves a naive Bayes posterior as m grows.

The logic lives in :class:`MEstimateExplorer`, testable without a browser; ``.widget()``
only wires sliders to it and redraws.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import matplotlib.pyplot as plt
import numpy as np

from .. import datasets
from ..probabilistic import CategoricalNaiveBayes
from ..validation import POSITIVE, check_scalar
from ._live import live_box, live_figure
from ._static import StaticExplorer, control, grid_with, sweep_explorer

if TYPE_CHECKING:
    import ipywidgets
    from matplotlib.figure import Figure

__all__ = ["MEstimateExplorer"]

#: The figure fits the book's text column (6.8 in): the curve beside the factors.
FIGSIZE = (6.8, 4.0)


class MEstimateExplorer:
    """Naive Bayes on a small categorical training set, smoothed with the m-estimate.

    Each conditional is estimated as ``(n_ijk + m p) / (n_k + m)``.  For ``m -> 0`` the
    estimates become raw frequencies (and the posterior of a query with an unseen value
    becomes 0/0); for ``m -> infinity`` they all tend to ``p`` and the posterior tends to
    the class prior.

    Parameters
    ----------
    X, y : array (P, n_features) and array (P,), optional
        Training data (categorical), by default the slides' four rows.
    query : sequence of str
        The feature values to classify (default ``(medium, red, circle)``).
    categories : sequence of sequences of str, optional
        The values of each feature (default: the slides' three values per feature).
    m : float > 0, default 2.0
        The equivalent sample size.
    p : float in (0, 1] or None, default 1/3
        The prior probability of each value (``None``: ``1 / |V_i|``).
    positive : str, default "positive"
        The class whose posterior is shown.
    m_range : (float, float), default (1e-2, 1e3)
        ``(low, high)``, the range of ``m`` on the curve (log scale).
    """

    def __init__(self, X: np.ndarray | None = None, y: np.ndarray | None = None,
                 query: Sequence[str] = ("medium", "red", "circle"),
                 categories: Sequence[Sequence[str]] | None = None, m: float = 2.0,
                 p: float | None = 1 / 3, positive: str = "positive",
                 m_range: tuple[float, float] = (1e-2, 1e3)) -> None:
        if X is None:
            X, y = datasets.naive_bayes_training_set()
            if categories is None:
                categories = datasets.naive_bayes_tables().categories
        self.X, self.y = np.asarray(X), np.asarray(y)
        self.query = np.asarray([query])
        self.categories = "auto" if categories is None else [list(c) for c in categories]
        self.positive = positive
        if positive not in set(self.y.tolist()):
            raise ValueError(f"the class {positive!r} does not occur in y")
        if not 0 < m_range[0] < m_range[1]:
            raise ValueError(f"m_range must be (low, high) with 0 < low < high, got {m_range}")
        self.m_grid = np.geomspace(*m_range, 121)
        self.set(m=m, p=p)

    def _model(self, m: float) -> CategoricalNaiveBayes:
        return CategoricalNaiveBayes(m=m, p=self.p, categories=self.categories).fit(self.X, self.y)

    def posterior(self, m: float) -> float:
        """``P(positive | query)`` of the naive Bayes model smoothed with this ``m``."""
        model = self._model(m)
        return float(model.predict_proba(self.query)[0, list(model.classes_).index(self.positive)])

    def set(self, *, m: float | None = None, p: float | None | str = "keep") -> None:
        """Change ``m`` and/or ``p`` and recompute the model, the curve and the tables."""
        if m is not None:
            check_scalar(m, "m", POSITIVE)            # m = 0 leaves the posterior 0/0
            self.m = float(m)
        if not (isinstance(p, str) and p == "keep"):
            if p is not None and not 0 < p <= 1:
                raise ValueError(f"p must lie in (0, 1] or be None, got {p}")
            self.p = p
            self.curve = np.array([self.posterior(mm) for mm in self.m_grid])
        self.model = self._model(self.m)
        self.current = self.posterior(self.m)
        prior = np.exp(self.model.class_log_prior_)
        self.prior_positive = float(prior[list(self.model.classes_).index(self.positive)])

    def query_factors(self) -> np.ndarray:
        """The smoothed ``P(x_i | y)`` of the query's values, shape (n_classes, n_features)."""
        codes = [list(c).index(v) for c, v in zip(self.model.categories_, self.query[0])]
        return np.array([[t[k, j] for t, j in zip(self.model.feature_tables(), codes)]
                         for k in range(len(self.model.classes_))])

    def status(self) -> str:
        """One line with ``m``, ``p`` and the posterior of the positive class for the query."""
        return (f"m = {self.m:.3g}, p = {'1/|V|' if self.p is None else f'{self.p:.3g}'}: "
                f"P({self.positive} | {', '.join(map(str, self.query[0]))}) = {self.current:.4f}")

    def draw(self, fig: Figure | None = None) -> Figure:
        """Left: the posterior against m.  Right: the smoothed factors of the query.

        The numbers are in ``status()`` (the page prints it under the controls)."""
        fig = fig if fig is not None else plt.figure(figsize=FIGSIZE)
        ax1, ax2 = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1.3, 1]})
        ax1.semilogx(self.m_grid, self.curve, color="C0", label="smoothed posterior")
        ax1.axhline(self.prior_positive, color="gray", ls=":", label=f"prior P({self.positive})")
        ax1.plot([self.m], [self.current], "o", color="C3", label=f"m = {self.m:.3g}")
        ax1.set_xlabel("equivalent sample size m")
        ax1.set_ylabel(f"P({self.positive} | query)")
        ax1.set_ylim(0, 1)
        ax1.set_title(f"posterior {self.current:.3f} at m = {self.m:.3g}")
        factors = self.query_factors()
        width = 0.8 / len(self.model.classes_)
        pos = np.arange(factors.shape[1])
        for k, label in enumerate(self.model.classes_):
            ax2.bar(pos + (k - (len(self.model.classes_) - 1) / 2) * width, factors[k], width,
                    label=str(label), color=f"C{k}")
        ax2.set_xticks(pos, [str(v) for v in self.query[0]])
        ax2.set_xlabel("value $v$ of the query")
        ax2.set_ylabel("smoothed $P(v \\mid y)$")
        ax2.set_ylim(0, 1)
        ax2.set_title("factors of the query")
        ax1.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=1)
        ax2.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, title="class $y$")
        fig.tight_layout()
        return fig

    def figure(self) -> Figure:
        """A new figure of the current state (the live and the static explorer draw this)."""
        return self.draw(plt.figure(figsize=FIGSIZE))

    def static(self, m: Sequence[float] | None = None,
               p: Sequence[float] | None = None) -> StaticExplorer:
        """The explorer for the HTML book: ``m`` on a logarithmic grid (with a play
        button) and, if ``p`` is given, a choice of prior probabilities ``p``."""
        start_m, start_p = self.m, self.p
        if m is None:
            m = np.geomspace(self.m_grid[0], self.m_grid[-1], 11)
        controls = [control("m", grid_with(m, self.m), label="m", initial=self.m, fmt="{:.3g}",
                            play=True)]
        if p is not None:
            def p_text(v):
                return "1/|V|" if v is None else f"{v:.3g}"

            controls.insert(0, control("p", list(p), label="p", initial=self.p, fmt=p_text,
                                       kind="choice"))

        def set_state(m, p="keep"):
            if not (isinstance(p, str) and p == "keep") and p != self.p:
                self.set(m=m, p=p)
            else:
                self.set(m=m)

        return sweep_explorer(self, set_state, controls, title="m-estimate",
                              restore=lambda: self.set(m=start_m, p=start_p))

    def widget(self) -> ipywidgets.VBox:
        """The live explorer: sliders for ``m`` (log scale) and ``p``."""
        import ipywidgets as widgets

        m = widgets.FloatLogSlider(value=self.m, base=10, min=np.log10(self.m_grid[0]),
                                   max=np.log10(self.m_grid[-1]), step=0.05, description="m",
                                   continuous_update=False)
        p = widgets.FloatSlider(value=1 / 3 if self.p is None else self.p, min=0.05, max=1.0,
                                step=0.01, description="p", continuous_update=False)

        out, redraw = live_figure(self.figure)
        m.observe(lambda change: (self.set(m=change["new"]), redraw()), names="value")
        p.observe(lambda change: (self.set(p=change["new"]), redraw()), names="value")
        redraw()
        return live_box([widgets.HBox([m, p]), out], "MEstimateExplorer")
