"""Explorer of LVQ training: watch the prototypes move, epoch by epoch, on a 2-d data set.

The logic lives in :class:`PrototypeExplorer`, a plain class driving
:class:`lecture_pkg.prototypes.PrototypeTrainer` (the same engine as the estimators),
so it can be tested without a browser; ``.widget()`` only wires buttons and sliders to
it.  The drawing helpers for multi-class data and prototypes are public, because the
chapter's static figures use them too.
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import ListedColormap

from ..prototypes import PrototypeTrainer, init_prototypes
from ._live import live_figure, axes_figure

__all__ = [
    "CLASS_COLORS",
    "CLASS_MARKERS",
    "plot_classes",
    "plot_prototypes",
    "plot_prototype_paths",
    "plot_nearest_regions",
    "PrototypeExplorer",
]

CLASS_COLORS = ("#1f5fa8", "#c0392b", "#e69f00", "#2a9d55", "#7b4fa0")
CLASS_MARKERS = ("o", "s", "^", "D", "v")


def _axes(ax):
    return ax if ax is not None else plt.gca()


def plot_classes(X, y, ax=None, *, size=22, names=None, alpha=0.85):
    """Scatter 2-d data with one colour and marker per class (class index = position in ``unique(y)``)."""
    ax = _axes(ax)
    X = np.asarray(X, dtype=float)
    classes, idx = np.unique(np.asarray(y), return_inverse=True)
    if len(classes) > len(CLASS_COLORS):
        raise ValueError(f"at most {len(CLASS_COLORS)} classes can be drawn, got {len(classes)}")
    for k, label in enumerate(classes):
        sel = idx == k
        name = names[k] if names is not None else f"class {label}"
        ax.scatter(X[sel, 0], X[sel, 1], s=size, marker=CLASS_MARKERS[k], color=CLASS_COLORS[k],
                   alpha=alpha, linewidths=0.4, edgecolors="white", label=name, zorder=3)
    return ax


def plot_prototypes(W, classes, ax=None, *, size=260, label="prototypes"):
    """Draw prototypes as large class-coloured markers with a black edge.

    ``classes`` holds class indices ``0, 1, ...`` (as in ``PrototypeTrainer.c``).
    """
    ax = _axes(ax)
    W = np.asarray(W, dtype=float)
    classes = np.asarray(classes, dtype=int)
    for k in np.unique(classes):
        sel = classes == k
        ax.scatter(W[sel, 0], W[sel, 1], s=size, marker=CLASS_MARKERS[k], color=CLASS_COLORS[k],
                   edgecolors="black", linewidths=1.8, zorder=5,
                   label=label if k == classes.min() else None)
    return ax


def plot_prototype_paths(history, classes, ax=None, *, start_marker=True):
    """Trajectories of the prototypes: ``history`` has shape (epochs + 1, M, 2)."""
    ax = _axes(ax)
    H = np.asarray(history, dtype=float)
    if H.ndim != 3 or H.shape[2] != 2:
        raise ValueError(f"history must have shape (T, M, 2), got {H.shape}")
    classes = np.asarray(classes, dtype=int)
    for j in range(H.shape[1]):
        color = CLASS_COLORS[classes[j]]
        ax.plot(H[:, j, 0], H[:, j, 1], "-", color="black", lw=2.6, zorder=4, alpha=0.6)
        ax.plot(H[:, j, 0], H[:, j, 1], "-", color=color, lw=1.4, zorder=4)
        if start_marker:
            ax.scatter(*H[0, j], s=60, marker="x", color="black", linewidths=1.5, zorder=5)
    return ax


def plot_nearest_regions(predict, X, ax=None, *, n_classes=None, resolution=200, pad=0.5,
                         alpha=0.16):
    """Shade the plane by the class that ``predict`` assigns (class indices ``0, 1, ...``).

    ``predict`` maps an (n, 2) array to class indices, e.g.
    ``lambda G: model.predict(G)`` for integer labels ``0 .. C-1``.  The borders of a
    nearest prototype classifier with the Euclidean distance are piecewise linear.
    """
    ax = _axes(ax)
    X = np.asarray(X, dtype=float)
    lo, hi = X.min(axis=0) - pad, X.max(axis=0) + pad
    g1, g2 = np.meshgrid(np.linspace(lo[0], hi[0], resolution), np.linspace(lo[1], hi[1], resolution))
    labels = np.asarray(predict(np.c_[g1.ravel(), g2.ravel()])).reshape(g1.shape).astype(int)
    C = int(labels.max()) + 1 if n_classes is None else int(n_classes)
    ax.contourf(g1, g2, labels, levels=np.arange(C + 1) - 0.5,
                cmap=ListedColormap(CLASS_COLORS[:C]), alpha=alpha)
    ax.contour(g1, g2, labels, levels=np.arange(C) + 0.5, colors="#555555", linewidths=0.8)
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    return ax


class PrototypeExplorer:
    """Train LVQ1 or GLVQ epoch by epoch on 2-d data and draw the prototypes' paths.

    Parameters
    ----------
    X : array (P, 2)
    y : array (P,) of labels
    rule : {"lvq1", "glvq"}
    prototypes_per_class : int
    learning_rate : float
        ``eta_w`` (constant: no decay, so that each epoch's step is visible).
    seed : int
        Seed of the initial prototypes (random examples of each class) and of the
        presentation orders; ``reset`` starts again from the same prototypes.
    """

    RULES = ("lvq1", "glvq")

    def __init__(self, X, y, *, rule="lvq1", prototypes_per_class=1, learning_rate=0.1, seed=0):
        self.X = np.asarray(X, dtype=float)
        if self.X.ndim != 2 or self.X.shape[1] != 2:
            raise ValueError(f"the explorer shows 2-d inputs; X has shape {self.X.shape}")
        self.classes, self.y = np.unique(np.asarray(y), return_inverse=True)
        if len(self.y) != len(self.X):
            raise ValueError(f"X has {len(self.X)} rows but y has {len(self.y)} labels")
        self.prototypes_per_class = int(prototypes_per_class)
        self.seed = int(seed)
        self.rule = rule
        self.learning_rate = float(learning_rate)
        self.reset()

    def reset(self, rule: str | None = None, learning_rate: float | None = None) -> None:
        """Back to the initial prototypes, optionally with another rule or learning rate."""
        if rule is not None:
            self.rule = rule
        if self.rule not in self.RULES:
            raise ValueError(f"rule must be one of {self.RULES}, got {self.rule!r}")
        if learning_rate is not None:
            self.learning_rate = float(learning_rate)
        rng = np.random.default_rng(self.seed)
        per_class = np.full(len(self.classes), self.prototypes_per_class)
        W, c = init_prototypes(self.X, self.y, per_class, method="random-example", rng=rng,
                               class_names=self.classes)
        self.trainer = PrototypeTrainer(self.X, self.y, W, c, rule=self.rule,
                                        learning_rate=self.learning_rate, rng=rng)

    @property
    def epoch(self) -> int:
        return self.trainer.epoch

    @property
    def prototypes(self) -> np.ndarray:
        return self.trainer.W.copy()

    def next_epoch(self, n: int = 1) -> int:
        """Train ``n`` more epochs; return the number of completed epochs."""
        self.trainer.run(n)
        return self.trainer.epoch

    def status(self) -> str:
        """One line describing the current state."""
        t = self.trainer
        return (f"{self.rule.upper()}, epoch {t.epoch}: {t.errors_per_epoch[-1]} of {len(self.y)} "
                f"examples misclassified, GLVQ cost {t.cost_per_epoch[-1]:.2f}")

    def draw(self, ax=None):
        """Decision regions, data, the prototypes' paths so far and their current positions."""
        ax = _axes(ax)
        plot_nearest_regions(self.trainer.predict_classes, self.X, ax, n_classes=len(self.classes),
                             resolution=150)
        plot_classes(self.X, self.classes[self.y], ax, size=16, alpha=0.7)
        plot_prototype_paths(np.array(self.trainer.prototype_history), self.trainer.c, ax)
        plot_prototypes(self.trainer.W, self.trainer.c, ax)
        ax.set_aspect("equal", adjustable="box")
        ax.set_title(self.status(), fontsize=9)
        return ax

    def widget(self):
        """The live explorer: *Next epoch*, *10 epochs*, *Reset*, a rule menu and a rate slider."""
        import ipywidgets as widgets

        step = widgets.Button(description="Next epoch", button_style="primary")
        ten = widgets.Button(description="10 epochs")
        reset = widgets.Button(description="Reset")
        rule = widgets.Dropdown(options=[("LVQ1", "lvq1"), ("GLVQ", "glvq")], value=self.rule,
                                description="rule")
        eta = widgets.FloatLogSlider(value=self.learning_rate, base=10, min=-3, max=0, step=0.1,
                                     description="eta", continuous_update=False)

        out, redraw = live_figure(axes_figure(self.draw, (5.5, 5.5)))

        step.on_click(lambda _: (self.next_epoch(), redraw()))
        ten.on_click(lambda _: (self.next_epoch(10), redraw()))
        reset.on_click(lambda _: (self.reset(rule.value, eta.value), redraw()))
        rule.observe(lambda change: (self.reset(change["new"], eta.value), redraw()), names="value")
        eta.observe(lambda change: (self.reset(rule.value, change["new"]), redraw()), names="value")
        redraw()
        return widgets.VBox([widgets.HBox([step, ten, reset]), widgets.HBox([rule, eta]), out])
