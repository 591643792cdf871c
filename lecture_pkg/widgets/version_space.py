"""Explorer of the version space of a perceptron in N = 3 (Biehl's Figs. 3.6 and 3.7).

Weights are unit vectors, points on the sphere.  Every labelled example ``xi`` cuts the
sphere along the great circle ``w . xi = 0`` and keeps the half whose weights give its
label; the version space is what survives all cuts.  The sphere is drawn in Lambert's
azimuthal equal-area projection centred on the teacher, so that *areas on the page are
proportional to areas on the sphere*: the coloured region's share of the disc is the
version space's share of the sphere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import matplotlib.pyplot as plt
import numpy as np

from ..linear import center_of_mass, generalization_error, version_space_mask
from ..plotting import NEGATIVE_COLOR, POSITIVE_COLOR, lambert_projection
from ._live import axes_figure, live_box, live_figure
from ._static import StaticExplorer, control, sweep_explorer

if TYPE_CHECKING:
    import ipywidgets
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["VersionSpaceExplorer"]


class VersionSpaceExplorer:
    """Add labelled examples one at a time and watch the version space shrink (N = 3).

    Parameters
    ----------
    max_examples : int
        Number of examples available (drawn once, Gaussian inputs, labels by the teacher).
    random_state : int
        Seed for the teacher, the inputs and the uniform points on the sphere.
    n_candidates : int
        Uniform random points on the sphere used to represent it; those consistent with
        the examples are uniform samples of the version space.
    """

    def __init__(self, max_examples: int = 12, random_state: int = 0,
                 n_candidates: int = 40000) -> None:
        if max_examples < 1 or n_candidates < 100:
            raise ValueError("need max_examples >= 1 and n_candidates >= 100")
        self.max_examples = int(max_examples)
        self.n_candidates = int(n_candidates)
        self.new_data(random_state=random_state)

    def new_data(self, random_state: int) -> None:
        """Draw a new teacher, new inputs and new sphere points; start with no example."""
        self.random_state = int(random_state)
        rng = np.random.default_rng(self.random_state)
        t = rng.standard_normal(3)
        self.teacher = t / np.linalg.norm(t)
        self.X = rng.standard_normal((self.max_examples, 3))
        self.y = np.where(self.X @ self.teacher >= 0, 1, -1)
        C = rng.standard_normal((self.n_candidates, 3))
        self.candidates = C / np.linalg.norm(C, axis=1, keepdims=True)
        self.n_examples = 0
        self.history = [1.0]          # version-space fraction after 0, 1, ... examples
        # what depends only on the data and the number of examples, computed once: the
        # masks, centres and summaries of each P, and the sphere points on the map
        self._cache: dict = {}

    # ---------------------------------------------------------------- logic
    def _cached(self, key, compute):
        """``compute()``, kept under ``key`` until :meth:`new_data` draws new data."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def _mask(self, P: int) -> np.ndarray:
        """The mask of the first ``P`` examples (the cached array itself: not to be changed)."""
        if P == 0:
            return self._cached(("mask", 0), lambda: np.ones(self.n_candidates, dtype=bool))
        return self._cached(("mask", P), lambda: version_space_mask(self.candidates, self.X[:P],
                                                                    self.y[:P]))

    def mask(self, n_examples: int | None = None) -> np.ndarray:
        """Which sphere points are consistent with the first ``n_examples`` examples."""
        P = self.n_examples if n_examples is None else int(n_examples)
        return self._mask(P).copy()

    def fraction(self, n_examples: int | None = None) -> float:
        """Share of the sphere (estimated from the uniform points) inside the version space."""
        P = self.n_examples if n_examples is None else int(n_examples)
        return self._cached(("fraction", P), lambda: float(self._mask(P).mean()))

    def set(self, *, n_examples: int) -> None:
        """Use the first ``n_examples`` examples (0 to ``max_examples``)."""
        n = int(n_examples)
        if not 0 <= n <= self.max_examples:
            raise ValueError(f"n_examples must lie in 0..{self.max_examples}, got {n}")
        self.n_examples = n
        self.history = [self.fraction(k) for k in range(n + 1)]

    def add_example(self) -> bool:
        """Add the next example; returns whether it was *informative* (cut the version space).

        An example whose great circle misses the version space leaves it unchanged
        (Biehl's Fig. 3.7, left): its label was already implied by the earlier ones.
        Returns ``False`` without change when all examples are in use.
        """
        if self.n_examples >= self.max_examples:
            return False
        before = self._mask(self.n_examples)
        self.n_examples += 1
        after = self._mask(self.n_examples)
        self.history.append(self.fraction())
        return bool(np.any(before & ~after))

    def _centre(self, P: int) -> np.ndarray | None:
        """:meth:`centre` with the first ``P`` examples (the cached array itself)."""
        def compute():
            m = self._mask(P)
            if not m.any():
                return None
            c = center_of_mass(self.candidates[m])
            n = np.linalg.norm(c)
            return c / n if n > 0 else None

        return self._cached(("centre", P), compute)

    def centre(self) -> np.ndarray | None:
        """Centre-of-mass estimate (3.38) from the consistent sphere points, normalised."""
        c = self._centre(self.n_examples)
        return None if c is None else c.copy()

    def _summary(self):
        """The version space's share of the sphere (in %) and, once examples are shown and
        the space is not empty, the generalisation errors of its centre of mass and of a
        random consistent student (on average); otherwise ``None`` for the errors."""
        P = self.n_examples

        def compute():
            m = self._mask(P)
            share = 100 * m.mean()
            c = self._centre(P)
            if P == 0 or c is None:
                return share, None
            eps_cm = generalization_error(c, self.teacher)
            eps_rand = float(np.mean(generalization_error(self.candidates[m], self.teacher)))
            return share, (eps_cm, eps_rand)

        return self._cached(("summary", P), compute)

    def status(self) -> str:
        """One line describing the current state."""
        share, errors = self._summary()
        n = self.n_examples
        head = f"P = {n} example{'' if n == 1 else 's'}: version space = {share:.2f}% of the sphere"
        if errors is None:
            return head
        return (head + f"; \u03b5_g: centre of mass {errors[0]:.3f}, "
                f"random consistent student {errors[1]:.3f} on average")

    # ---------------------------------------------------------------- drawing
    def draw(self, ax: Axes | None = None) -> Axes:
        """Equal-area map of the sphere: version space, example circles, teacher, centre."""
        ax = ax if ax is not None else plt.gca()
        m = self._mask(self.n_examples)
        pts = self._cached("projected", lambda: lambert_projection(self.candidates, self.teacher))
        # the sphere as a plain grey disc, the version space as its consistent points
        # (drawn large enough to merge: a speckled cloud would make heavy pictures)
        ax.add_patch(plt.Circle((0, 0), 2.0, color="#dddddd", lw=0, zorder=1))
        ax.scatter(*pts[m].T, s=5, lw=0, color=POSITIVE_COLOR, rasterized=True, zorder=2,
                   label="version space")
        phi = np.linspace(0, 2 * np.pi, 721)
        for k in range(self.n_examples):
            xi = self.X[k] / np.linalg.norm(self.X[k])
            helper = np.eye(3)[np.argmin(np.abs(xi))]
            a = np.cross(xi, helper)
            a /= np.linalg.norm(a)
            b = np.cross(xi, a)
            circle = lambert_projection(np.outer(np.cos(phi), a) + np.outer(np.sin(phi), b),
                                        self.teacher)
            # break the curve where it jumps across the rim of the disc
            jumps = np.flatnonzero(np.linalg.norm(np.diff(circle, axis=0), axis=1) > 0.3)
            for seg in np.split(circle, jumps + 1):
                ax.plot(*seg.T, color="#555555", lw=0.8, zorder=3)
        ax.scatter([0], [0], marker="*", s=220, color="#e69f00", edgecolors="k",
                   zorder=5, label="teacher $\\mathbf{w}^*$")
        c = self._centre(self.n_examples)
        if c is not None and self.n_examples > 0:
            ax.scatter(*lambert_projection(c, self.teacher).T, marker="X", s=110,
                       color=NEGATIVE_COLOR, edgecolors="k", zorder=5,
                       label="centre of mass")
        ax.add_patch(plt.Circle((0, 0), 2.0, fill=False, color="k", lw=1))
        ax.set_xlim(-2.1, 2.1)
        ax.set_ylim(-2.1, 2.1)
        ax.set_aspect("equal")
        ax.set_xticks([])
        ax.set_yticks([])
        ax.grid(False)
        for spine in ax.spines.values():
            spine.set_visible(False)
        ax.set_title(self._title(), fontsize=10)
        return ax

    def _title(self) -> str:
        """Two short lines: the version space's share and the students' errors."""
        share, errors = self._summary()
        head = f"P = {self.n_examples}: version space {share:.2f}% of the sphere"
        if errors is None:
            return head
        return (head + f"\n$\\varepsilon_g$: centre of mass {errors[0]:.3f}, "
                f"random student {errors[1]:.3f}")

    def figure(self) -> Figure:
        """A new figure of the current state (the live and the static explorer draw this)."""
        def draw(ax):
            self.draw(ax)
            # below the axes, so that the picture is narrow enough for a phone's column
            ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncols=3, fontsize=9,
                      markerscale=1.2, handletextpad=0.2, columnspacing=0.8)

        return axes_figure(draw, (5.0, 5.2))()

    def static(self) -> StaticExplorer:
        """The explorer for the HTML book: the examples added one by one, ``P = 0`` to
        ``max_examples`` (step buttons, slider and play), on the current data."""
        start = self.n_examples
        controls = [control("n_examples", range(self.max_examples + 1), label="P",
                            initial=start, fmt="{:d}", kind="steps")]

        return sweep_explorer(self, self.set, controls, title="version space",
                              restore=lambda: self.set(n_examples=start),
                              colors=32)

    def widget(self) -> ipywidgets.VBox:
        """The live explorer: a slider for P, *Add example*, and *New data*."""
        import ipywidgets as widgets

        slider = widgets.IntSlider(value=self.n_examples, min=0, max=self.max_examples,
                                   description="P", continuous_update=False)
        add = widgets.Button(description="Add example", button_style="primary")
        new = widgets.Button(description="New data")

        out, redraw = live_figure(self.figure)

        def on_add(_):
            self.add_example()
            if slider.value != self.n_examples:
                slider.value = self.n_examples      # the slider's observer redraws

        def on_new(_):
            self.new_data(random_state=self.random_state + 1)
            if slider.value == 0:
                redraw()
            else:
                slider.value = 0

        def on_slide(change):
            if change["new"] != self.n_examples:
                self.set(n_examples=change["new"])
            redraw()

        add.on_click(on_add)
        new.on_click(on_new)
        slider.observe(on_slide, names="value")
        redraw()
        return live_box([widgets.HBox([add, new, slider]), out], "VersionSpaceExplorer")
