"""Explorer of LVQ training: watch the prototypes move, epoch by epoch, on a 2-d data set.

The logic lives in :class:`PrototypeExplorer`, a plain class driving
:class:`lecture_pkg.prototypes.PrototypeTrainer` (the same engine as the estimators),
so it can be tested without a browser; ``.widget()`` only wires buttons and sliders to
it.  It draws with the multi-class helpers of :mod:`lecture_pkg.plotting`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import matplotlib.pyplot as plt
import numpy as np

from ..plotting import plot_classes, plot_nearest_regions, plot_prototype_paths, plot_prototypes
from ..prototypes import PrototypeTrainer, init_prototypes
from ._live import RemembersStaticPicture, axes_figure, live_box, live_figure, rate_slider
from ._static import StaticExplorer, control, grid_with, sweep_explorer

if TYPE_CHECKING:
    import ipywidgets
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = [
    "PrototypeExplorer",
]

#: Grid points per axis of the decision regions: their borders are interpolated between
#: the points (:func:`lecture_pkg.plotting.plot_nearest_regions` with class scores), so a
#: coarse grid draws them straight.
REGION_RESOLUTION = 80
#: Colours per picture, static and live: the shaded regions need no more.
COLORS = 32


class PrototypeExplorer(RemembersStaticPicture):
    """Train LVQ1 or GLVQ epoch by epoch on 2-d data and draw the prototypes' paths.

    Parameters
    ----------
    X : array (P, 2)
    y : array (P,) of labels
    rule : {"lvq1", "glvq"}
    prototypes_per_class : int
    eta : float
        ``eta_w`` (constant: no decay, so that each epoch's step is visible).
    random_state : int
        Seed of the initial prototypes (random examples of each class) and of the
        presentation orders; ``reset`` starts again from the same prototypes.
    """

    RULES = ("lvq1", "glvq")

    def __init__(self, X: np.ndarray, y: np.ndarray, *, rule: str = "lvq1",
                 prototypes_per_class: int = 1, eta: float = 0.1,
                 random_state: np.random.Generator | int | None = 0) -> None:
        self.X = np.asarray(X, dtype=float)
        if self.X.ndim != 2 or self.X.shape[1] != 2:
            raise ValueError(f"the explorer shows 2-d inputs; X has shape {self.X.shape}")
        self.classes, self.y = np.unique(np.asarray(y), return_inverse=True)
        if len(self.y) != len(self.X):
            raise ValueError(f"X has {len(self.X)} rows but y has {len(self.y)} labels")
        self.prototypes_per_class = int(prototypes_per_class)
        self.random_state = int(random_state)
        self.rule = rule
        self.eta = float(eta)
        self.reset()

    def reset(self, rule: str | None = None, eta: float | None = None) -> None:
        """Back to the initial prototypes, optionally with another rule or learning rate."""
        if rule is not None:
            self.rule = rule
        if self.rule not in self.RULES:
            raise ValueError(f"rule must be one of {self.RULES}, got {self.rule!r}")
        if eta is not None:
            self.eta = float(eta)
        rng = np.random.default_rng(self.random_state)
        per_class = np.full(len(self.classes), self.prototypes_per_class)
        W, c = init_prototypes(self.X, self.y, per_class, method="random-example", random_state=rng,
                               class_names=self.classes)
        self.trainer = PrototypeTrainer(self.X, self.y, W, c, rule=self.rule,
                                        eta=self.eta, random_state=rng)

    def set(self, *, eta: float, rule: str | None = None) -> None:
        """Change the learning rate (and optionally the rule) and train again for as many
        epochs as were made so far, at least one, so that the picture shows the effect of
        the change (from the start, epoch 0, a rate alone would move nothing)."""
        n = max(self.trainer.epoch, 1)
        self.reset(rule, eta)
        self.next_epoch(n)

    def class_scores(self, X: np.ndarray) -> np.ndarray:
        """Per class, minus the squared distance of each row of ``X`` to the class's closest
        prototype, (n, C): the nearest prototype's class has the largest score."""
        D = self.trainer.distances(np.asarray(X, dtype=float))
        return -np.column_stack([D[:, self.trainer.c == k].min(axis=1)
                                 for k in range(len(self.classes))])

    @property
    def epoch(self) -> int:
        """The number of completed training epochs."""
        return self.trainer.epoch

    @property
    def prototypes(self) -> np.ndarray:
        """The current prototypes, one per row (a copy)."""
        return self.trainer.W.copy()

    def next_epoch(self, n: int = 1) -> int:
        """Train ``n`` more epochs; return the number of completed epochs."""
        self.trainer.run(n)
        return self.trainer.epoch

    def status(self) -> str:
        """One line describing the current state."""
        t = self.trainer
        return (f"{self.rule.upper()}, eta = {self.eta:g}, epoch {t.epoch}: "
                f"{t.errors_per_epoch[-1]} of {len(self.y)} "
                f"examples misclassified, GLVQ cost {t.cost_per_epoch[-1]:.2f}")

    def draw(self, ax: Axes | None = None) -> Axes:
        """Decision regions, data, the prototypes' paths so far and their current positions."""
        ax = plt.gca() if ax is None else ax
        plot_nearest_regions(self.class_scores, self.X, ax, resolution=REGION_RESOLUTION)
        plot_classes(self.X, self.classes[self.y], ax, size=16, alpha=0.7)
        plot_prototype_paths(np.array(self.trainer.prototype_history), self.trainer.c, ax)
        plot_prototypes(self.trainer.W, self.trainer.c, ax)
        ax.set_aspect("equal", adjustable="box")
        ax.set_xlabel("$x_1$")
        ax.set_ylabel("$x_2$")
        t = self.trainer
        ax.set_title(f"{self.rule.upper()}, $\\eta$ = {self.eta:g}, epoch {t.epoch}: "
                     f"{t.errors_per_epoch[-1]} of {len(self.y)} misclassified", fontsize=10)
        return ax

    def figure(self) -> Figure:
        """A new figure of the current state (the live and the static explorer draw this)."""
        return axes_figure(self.draw, (5.0, 5.0))()

    def redraw(self, fig: Figure) -> None:
        """Draw the current state into a figure drawn by :meth:`figure`, keeping its layout.

        The panel is cleared and drawn again; its window and ticks (set by the data) and
        its title's place do not depend on the state, so the picture is the one
        :meth:`figure` gives, without building the figure and its layout again."""
        ax, = fig.axes
        ax.cla()
        self.draw(ax)

    def static(self, epochs: int = 20, rules: Sequence[str] = RULES) -> StaticExplorer:
        """The explorer for the HTML book: the rule (a choice, if more than one is given)
        and the epochs ``0..epochs`` stepped one by one (buttons, slider and play)."""
        start = dict(rule=self.rule, eta=self.eta, epoch=self.epoch)
        rules = list(rules)
        controls = [control("epoch", range(int(epochs) + 1), label="epoch", initial=0,
                            fmt="{:d}", kind="steps")]
        if len(rules) > 1:
            controls.insert(0, control("rule", grid_with(rules, self.rule), label="rule",
                                       initial=self.rule, fmt=str.upper,
                                       kind="choice"))

        def set_state(epoch, rule=None):
            rule = rules[0] if rule is None else rule     # one rule: no choice to make
            if rule != self.rule or epoch < self.epoch:
                self.reset(rule)
            self.next_epoch(epoch - self.epoch)

        def restore():
            self.reset(start["rule"], start["eta"])
            self.next_epoch(start["epoch"])

        title = " and ".join(r.upper() for r in rules)     # the rules it replays
        explorer = sweep_explorer(self, set_state, controls, title=title, restore=restore,
                                  colors=COLORS, redraw=self.redraw)
        # the picture of the first state, epoch 0 of the start's rule, as the live widget
        # draws it: shown without drawing it again when the widget starts there
        first = {"epoch": 0, "rule": start["rule"]} if len(rules) > 1 else {"epoch": 0}
        if start["rule"] in rules:
            self.reset(start["rule"], start["eta"])
            self._remember_picture(explorer.frame(**first))
            restore()
        return explorer

    def _state(self) -> tuple:
        """What the picture depends on: the settings, the epoch and the prototypes."""
        t = self.trainer
        return self.rule, self.eta, t.epoch, t.n_steps, t.W.tobytes(), len(t.prototype_history)

    def widget(self) -> ipywidgets.VBox:
        """The live explorer: *Next epoch*, *10 epochs*, *Reset*, a rule menu and a rate slider.

        The rate slider steps through 0.001, 0.002, 0.005, ..., 1 and the explorer's own
        rate (``rate_slider``); moving it at epoch 0 trains one epoch at the new rate.
        """
        import ipywidgets as widgets

        step = widgets.Button(description="Next epoch", button_style="primary")
        ten = widgets.Button(description="10 epochs")
        reset = widgets.Button(description="Reset")
        rule = widgets.Dropdown(options=[("LVQ1", "lvq1"), ("GLVQ", "glvq")], value=self.rule,
                                description="rule")
        eta = rate_slider(self.eta, 0.001, 1.0, "eta")

        out, redraw = live_figure(self.figure, colors=COLORS)

        step.on_click(lambda _: (self.next_epoch(), redraw()))
        ten.on_click(lambda _: (self.next_epoch(10), redraw()))
        reset.on_click(lambda _: (self.reset(rule.value, eta.value), redraw()))
        rule.observe(lambda change: (self.reset(change["new"], eta.value), redraw()), names="value")
        eta.observe(lambda change: (self.set(eta=change["new"], rule=rule.value), redraw()),
                    names="value")
        redraw(self._drawn_picture())
        return live_box([widgets.HBox([step, ten, reset]), widgets.HBox([rule, eta]), out],
                        "PrototypeExplorer")
