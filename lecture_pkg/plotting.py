"""Plotting helpers that give the book's figures one look.

Every function draws into an ``Axes`` (a new one if none is given) and returns it;
none calls ``plt.show``, so notebooks end their plotting cells with ``plt.show()``.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import ListedColormap
from matplotlib.ticker import MaxNLocator

from .validation import (ARRAY, COUNT, FINITE, MATRIX, NON_NEGATIVE, POSITIVE, VECTOR, Array,
                         Interval, Options, validate_args)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from .linear import PerceptronHistory

__all__ = [
    "POSITIVE_COLOR",
    "NEGATIVE_COLOR",
    "LINE_COLOR",
    "COLUMN_WIDTH_IN",
    "PIXEL_DENSITY",
    "use_book_style",
    "alt_text",
    "set_alt_text",
    "plot_labelled_points",
    "mark_example",
    "plot_hyperplane",
    "grid_values",
    "plot_regions",
    "plot_decision_regions",
    "plot_errors_per_epoch",
    "plot_update_sequence",
    "CLASS_COLORS",
    "CLASS_MARKERS",
    "plot_classes",
    "plot_prototypes",
    "plot_prototype_paths",
    "plot_nearest_regions",
    "lambert_projection",
    "draw_network",
    "plot_convex_hull",
    "plot_signed_matrix",
]

POSITIVE_COLOR = "#1f5fa8"
NEGATIVE_COLOR = "#c0392b"
LINE_COLOR = "#333333"


#: Width of the book's text column in inches at the figures' 100 dpi: 688 CSS pixels in a
#: window 1280 px wide.  A figure at most this wide is shown at its own size, so its
#: text keeps the point size it was drawn with (at least 9 pt in this book).
COLUMN_WIDTH_IN = 6.8

#: Figures are stored at this many image pixels per displayed pixel (crisp on
#: high-density screens); the notebook output records the displayed size.
PIXEL_DENSITY = 2


def use_book_style() -> None:
    """Figure defaults for the book.

    Figures are designed for the text column (:data:`COLUMN_WIDTH_IN` wide at most) with
    text of at least 9 pt, and, in a notebook, stored as PNG at twice the displayed
    width (IPython's "retina" format, whose output metadata records the displayed size).
    """
    plt.rcParams.update({
        "figure.figsize": (6.4, 4.0),
        "figure.dpi": 100,
        "savefig.dpi": 100,
        "axes.grid": True,
        "grid.alpha": 0.3,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "legend.frameon": False,
        "font.size": 10,
        "axes.titlesize": 11,
        "axes.labelsize": 10,
        "xtick.labelsize": 9,
        "ytick.labelsize": 9,
        "legend.fontsize": 9,
        "legend.title_fontsize": 9,
        "figure.titlesize": 11,
    })
    try:
        from IPython import get_ipython
    except ImportError:  # pragma: no cover - IPython comes with matplotlib-inline
        return
    shell = get_ipython()
    if shell is not None:
        from matplotlib.figure import Figure
        from matplotlib_inline.backend_inline import set_matplotlib_formats

        set_matplotlib_formats("retina")
        png = shell.display_formatter.formatters["image/png"]
        retina = png.lookup_by_type(Figure)
        png.for_type(Figure, lambda fig: _with_alt_text(retina(fig), fig))


def _with_alt_text(result, fig):
    """The retina formatter's ``(png, metadata)`` with the figure's alt text added.

    The book's build (``book/_ext/accessible_html.py``) gives each figure of a page this
    text as its ``alt`` attribute, so that a screen reader announces what the figure
    shows rather than its file name.
    """
    if not isinstance(result, tuple):
        return result
    data, metadata = result
    return data, {**metadata, "alt": alt_text(fig)}


def set_alt_text(fig: Figure, text: str) -> None:
    """Give ``fig`` the alt text ``text`` (instead of the one :func:`alt_text` composes)."""
    fig._book_alt_text = str(text)


#: Script capitals, the Unicode letters for TeX's ``\mathcal`` (``\mathcal M`` -> ``ℳ``).
SCRIPT_CAPITALS = dict(zip("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "𝒜ℬ𝒞𝒟ℰℱ𝒢ℋℐ𝒥𝒦ℒℳ𝒩𝒪𝒫𝒬ℛ𝒮𝒯𝒰𝒱𝒲𝒳𝒴𝒵"))


def _plain(text: str) -> str:
    """Matplotlib label text without its TeX markup: ``$\\kappa_{\\max}$`` -> ``kappa max``.

    A calligraphic capital becomes its script letter, ``$\\mathcal{M}$`` -> ``ℳ``, so that a
    screen reader does not read it as the plain capital, which means something else.
    """
    text = re.sub(r"\\mathcal\s*\{?([A-Z])\}?", lambda m: SCRIPT_CAPITALS[m.group(1)], text)
    text = re.sub(r"\\(mathrm|mathbf|boldsymbol|operatorname|text)\{([^{}]*)\}", r"\2", text)
    text = re.sub(r"\\([A-Za-z]+)", r"\1", text)
    return re.sub(r"\s+", " ", re.sub(r"[${}^_\\]", " ", text)).strip()


def alt_text(fig: Figure) -> str:
    """A description of ``fig`` for readers who cannot see it.

    The text set with :func:`set_alt_text` if there is one, else one composed from what
    the figure says of itself: its title, and for each panel its title, the quantities on
    its axes and the entries of its legend.
    """
    explicit = getattr(fig, "_book_alt_text", None)
    if explicit:
        return explicit
    title = fig._suptitle.get_text() if getattr(fig, "_suptitle", None) is not None else ""
    panels = []
    for ax in fig.get_axes():
        if not ax.get_visible() or not ax.has_data():
            continue
        parts = []
        if ax.get_title():
            parts.append(_plain(ax.get_title()))
        x, y = _plain(ax.get_xlabel()), _plain(ax.get_ylabel())
        if x and y:
            parts.append(f"{y} against {x}")
        elif x or y:
            parts.append(f"axis: {x or y}")
        legend = ax.get_legend()
        if legend is not None:
            entries = [_plain(t.get_text()) for t in legend.get_texts() if t.get_text()]
            if entries:
                parts.append("showing " + ", ".join(entries))
        if parts:
            panels.append("; ".join(parts))
    text = "Figure" + (f": {_plain(title)}" if title else "")
    if len(panels) == 1:
        text += (". " if title else ": ") + panels[0]
    elif panels:
        text += ". " + ". ".join(f"Panel {i}: {p}" for i, p in enumerate(panels, 1))
    return text + "."


def _axes(ax):
    return ax if ax is not None else plt.gca()


_ALPHA = Interval(numbers.Real, 0, 1)                  # an opacity
_RESOLUTION = Interval(numbers.Integral, 2, None)      # grid points per side
_WINDOW = [VECTOR, None]                               # (low, high) of an axis, or automatic
_INDICES = Array(1, within=Interval(numbers.Integral, 0, None))    # class (layer) indices 0, 1, ...
# the window and the shading of a decision-region picture
_REGIONS = dict(resolution=_RESOLUTION, pad=FINITE, alpha=_ALPHA)


@validate_args(X=MATRIX, size=POSITIVE)
def plot_labelled_points(X: np.ndarray, y: np.ndarray, ax: Axes | None = None, *,
                         labels: Sequence[str] = ("$y=+1$", "$y=-1$"), annotate: bool = False,
                         size: float = 60) -> Axes:
    """Scatter 2-d inputs: ``+`` markers for label +1, ``o`` for -1 (Koski's convention).

    ``annotate=True`` writes the example number (1-based, as in the notes) beside each point.
    """
    ax = _axes(ax)
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    pos, neg = y == 1, y == -1
    if not np.all(pos | neg):
        raise ValueError("labels must be +1 or -1")
    ax.scatter(X[pos, 0], X[pos, 1], marker="+", s=size * 1.6, linewidths=2,
               color=POSITIVE_COLOR, label=labels[0], zorder=3)
    ax.scatter(X[neg, 0], X[neg, 1], marker="o", s=size, facecolors="none", linewidths=1.8,
               edgecolors=NEGATIVE_COLOR, label=labels[1], zorder=3)
    if annotate:
        for k, (a, b) in enumerate(X, start=1):
            ax.annotate(str(k), (a, b), textcoords="offset points", xytext=(6, 5), fontsize=9)
    ax.set_aspect("equal", adjustable="box")
    return ax


@validate_args(point=VECTOR)
def mark_example(point: np.ndarray, ax: Axes | None = None) -> Axes:
    """Circle one input, e.g. the example that caused the latest update."""
    ax = _axes(ax)
    ax.scatter(*np.asarray(point, dtype=float), s=380, facecolors="none", edgecolors="#e69f00",
               linewidths=2, zorder=2)
    return ax


@validate_args(coef=VECTOR, intercept=FINITE, xlim=_WINDOW, ylim=_WINDOW)
def plot_hyperplane(coef: np.ndarray, intercept: float = 0.0, ax: Axes | None = None, *,
                    xlim: Sequence[float] | None = None, ylim: Sequence[float] | None = None,
                    normal: bool = True, **line_kw) -> Axes:
    """Draw the line ``w1 x1 + w2 x2 + b = 0`` across the axes, with its normal vector.

    The normal arrow starts at the point of the line closest to the origin and points
    to the side classified +1.  Vertical lines (``w2 = 0``) are handled; a zero weight
    vector draws nothing and returns the axes unchanged.
    """
    ax = _axes(ax)
    w = np.asarray(coef, dtype=float)
    if w.shape != (2,):
        raise ValueError(f"plot_hyperplane needs a 2-d weight vector, got shape {w.shape}")
    norm2 = float(w @ w)
    if norm2 == 0.0:
        return ax
    xlim = xlim if xlim is not None else ax.get_xlim()
    ylim = ylim if ylim is not None else ax.get_ylim()
    kw = {"color": LINE_COLOR, "lw": 1.8}
    kw.update(line_kw)
    if abs(w[1]) >= abs(w[0]):
        x1 = np.array(xlim)
        ax.plot(x1, -(w[0] * x1 + intercept) / w[1], **kw)
    else:
        x2 = np.array(ylim)
        ax.plot(-(w[1] * x2 + intercept) / w[0], x2, **kw)
    if normal:
        foot = -intercept * w / norm2
        scale = 0.15 * min(xlim[1] - xlim[0], ylim[1] - ylim[0]) / np.sqrt(norm2)
        ax.annotate("", xy=foot + scale * w, xytext=foot,
                    arrowprops={"arrowstyle": "->", "color": kw["color"], "lw": 1.5})
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    return ax


@validate_args(function="callable", xlim=VECTOR, ylim=VECTOR, resolution=_RESOLUTION)
def grid_values(function: Callable[[np.ndarray], np.ndarray], xlim: Sequence[float],
                ylim: Sequence[float], resolution: int = 200
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Evaluate ``function`` on a ``resolution x resolution`` grid over ``xlim x ylim``.

    ``function`` maps an (n, 2) array of points to n values (scores, class indices or
    probabilities), or to n rows of values (one score per class).  Returns the grid
    coordinates ``g1, g2``, of shape ``(resolution, resolution)``, and the values, of
    that shape followed by the shape of a row, ready for ``contourf``.
    """
    g1, g2 = np.meshgrid(np.linspace(xlim[0], xlim[1], resolution),
                         np.linspace(ylim[0], ylim[1], resolution))
    values = np.asarray(function(np.c_[g1.ravel(), g2.ravel()]))
    return g1, g2, values.reshape(g1.shape + values.shape[1:])


@validate_args(function="callable", X=[MATRIX, None], n_classes=[None, Options("auto"), COUNT],
               xlim=_WINDOW, ylim=_WINDOW, **_REGIONS)
def plot_regions(function: Callable[[np.ndarray], np.ndarray], X: np.ndarray | None = None,
                 ax: Axes | None = None, *, n_classes: int | str | None = None,
                 margins: bool = False, xlim: Sequence[float] | None = None,
                 ylim: Sequence[float] | None = None, pad: float = 0.5, resolution: int = 200,
                 alpha: float = 0.18) -> Axes:
    """Shade the plane by a classifier's decisions: the package's one decision-region picture.

    * Two classes (``n_classes=None``): ``function`` returns real scores (a fitted
      estimator's ``decision_function``); where the score is ``>= 0`` (class +1) the plane
      is blue, elsewhere red.  ``margins=True`` adds the lines ``f = -1, 0, +1`` (margins
      dashed), the picture of a support vector machine.
    * ``n_classes = C``: ``function`` returns class indices ``0 .. C-1`` (e.g. a
      nearest-prototype rule); each class gets its colour of :data:`CLASS_COLORS` and the
      borders are drawn in grey.  ``n_classes="auto"`` reads ``C`` off the predictions.
      On a grid, class indices give borders that run in steps of the grid.  ``function``
      may instead return one score per class, an (n, C) array whose largest entry wins
      (e.g. the ``decision_function`` of a nearest prototype classifier with three or
      more classes, minus the distance to each class's closest prototype): each
      class's region is then where its score exceeds every other, and the borders,
      the zero lines of these differences, are straight wherever the differences are
      linear, as for squared Euclidean distances, already on a coarse grid.

    The window is ``xlim x ylim`` or, if not given, the range of the points ``X`` widened
    by ``pad``.  The data are not drawn (see :func:`plot_decision_regions`).  Returns the axes.
    """
    ax = _axes(ax)
    if xlim is None or ylim is None:
        if X is None:
            raise ValueError("give the points X or both xlim and ylim")
        X = np.asarray(X, dtype=float)
        lo, hi = X.min(axis=0) - pad, X.max(axis=0) + pad
        xlim = (lo[0], hi[0]) if xlim is None else xlim
        ylim = (lo[1], hi[1]) if ylim is None else ylim
    g1, g2, values = grid_values(function, xlim, ylim, resolution)
    if n_classes is None:
        ax.contourf(g1, g2, (values >= 0).astype(int), levels=[-0.5, 0.5, 1.5],
                    cmap=ListedColormap([NEGATIVE_COLOR, POSITIVE_COLOR]), alpha=alpha)
        if margins:
            ax.contour(g1, g2, values, levels=[-1.0, 0.0, 1.0], colors="k",
                       linestyles=["--", "-", "--"], linewidths=[1.0, 1.8, 1.0])
    elif values.ndim == 3:                             # one score per class
        _plot_score_regions(ax, g1, g2, values, alpha)
    else:
        labels = values.astype(int)
        C = int(labels.max()) + 1 if n_classes == "auto" else int(n_classes)
        ax.contourf(g1, g2, labels, levels=np.arange(C + 1) - 0.5,
                    cmap=ListedColormap(CLASS_COLORS[:C]), alpha=alpha)
        ax.contour(g1, g2, labels, levels=np.arange(C) + 0.5, colors="#555555", linewidths=0.8)
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    return ax


def _plot_score_regions(ax, g1, g2, scores, alpha):
    """The regions of the classes whose scores on the grid are ``scores`` (r, r, C).

    Class ``k`` holds the points where ``g_k = s_k - max_{j != k} s_j >= 0``: its region is
    filled by contouring ``g_k``, and its border is the zero line of ``g_k``, interpolated
    between grid points (exact where ``g_k`` is linear, as for the difference of two
    squared Euclidean distances).  A border between two classes is the zero line of both,
    so the lines meet where three regions do.
    """
    C = scores.shape[-1]
    if C > len(CLASS_COLORS):
        raise ValueError(f"at most {len(CLASS_COLORS)} classes can be drawn, got {C}")
    for k in range(C):
        g = scores[..., k] - np.delete(scores, k, axis=-1).max(axis=-1)
        top = float(g.max())
        if top < 0:                                    # the class wins nowhere in the window
            continue
        ax.contourf(g1, g2, g, levels=[0.0, max(1.0, 2.0 * top)], colors=[CLASS_COLORS[k]],
                    alpha=alpha)
        if g.min() < 0:
            ax.contour(g1, g2, g, levels=[0.0], colors="#555555", linewidths=0.8)


@validate_args(decision_function="callable", X=MATRIX, **_REGIONS)
def plot_decision_regions(decision_function: Callable[[np.ndarray], np.ndarray], X: np.ndarray,
                          y: np.ndarray, ax: Axes | None = None, *, resolution: int = 200,
                          pad: float = 0.5, alpha: float = 0.18) -> Axes:
    """Shade the plane by the sign of ``decision_function`` and scatter the data.

    ``decision_function`` maps an (n, 2) array to n real scores (e.g. a fitted
    estimator's ``decision_function``); the +1 region (score >= 0) is blue.
    """
    ax = plot_regions(decision_function, X, ax, resolution=resolution, pad=pad, alpha=alpha)
    plot_labelled_points(np.asarray(X, dtype=float), y, ax)
    return ax


@validate_args(errors=Array(1, within=NON_NEGATIVE))
def plot_errors_per_epoch(errors: Sequence[int] | np.ndarray, ax: Axes | None = None,
                          **bar_kw) -> Axes:
    """Bar chart of the number of updates (mistakes) in each epoch."""
    ax = _axes(ax)
    errors = np.asarray(errors)
    ax.bar(np.arange(1, len(errors) + 1), errors, color=bar_kw.pop("color", POSITIVE_COLOR),
           **bar_kw)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("epoch")
    ax.set_ylabel("updates in the epoch")
    return ax


@validate_args(X=MATRIX, lim=POSITIVE, ncols=COUNT)
def plot_update_sequence(X: np.ndarray, y: np.ndarray, history: PerceptronHistory, *,
                         axes: np.ndarray | Sequence[Axes] | None = None, lim: float = 3.0,
                         titles: Sequence[str] | None = None, ncols: int = 2) -> np.ndarray:
    """Small multiples: the data and the separating line before and after every update.

    ``history`` is a :class:`lecture_pkg.linear.PerceptronHistory`.  The example
    that triggered each update is circled.  Panels are laid out in rows of ``ncols``
    unless ``axes`` are given; then every axis with a scale is labelled ($x_1$, $x_2$).
    Returns the flat array of the axes used.
    """
    n_panels = len(history.intercept)
    if axes is None:
        nrows = -(-n_panels // ncols)
        fig, axes = plt.subplots(nrows, ncols, figsize=(3.25 * ncols, 3.3 * nrows),
                                 sharex=True, sharey=True, squeeze=False)
        for ax in np.ravel(axes)[n_panels:]:
            ax.set_visible(False)
        # the shared scales are labelled on the outer panels
        for ax in axes[-1, :]:
            ax.set_xlabel("$x_1$")
        for ax in axes[:, 0]:
            ax.set_ylabel("$x_2$")
        for ax in np.ravel(axes)[n_panels - ncols:n_panels]:
            ax.set_xlabel("$x_1$")
            ax.xaxis.set_tick_params(labelbottom=True)
    axes = np.ravel(axes)
    if len(axes) < n_panels:
        raise ValueError(f"need {n_panels} axes, got {len(axes)}")
    X = np.asarray(X, dtype=float)
    for k, ax in enumerate(axes[:n_panels]):
        plot_labelled_points(X, y, ax, annotate=True)
        ax.set_xlim(-lim, lim)
        ax.set_ylim(-lim, lim)
        plot_hyperplane(history.coef[k], history.intercept[k], ax, xlim=(-lim, lim), ylim=(-lim,
                                                                                           lim))
        if k > 0:
            i = history.example[k - 1]
            mark_example(X[i], ax)
        b, w = history.intercept[k], history.coef[k]
        default = "start" if k == 0 else f"update {k}: example {history.example[k - 1] + 1}"
        title = titles[k] if titles is not None else default
        ax.set_title(f"{title}\n$b={b:.3g}$, $\\mathbf{{w}}=({w[0]:.3g}, {w[1]:.3g})$", fontsize=9)
    return axes[:n_panels]


# ---------------------------------------------------------------- several classes (prototypes)

CLASS_COLORS = ("#1f5fa8", "#c0392b", "#e69f00", "#2a9d55", "#7b4fa0")
CLASS_MARKERS = ("o", "s", "^", "D", "v")


@validate_args(X=MATRIX, size=POSITIVE, alpha=_ALPHA)
def plot_classes(X: np.ndarray, y: np.ndarray, ax: Axes | None = None, *, size: float = 22,
                 names: Sequence[str] | None = None, alpha: float = 0.85) -> Axes:
    """Scatter 2-d data with one colour and marker per class (class index = position in
    ``unique(y)``)."""
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


@validate_args(W=MATRIX, classes=_INDICES, size=POSITIVE)
def plot_prototypes(W: np.ndarray, classes: Sequence[int] | np.ndarray, ax: Axes | None = None,
                    *, size: float = 260, label: str = "prototypes") -> Axes:
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


@validate_args(history=ARRAY, classes=_INDICES)
def plot_prototype_paths(history: np.ndarray, classes: Sequence[int] | np.ndarray,
                         ax: Axes | None = None, *, start_marker: bool = True) -> Axes:
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


@validate_args(predict="callable", X=MATRIX, n_classes=[None, COUNT], **_REGIONS)
def plot_nearest_regions(predict: Callable[[np.ndarray], np.ndarray], X: np.ndarray,
                         ax: Axes | None = None, *, n_classes: int | None = None,
                         resolution: int = 200, pad: float = 0.5, alpha: float = 0.16) -> Axes:
    """Shade the plane by the class that ``predict`` assigns (class indices ``0, 1, ...``).

    ``predict`` maps an (n, 2) array to class indices, e.g.
    ``lambda G: model.predict(G)`` for integer labels ``0 .. C-1``, or to one score per
    class, an (n, C) array, e.g. ``model.decision_function`` of a nearest prototype
    classifier with three or more classes.  The borders of a nearest prototype classifier
    with the Euclidean distance are piecewise linear: from class indices they are drawn
    in steps of the grid, from scores straight (see :func:`plot_regions`), so scores need
    a far coarser grid.  Without ``n_classes`` the number of classes is read off the
    predictions.
    """
    return plot_regions(predict, X, ax, n_classes="auto" if n_classes is None else n_classes,
                        resolution=resolution, pad=pad, alpha=alpha)


# ---------------------------------------------------------------- maps of the sphere

@validate_args(W=ARRAY, centre=VECTOR)
def lambert_projection(W: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """Lambert azimuthal equal-area projection of unit vectors ``W`` (M, 3) about ``centre``.

    A point at angle ``theta`` from the centre lands at radius ``2 sin(theta / 2)``
    (0 at the centre, 2 at the antipode); the map preserves areas.
    """
    W = np.atleast_2d(np.asarray(W, dtype=float))
    c = np.asarray(centre, dtype=float)
    c = c / np.linalg.norm(c)
    # an orthonormal basis (e1, e2) of the plane orthogonal to the centre
    helper = np.eye(3)[np.argmin(np.abs(c))]
    e1 = np.cross(c, helper)
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(c, e1)
    W = W / np.linalg.norm(W, axis=1, keepdims=True)
    cos_t = np.clip(W @ c, -1.0, 1.0)
    u, v = W @ e1, W @ e2
    norm = np.hypot(u, v)
    radius = np.sqrt(2.0 * (1.0 - cos_t))              # = 2 sin(theta / 2)
    scale = np.divide(radius, norm, out=np.zeros_like(norm), where=norm > 0)
    return np.c_[u * scale, v * scale]


# ---------------------------------------------------------------- architecture diagrams

@validate_args(layer_sizes=Array(1, within=COUNT), fixed_layers=_INDICES, node_radius=POSITIVE,
               layer_gap=POSITIVE, node_gap=POSITIVE, fontsize=POSITIVE)
def draw_network(layer_sizes: Sequence[int], ax: Axes | None = None, *,
                 node_labels: Sequence[Sequence[str]] | None = None,
                 layer_labels: Sequence[str] | None = None,
                 edge_labels: dict[tuple[int, int, int], str] | None = None,
                 fixed_layers: Sequence[int] = (), node_radius: float = 0.27,
                 layer_gap: float = 2.2, node_gap: float = 0.75,
                 ellipsis_nodes: dict[int, int] | None = None, fontsize: float = 11) -> Axes:
    """A layered feed-forward architecture drawn left (inputs) to right (output).

    Parameters
    ----------
    layer_sizes : sequence of int
        Number of units per layer, inputs first, e.g. ``(4, 3, 1)`` for Biehl's N-K-1 net.
    node_labels : list of lists of str, optional
        A label inside (or, for the inputs, beside) every unit, e.g. ``"$x_1$"``.
    layer_labels : list of str, optional
        A caption under every layer ("inputs", "hidden units", "output").
    edge_labels : dict, optional
        ``{(layer, i, j): text}`` writes ``text`` on the connection from unit ``i`` of
        ``layer`` to unit ``j`` of ``layer + 1`` (e.g. the weights ``w_j``).
    fixed_layers : sequence of int
        Connections out of these layers are drawn dashed: weights that are fixed, not
        learned (the committee and parity machines' hidden-to-output connections).
    ellipsis_nodes : dict, optional
        ``{layer: index}``: that position shows vertical dots ("...") instead of a unit,
        with no connections (an input layer of arbitrary size ``N``).
    node_radius, layer_gap, node_gap, fontsize
        Geometry in data units and the label font size.

    Returns
    -------
    matplotlib Axes
        With equal aspect and no frame.
    """
    from matplotlib.patches import Circle

    ax = _axes(ax)
    sizes = [int(n) for n in layer_sizes]
    if len(sizes) < 2 or min(sizes) < 1:
        raise ValueError(f"need at least two layers of at least one unit each, got {layer_sizes!r}")
    if node_labels is not None and [len(row) for row in node_labels] != sizes:
        raise ValueError("node_labels must have one label per unit of every layer")
    if layer_labels is not None and len(layer_labels) != len(sizes):
        raise ValueError("layer_labels must have one caption per layer")
    dots = dict(ellipsis_nodes or {})
    height = (max(sizes) - 1) * node_gap
    # a smaller layer is spread over up to 1.6 times its natural height, within the tallest
    spans = [min(height, 1.6 * (n - 1) * node_gap) for n in sizes]
    pos = [[(k * layer_gap, height / 2 + (spans[k] / 2 - i * spans[k] / (n - 1) if n > 1 else 0.0))
            for i in range(n)] for k, n in enumerate(sizes)]
    for k in range(len(sizes) - 1):
        style = dict(color=LINE_COLOR, lw=1.0, zorder=1,
                     ls="--" if k in fixed_layers else "-")
        for i, (x0, y0) in enumerate(pos[k]):
            if dots.get(k) == i:
                continue
            for j, (x1, y1) in enumerate(pos[k + 1]):
                if dots.get(k + 1) == j:
                    continue
                ax.plot([x0, x1], [y0, y1], **style)
                if edge_labels and (k, i, j) in edge_labels:
                    t = 0.3
                    ax.text(x0 + t * (x1 - x0), y0 + t * (y1 - y0) + 0.08, edge_labels[(k, i, j)],
                            ha="center", va="bottom", fontsize=fontsize - 1,
                            bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none"), zorder=3)
    for k, layer in enumerate(pos):
        for i, (x, y) in enumerate(layer):
            if dots.get(k) == i:
                ax.text(x, y, "$\\vdots$", ha="center", va="center", fontsize=fontsize + 2)
                continue
            input_layer = k == 0
            ax.add_patch(Circle((x, y), node_radius * (0.6 if input_layer else 1.0),
                                fc="white" if input_layer else "#dce8f5",
                                ec=LINE_COLOR, lw=1.2, zorder=2))
            if node_labels is not None and node_labels[k][i]:
                if input_layer:
                    ax.text(x - node_radius - 0.08, y, node_labels[k][i], ha="right", va="center",
                            fontsize=fontsize)
                else:
                    ax.text(x, y, node_labels[k][i], ha="center", va="center",
                            fontsize=fontsize - 1, zorder=3)
        if layer_labels is not None:
            ax.text(layer[0][0], -0.75, layer_labels[k], ha="center", va="top",
                    fontsize=fontsize - 1)
    ax.set_xlim(-layer_gap * 0.55, (len(sizes) - 1) * layer_gap + layer_gap * 0.45)
    ax.set_ylim(-0.75 - 0.45 if layer_labels is not None else -0.6, height + 0.6)
    ax.set_aspect("equal")
    ax.axis("off")
    return ax


@validate_args(points=MATRIX, alpha=_ALPHA)
def plot_convex_hull(points: np.ndarray, ax: Axes | None = None, *, color: str = LINE_COLOR,
                     alpha: float = 0.15, **line_kw) -> Axes:
    """Shade the convex hull of 2-d ``points`` and draw its boundary; return the Axes.

    One point is drawn as a dot, two as a segment; three or more use
    :class:`scipy.spatial.ConvexHull` (collinear points give their segment).
    """
    from scipy.spatial import ConvexHull, QhullError

    ax = _axes(ax)
    P = np.asarray(points, dtype=float)
    if P.ndim != 2 or P.shape[1] != 2 or len(P) == 0:
        raise ValueError(f"need a non-empty array of 2-d points, got shape {P.shape}")
    try:
        hull = P[ConvexHull(P).vertices] if len(P) >= 3 else None
    except QhullError:                                   # collinear: the hull is a segment
        hull = None
    if hull is None:
        order = np.lexsort((P[:, 1], P[:, 0]))
        ends = P[order[[0, -1]]]
        ax.plot(ends[:, 0], ends[:, 1], color=color, lw=line_kw.pop("lw", 1.5), **line_kw)
        return ax
    closed = np.vstack([hull, hull[:1]])
    ax.fill(hull[:, 0], hull[:, 1], color=color, alpha=alpha, lw=0)
    ax.plot(closed[:, 0], closed[:, 1], color=color, lw=line_kw.pop("lw", 1.5), **line_kw)
    return ax


# ---------------------------------------------------------------- matrices with signed entries

@validate_args(M=ARRAY)
def plot_signed_matrix(M: np.ndarray, ax: Axes | None = None, *,
                       labels: Sequence[str] | None = None, mask_diagonal: bool = False,
                       annotate: str | None = None, cmap: str = "RdBu_r", colorbar: bool = True,
                       colorbar_label: str | None = None) -> Axes:
    """Heat map of a matrix whose entries have either sign; return the Axes.

    The colour map is diverging and centred at zero: its limits are ``-m`` and ``+m``, with
    ``m`` the largest absolute value shown, so that white is exactly zero, red positive
    and blue negative (``RdBu_r``), and a shade tells the sign as well as the size.  Used
    for the relevance matrix ``Lambda`` of GMLVQ (Biehl's Fig. 5.2).

    Parameters
    ----------
    M : array (n, m)
    ax : Axes, optional
    labels : sequence of str, optional
        Tick labels of the rows (and of the columns if the matrix is square).
    mask_diagonal : bool
        Leave the diagonal out (drawn in light grey, not in the colour of zero) and out of
        the colour limits, e.g. when the diagonal is shown in a panel of its own.
    annotate : str, optional
        A format such as ``"{:.2f}"``: write each shown entry into its cell (with a
        typographic minus sign).
    cmap : str
        A diverging colour map.
    colorbar : bool
        Add a colour bar beside the Axes.
    colorbar_label : str, optional
    """
    ax = _axes(ax)
    M = np.asarray(M, dtype=float)
    if M.ndim != 2 or M.size == 0:
        raise ValueError(f"need a non-empty 2-d matrix, got shape {M.shape}")
    if mask_diagonal and M.shape[0] != M.shape[1]:
        raise ValueError(f"mask_diagonal needs a square matrix, got shape {M.shape}")
    hidden = np.eye(*M.shape, dtype=bool) if mask_diagonal else np.zeros(M.shape, bool)
    shown = np.ma.masked_array(M, mask=hidden)
    m = float(np.abs(shown).max()) if shown.count() else 0.0
    m = m if m > 0 else 1.0
    colours = plt.get_cmap(cmap).with_extremes(bad="0.85")
    image = ax.imshow(shown, cmap=colours, vmin=-m, vmax=m)
    if labels is not None:
        ax.set_yticks(range(M.shape[0]), labels=labels)
        if M.shape[0] == M.shape[1]:
            ax.set_xticks(range(M.shape[1]), labels=labels)
    ax.grid(False)
    if annotate is not None:
        for (i, j), value in np.ndenumerate(M):
            if not hidden[i, j]:
                ax.text(j, i, annotate.format(value).replace("-", "\u2212"), ha="center",
                        va="center",
                        color="white" if abs(value) > 0.6 * m else "black")
    if colorbar:
        ax.figure.colorbar(image, ax=ax, fraction=0.046, pad=0.04, label=colorbar_label)
    return ax
