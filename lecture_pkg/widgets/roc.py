"""Explorer of the ROC: move the decision threshold, watch the working point and the counts.

The logic lives in :class:`ROCExplorer` (testable without a browser); ``.widget()`` only
wires a threshold slider and a reset button to it and redraws the figure.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import matplotlib.pyplot as plt
import numpy as np

from ..evaluation import auc_trapezoid, confusion_counts, rates, roc_curve, threshold_predict
from ..plotting import NEGATIVE_COLOR, POSITIVE_COLOR
from ._live import live_box, live_figure
from ._static import StaticExplorer, control, grid_with, sweep_explorer

if TYPE_CHECKING:
    import ipywidgets
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["ROCExplorer"]

#: Two rows, the scores on top; 5 in wide, so that a phone shows it whole.
FIGSIZE = (5.0, 5.4)


def _layout(fig):
    """Three Axes: the scores across the top row, the ROC and the matrix below."""
    grid = fig.add_gridspec(2, 2, height_ratios=[1, 1.45], width_ratios=[1, 1])
    return [fig.add_subplot(grid[0, :]), fig.add_subplot(grid[1, 0]),
            fig.add_subplot(grid[1, 1])]


class ROCExplorer:
    """A two-class working point ``S_theta = sign[f(x) - theta]`` and its ROC.

    Biehl eq. (6.9), where the score is ``g`` and the threshold ``Theta``.

    Parameters
    ----------
    y_true : array (P,)
        Labels; ``pos_label`` marks the class to be detected.
    scores : array (P,)
        Scores ``f(x)``, larger meaning "more positive".
    threshold : float, default 0.0
        The initial ``theta`` (0: the unmodified classifier).
    pos_label : default 1
    names : (str, str)
        Names of the negative and the positive class for the figure.
    """

    def __init__(self, y_true: np.ndarray, scores: np.ndarray, *, threshold: float = 0.0,
                 pos_label: int | str = 1,
                 names: tuple[str, str] = ("negative", "positive")) -> None:
        self.y_true = np.asarray(y_true)
        self.pos_label = pos_label
        self.fpr, self.tpr, self.thresholds = roc_curve(self.y_true, scores, pos_label=pos_label)
        self.scores = np.asarray(scores, dtype=float)
        self.auc = auc_trapezoid(self.fpr, self.tpr)
        self.names = tuple(names)
        self.initial_threshold = float(threshold)
        span = float(np.ptp(self.scores)) or 1.0
        self.theta_range = (float(self.scores.min() - 0.05 * span),
                            float(self.scores.max() + 0.05 * span))
        self.set(theta=threshold)

    def set(self, *, theta: float) -> tuple[float, float]:
        """Move ``theta``; returns the new working point ``(fpr, tpr)``."""
        theta = float(theta)
        if np.isnan(theta):
            raise ValueError("the threshold theta is NaN")
        self.theta = theta
        pred = np.where(threshold_predict(self.scores, theta) == 1, self.pos_label, _other(self))
        self.counts = confusion_counts(self.y_true, pred, pos_label=self.pos_label)
        self.rates = rates(self.counts)
        return self.operating_point

    def reset(self) -> None:
        """Back to the initial threshold."""
        self.set(theta=self.initial_threshold)

    @property
    def operating_point(self) -> tuple[float, float]:
        """The working point ``(FPR, TPR)`` at the current threshold."""
        return self.rates["fpr"], self.rates["tpr"]

    def matrix(self) -> np.ndarray:
        """The 2x2 confusion matrix, rows true (negative, positive), columns predicted."""
        c = self.counts
        return np.array([[c.TN, c.FP], [c.FN, c.TP]])

    def status(self) -> str:
        """One line describing the working point."""
        r = self.rates
        return (f"theta = {self.theta:.3g}: fpr = {r['fpr']:.3f}, tpr = {r['tpr']:.3f}, "
                f"BAC = {r['bac']:.3f}, accuracy = {r['accuracy']:.3f}")

    # ------------------------------------------------------------------ drawing
    def _scores_title(self) -> str:
        return rf"threshold $\theta$ = {self.theta:.2f}"

    def _roc_title(self) -> str:
        return f"fpr = {self.rates['fpr']:.2f}, tpr = {self.rates['tpr']:.2f}"

    def _matrix_title(self) -> str:
        return f"BAC = {self.rates['bac']:.3f}"

    def _matrix_cells(self):
        """The colour values of the matrix (rates per true class) and, per cell, its
        text and text colour."""
        m = self.matrix()
        shade = m / m.sum(axis=1, keepdims=True)
        names = [["TN", "FP"], ["FN", "TP"]]
        cells = [(f"{names[i][j]}\n{m[i, j]}", "white" if m[i, j] / m[i].sum() > 0.6 else "black")
                 for i in range(2) for j in range(2)]
        return shade, cells

    def draw_scores(self, ax: Axes) -> Axes:
        """Draw the histograms of the scores of both classes, with the threshold.

        Parameters
        ----------
        ax : matplotlib Axes

        Returns
        -------
        matplotlib Axes
            ``ax``.
        """
        pos = self.y_true == self.pos_label
        bins = np.linspace(*self.theta_range, 31)
        low, _, _ = ax.hist(self.scores[~pos], bins=bins, alpha=0.6, color=NEGATIVE_COLOR,
                            label=self.names[0])
        high, _, _ = ax.hist(self.scores[pos], bins=bins, alpha=0.6, color=POSITIVE_COLOR,
                             label=self.names[1])
        ax.set_ylim(0, 1.45 * max(low.max(), high.max(), 1))   # room for the legend
        ax.axvline(self.theta, color="black", lw=1.5, ls="--")
        ax.set_xlabel(r"score $f(\mathbf{x})$")
        ax.set_ylabel("examples")
        ax.set_title(self._scores_title())
        ax.legend(loc="upper right", title="true class", fontsize=9, title_fontsize=9)
        return ax

    def draw_roc(self, ax: Axes) -> Axes:
        """Draw the ROC curve with its AUC and the working point.

        Parameters
        ----------
        ax : matplotlib Axes

        Returns
        -------
        matplotlib Axes
            ``ax``.
        """
        ax.plot(self.fpr, self.tpr, color="#333333", lw=1.5, label=f"ROC, AUC = {self.auc:.3f}")
        ax.plot([0, 1], [0, 1], color="gray", ls=":", lw=1)
        ax.plot(*self.operating_point, "o", ms=9, color="#e69f00", mec="black", zorder=3,
                label="working point")
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(-0.02, 1.02)
        ax.set_aspect("equal")
        ax.set_xlabel("false positive rate fpr")
        ax.set_ylabel("true positive rate tpr")
        ax.legend(loc="lower right", handlelength=1.2, borderaxespad=0.2)
        ax.set_title(self._roc_title())
        return ax

    def draw_matrix(self, ax: Axes) -> Axes:
        """Draw the confusion matrix at the current threshold.

        Parameters
        ----------
        ax : matplotlib Axes

        Returns
        -------
        matplotlib Axes
            ``ax``.
        """
        shade, cells = self._matrix_cells()
        ax.imshow(shade, cmap="Blues", vmin=0, vmax=1)
        for k, (text, color) in enumerate(cells):
            ax.text(k % 2, k // 2, text, ha="center", va="center", fontsize=11, color=color)
        ax.set_xticks([0, 1], labels=list(self.names))
        ax.set_yticks([0, 1], labels=list(self.names), rotation=90, va="center")
        ax.set_xlabel("predicted class")
        ax.set_ylabel("true class")
        ax.grid(False)
        ax.set_title(self._matrix_title())
        return ax

    def draw(self, axes: np.ndarray | None = None) -> np.ndarray:
        """Scores with the threshold, the ROC with the working point, the confusion matrix.

        Without ``axes``, a new figure of the column's width: the scores on top, the ROC
        and the matrix below."""
        if axes is None:
            axes = _layout(plt.figure(figsize=FIGSIZE))
        self.draw_scores(axes[0])
        self.draw_roc(axes[1])
        self.draw_matrix(axes[2])
        return axes

    def figure(self) -> Figure:
        """A new figure with the three panels of :meth:`draw`."""
        fig = plt.figure(figsize=FIGSIZE)
        self.draw(_layout(fig))
        fig.tight_layout()
        return fig

    def redraw(self, fig: Figure) -> None:
        """Bring a figure drawn by ``figure()`` up to the current threshold in place.

        Only the threshold's line, the working point, the matrix and the three titles
        change; the layout stays (the titles keep their width), so the picture is the
        one ``figure()`` draws, without building the figure and its layout again."""
        scores, roc, matrix = fig.axes
        scores.lines[-1].set_xdata([self.theta, self.theta])
        scores.set_title(self._scores_title())
        roc.lines[-1].set_data(*([v] for v in self.operating_point))
        roc.set_title(self._roc_title())
        shade, cells = self._matrix_cells()
        matrix.images[0].set_data(shade)
        for label, (text, color) in zip(matrix.texts, cells):
            label.set_text(text)
            label.set_color(color)
        matrix.set_title(self._matrix_title())

    def static(self, n_values: int = 41) -> StaticExplorer:
        """The explorer for the HTML book: ``theta`` on a grid of ``n_values`` points over
        the range of the scores, with ``theta = 0`` and the initial threshold among them
        (slider with play)."""
        start = self.theta
        lo, hi = self.theta_range
        grid = np.linspace(lo, hi, int(n_values))
        extra = [v for v in (0.0, self.initial_threshold) if lo <= v <= hi]
        grid = np.round(np.r_[grid, extra], 2) + 0.0     # + 0.0: no -0.0 on the page
        grid = grid_with(sorted(set(grid.tolist())), round(start, 2) + 0.0)
        controls = [control("theta", grid, label="theta", initial=round(start, 2), fmt="{:.2f}",
                            play=True)]

        return sweep_explorer(self, self.set, controls, title="ROC threshold",
                              restore=lambda: self.set(theta=start), redraw=self.redraw)

    def widget(self) -> ipywidgets.VBox:
        """The live explorer: a threshold slider and a *theta = 0* button."""
        import ipywidgets as widgets

        lo, hi = self.theta_range
        slider = widgets.FloatSlider(value=self.theta, min=lo, max=hi, step=(hi - lo) / 200,
                                     description="theta", continuous_update=False,
                                     readout_format=".2f")
        zero = widgets.Button(description="theta = 0")
        label = widgets.Label(self.status())
        out, redraw = live_figure(self.figure)

        def on_slide(change):
            self.set(theta=change["new"])
            label.value = self.status()
            redraw()

        def on_zero(_):
            target = min(max(0.0, lo), hi)
            if slider.value != target:
                slider.value = target              # on_slide redraws, once
            elif self.theta != target:
                on_slide({"new": target})

        slider.observe(on_slide, names="value")
        zero.on_click(on_zero)
        redraw()
        return live_box([widgets.HBox([slider, zero]), label, out], "ROCExplorer")


def _other(explorer: ROCExplorer):
    """A label that is not the positive one (for the negative predictions)."""
    others = [v for v in np.unique(explorer.y_true) if v != explorer.pos_label]
    return others[0]
