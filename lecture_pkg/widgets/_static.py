"""Explorers for the static HTML book: precomputed states behind real page controls.

A live explorer needs a kernel.  :func:`static_explorer` instead sweeps an explorer's
most instructive controls over a grid when the notebook executes, draws every state
with the explorer's own figure code, and returns a :class:`StaticExplorer` whose HTML
form holds the pictures and a small script: sliders (with step and play buttons where
stepping or motion is the lesson) and radio buttons pick the precomputed picture.  The
page needs nothing else: no kernel, no CDN, it works from ``file://``.

Why not ``matplotlib.animation.Animation.to_jshtml``: it sweeps one parameter only,
shows a frame number rather than the parameter's value, and its buttons take their icons
from a CDN stylesheet (font-awesome), so they are blank offline.

Design of the page code:

* the pictures are PNG (palette-quantised: a few tens of kB each), stored once per
  distinct picture, and a table maps each state (one index per control, C order) to its
  picture and to a text describing it;
* the picture's ``alt`` text and a polite live region carry that description, so a
  screen reader announces each new state; every control is labelled (``aria-label``,
  ``aria-valuetext`` on sliders), and all are operable from the keyboard (arrow keys on
  sliders and radio groups, Enter/Space on buttons);
* the state's value is shown beside each control;
* the whole output is wrapped in ``<!-- static explorer -->`` markers, so that nbval can
  replace the bulky payload by a placeholder (``tests/nbval_sanitize.cfg``) and compare
  only the plain-text summary of what was precomputed.
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import itertools
import json
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import matplotlib.pyplot as plt
import numpy as np

from lecture_pkg.plotting import PIXEL_DENSITY

from ..validation import COUNT, POSITIVE, Interval, Options, validate_args

__all__ = ["Control", "StaticExplorer", "control", "grid_with", "png_bytes", "png_width",
           "static_explorer", "sweep_explorer"]

KINDS = ("slider", "steps", "choice")
START_MARK = "<!-- static explorer -->"
END_MARK = "<!-- /static explorer -->"


@dataclass(frozen=True)
class Control:
    """One swept control of a static explorer (build it with :func:`control`).

    ``key`` is the keyword passed to the render function, ``label`` what the page shows,
    ``values`` the grid, ``texts`` the displayed form of each value, ``initial`` the
    index of the starting value.  ``kind`` is ``"slider"`` (a range slider),
    ``"steps"`` (a slider with previous/next buttons, for sequential algorithms) or
    ``"choice"`` (radio buttons).  ``play`` adds a play/pause button that walks the
    slider.
    """

    key: str
    label: str
    values: tuple
    texts: tuple[str, ...]
    initial: int
    kind: str
    play: bool

    def __len__(self) -> int:
        return len(self.values)


@validate_args(kind=Options(*KINDS))
def control(key: str, values: Sequence, *, label: str | None = None, initial: object = None,
            fmt: str | Callable = "{:g}", kind: str = "slider",
            play: bool | None = None) -> Control:
    """A control swept over ``values``; ``initial`` must be one of them (default: the first).

    ``fmt`` formats a value for display (a format string or a function).  ``play``
    defaults to True for ``kind="steps"`` and False otherwise.
    """
    values = tuple(v.item() if isinstance(v, np.generic) else v for v in values)
    if len(values) < 2:
        raise ValueError(f"the control {key!r} needs at least two values, got {len(values)}")
    if initial is None:
        index = 0
    else:
        matches = [i for i, v in enumerate(values) if _same(v, initial)]
        if not matches:
            raise ValueError(f"the initial value {initial!r} of {key!r} is not among its values")
        index = matches[0]
    texts = tuple(fmt(v) if callable(fmt) else fmt.format(v) for v in values)
    return Control(key=key, label=key if label is None else label, values=values, texts=texts,
                   initial=index, kind=kind, play=(kind == "steps") if play is None else bool(play))


def _same(a, b) -> bool:
    if a is None or b is None or isinstance(a, str) or isinstance(b, str):
        return a == b
    return bool(np.isclose(a, b, rtol=1e-9, atol=0.0))


def png_width(data: bytes) -> int:
    """The width in pixels of a PNG image (from its header)."""
    return int.from_bytes(data[16:20], "big")


def png_bytes(fig, dpi: float = 100, colors: int = 256) -> bytes:
    """The figure drawn at ``dpi`` as a palette PNG (at most ``colors`` colours).

    Drawn straight from the Agg canvas (no intermediate RGBA PNG); the palette makes the
    file about a third of a full-colour PNG.
    """
    from PIL import Image

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig.set_dpi(dpi)
    # A figure redrawn in place keeps its Agg canvas, whose renderer remembers the size
    # of every text it has drawn (tick labels, titles): the next draw is faster.
    canvas = fig.canvas if type(fig.canvas) is FigureCanvasAgg else FigureCanvasAgg(fig)
    canvas.draw()
    image = Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba(),
                             "raw", "RGBA", 0, 1).convert("RGB")
    out = io.BytesIO()
    image.quantize(colors=colors, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE) \
        .save(out, format="png")
    return out.getvalue()


def grid_with(values: Sequence, value) -> list:
    """``values`` (sorted) with ``value`` inserted unless it is already one of them."""
    values = [v.item() if isinstance(v, np.generic) else v for v in values]
    if any(_same(v, value) for v in values):
        return values
    return sorted(values + [value])


class StaticExplorer:
    """Precomputed states of an explorer and their HTML form (see :func:`static_explorer`).

    Attributes
    ----------
    controls : tuple of Control
    frames : list of bytes
        The distinct pictures (PNG).
    frame_of : list of int
        For each state (C order over the controls) the index of its picture.
    texts : list of str
        For each state the text describing it (the picture's ``alt`` text).
    """

    def __init__(self, controls: Sequence[Control], frames: Sequence[bytes],
                 frame_of: Sequence[int], texts: Sequence[str], title: str = "",
                 pixel_density: int = 1) -> None:
        self.controls = tuple(controls)
        self.frames = list(frames)
        self.frame_of = list(frame_of)
        self.texts = list(texts)
        self.title = title
        self.pixel_density = int(pixel_density)

    @property
    def display_width(self) -> int:
        """Width in CSS pixels at which the pictures are shown (their pixel width divided
        by the pixel density: a picture drawn at twice the resolution is shown at half
        its pixel size, crisp on high-density screens)."""
        return png_width(self.frames[0]) // self.pixel_density

    @property
    def shape(self) -> tuple[int, ...]:
        """The number of values of each control."""
        return tuple(len(c) for c in self.controls)

    @property
    def n_states(self) -> int:
        """The number of precomputed states: the product of :attr:`shape`."""
        return int(np.prod(self.shape))

    @property
    def initial(self) -> tuple[int, ...]:
        """The index of each control's initial value: the state shown first."""
        return tuple(c.initial for c in self.controls)

    def state_index(self, position: Sequence[int]) -> int:
        """The flat (C-order) index of a state given one index per control."""
        return int(np.ravel_multi_index(tuple(position), self.shape))

    def frame(self, **values: object) -> bytes:
        """The picture of the state with these control values (all controls required)."""
        pos = []
        for c in self.controls:
            matches = [i for i, v in enumerate(c.values) if _same(v, values[c.key])]
            if not matches:
                raise ValueError(f"{values[c.key]!r} is not a precomputed value of {c.key!r}")
            pos.append(matches[0])
        return self.frames[self.frame_of[self.state_index(pos)]]

    @property
    def nbytes(self) -> int:
        """Size of the HTML payload in bytes (what the page gains)."""
        return len(self.html().encode())

    def summary(self) -> str:
        """What was precomputed, in short lines that do not depend on the machine."""
        sizes = " x ".join(str(n) for n in self.shape)
        lines = [f"static explorer{': ' + self.title if self.title else ''} -- "
                 f"{self.n_states} precomputed states ({sizes})"]
        for c in self.controls:
            shown = list(c.texts)
            if len(shown) > 8:
                shown = shown[:3] + ["..."] + shown[-3:]
            lines.append(f"  {c.label}: {len(c)} values {', '.join(shown)}; "
                         f"starts at {c.texts[c.initial]}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.summary()

    def _repr_html_(self) -> str:
        return self.html()

    def html(self) -> str:
        """The self-contained HTML: controls, the initial picture, the data and the script."""
        uid = "lpx-" + hashlib.sha1((self.summary() + str(self.frame_of)).encode()).hexdigest()[:10]
        first = self.state_index(self.initial)
        data = {
            "shape": list(self.shape),
            "initial": list(self.initial),
            "frames": [base64.b64encode(f).decode("ascii") for f in self.frames],
            "frameOf": self.frame_of,
            "texts": self.texts,
            "controls": [{"label": c.label, "texts": list(c.texts),
                          "kind": c.kind} for c in self.controls],
        }
        rows = "\n".join(_control_html(uid, i, c) for i, c in enumerate(self.controls))
        payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")
        return (
            f"{START_MARK}\n"
            f'<div class="lpx" id="{uid}" role="group" '
            f'aria-label="{html.escape(self.title or "explorer", quote=True)} '
            '(precomputed states)">\n'
            f"<style>{_CSS}</style>\n"
            f'<div class="lpx-controls">\n{rows}\n</div>\n'
            f'<p class="lpx-status" aria-live="polite">{html.escape(self.texts[first])}</p>\n'
            f'<img class="lpx-picture" width="{self.display_width}" '
            f'alt="{html.escape(self.texts[first], quote=True)}" '
            f'src="data:image/png;base64,{data["frames"][self.frame_of[first]]}">\n'
            f'<script type="application/json" class="lpx-data">{payload}</script>\n'
            f"<script>{_JS}\nlpxStart({json.dumps(uid)});</script>\n"
            f"</div>\n{END_MARK}"
        )


def _control_html(uid: str, i: int, c: Control) -> str:
    label = html.escape(c.label)
    value = html.escape(c.texts[c.initial])
    if c.kind == "choice":
        options = "".join(
            f'<label class="lpx-choice"><input type="radio" name="{uid}-c{i}" value="{k}"'
            f'{" checked" if k == c.initial else ""}> {html.escape(t)}</label>'
            for k, t in enumerate(c.texts))
        return (f'<div class="lpx-row" data-control="{i}" role="radiogroup" aria-label="{label}">'
                f'<span class="lpx-label">{label}</span>{options}</div>')
    buttons_before = buttons_after = ""
    if c.kind == "steps":
        buttons_before = (f'<button type="button" class="lpx-prev" aria-label="previous {label}" '
                          f'title="previous">&#9664;</button>')
        buttons_after = (f'<button type="button" class="lpx-next" aria-label="next {label}" '
                         f'title="next">&#9654;</button>')
    if c.play:
        buttons_after += (f'<button type="button" class="lpx-play" aria-label="play {label}" '
                          f'aria-pressed="false">play</button>')
    return (f'<div class="lpx-row" data-control="{i}">'
            f'<label class="lpx-label" for="{uid}-c{i}">{label}</label>{buttons_before}'
            f'<input type="range" id="{uid}-c{i}" min="0" max="{len(c) - 1}" step="1" '
            f'value="{c.initial}" aria-valuetext="{html.escape(c.texts[c.initial], quote=True)}">'
            f'{buttons_after}<output class="lpx-value" for="{uid}-c{i}">{value}</output></div>')


@validate_args(render="callable", describe=["callable", None], dpi=POSITIVE, pixel_density=COUNT,
               colors=Interval(numbers.Integral, 1, 256))
def static_explorer(render: Callable, controls: Sequence[Control], *,
                    describe: Callable | None = None,
                    title: str = "", dpi: float = 100,
                    pixel_density: int = PIXEL_DENSITY, colors: int = 256) -> StaticExplorer:
    """Sweep ``controls`` over their grids and draw each state with ``render``.

    Parameters
    ----------
    render : callable
        ``render(**state)`` sets the explorer to ``state`` (one value per control key)
        and returns a matplotlib Figure; the same figure code as the live widget.  The
        figure is closed after saving.  States are visited in C order (the last control
        fastest), so a sequential algorithm can step on from the previous state.
    controls : sequence of Control
    describe : callable, optional
        ``describe(**state)``, called right after ``render``, returns the text describing
        the state (the picture's alt text and the page's status line).  By default the
        controls' values.
    title : str
        Name of the explorer, used in the summary and the ARIA label.
    dpi : float
        Displayed resolution of the pictures: a figure ``w`` inches wide is shown
        ``w * dpi`` CSS pixels wide (keep it within the text column,
        :data:`lecture_pkg.plotting.COLUMN_WIDTH_IN`).
    pixel_density : int
        Image pixels per displayed pixel; the pictures are drawn at
        ``dpi * pixel_density``.
    colors : int
        At most this many colours per picture (``png_bytes``); fewer colours make
        lighter pages for pictures with large shaded regions.
    """
    controls = tuple(controls)
    if not controls:
        raise ValueError("a static explorer needs at least one control")
    keys = [c.key for c in controls]
    if len(set(keys)) != len(keys):
        raise ValueError(f"control keys must be distinct, got {keys}")
    frames, frame_of, texts, seen = [], [], [], {}
    for position in itertools.product(*(range(len(c)) for c in controls)):
        state = {c.key: c.values[i] for c, i in zip(controls, position)}
        fig = render(**state)
        try:
            data = png_bytes(fig, dpi=dpi * pixel_density, colors=colors)
        finally:
            plt.close(fig)
        text = describe(**state) if describe is not None else ", ".join(
            f"{c.label} = {c.texts[i]}" for c, i in zip(controls, position))
        key = hashlib.sha1(data).digest()
        if key not in seen:
            seen[key] = len(frames)
            frames.append(data)
        frame_of.append(seen[key])
        texts.append(text)
    return StaticExplorer(controls, frames, frame_of, texts, title=title,
                          pixel_density=pixel_density)


def sweep_explorer(explorer, set_state: Callable, controls: Sequence[Control], *,
                   restore: Callable, title: str, describe: Callable | None = None,
                   colors: int = 256, redraw: Callable | None = None) -> StaticExplorer:
    """:func:`static_explorer` for an explorer object of this package.

    Each state is set by ``set_state(**state)``, drawn by ``explorer.figure()`` (the
    live widget's picture) and described by ``explorer.status()`` (or ``describe()``);
    ``restore()`` puts the explorer back as it was, also when a state fails; ``colors``
    bounds the colours per picture (``png_bytes``).

    ``redraw(fig)``, if given, brings a figure that ``explorer.figure()`` drew for an
    earlier state up to the current one in place, changing only the artists the state
    changes.  The first state is then drawn in a new figure and every later one by
    ``redraw``, which saves building each figure and its layout again; the pictures
    must be those of new figures (the explorer's tests compare them).
    """
    describe = explorer.status if describe is None else describe
    drawn = []

    def render(**state):
        set_state(**state)
        if redraw is None or not drawn:
            drawn[:] = [explorer.figure()]
        else:
            redraw(drawn[0])
        return drawn[0]

    try:
        return static_explorer(render, controls, describe=lambda **_: describe(), title=title,
                               colors=colors)
    finally:
        restore()


_CSS = """
.lpx{margin:0.5em 0 1em 0}
.lpx-controls{display:flex;flex-wrap:wrap;gap:0.3em 1.5em;align-items:center;font-size:0.9em}
.lpx-row{display:flex;flex-wrap:wrap;align-items:center;gap:0.4em}
.lpx-label{font-weight:600}
.lpx-row input[type=range]{width:11em;max-width:60vw}
.lpx-row button{font:inherit;padding:0.1em 0.6em;border:1px solid #888;border-radius:4px;
 background:#f4f4f4;color:#222;cursor:pointer;min-width:2.2em}
.lpx-row button:focus-visible,\
.lpx-row input:focus-visible{outline:2px solid #1f5fa8;outline-offset:2px}
.lpx-value{font-variant-numeric:tabular-nums;min-width:4em}
.lpx-choice{margin-right:0.6em;cursor:pointer}
.lpx-status{font-size:0.85em;margin:0.4em 0;min-height:1.3em}
.lpx-picture{max-width:100%;height:auto;display:block;background:#fff}
"""

_JS = r"""
function lpxStart(id){
  var root=document.getElementById(id);
  if(!root||root.dataset.ready){return;}
  root.dataset.ready="1";
  var data=JSON.parse(root.querySelector("script.lpx-data").textContent);
  var pos=data.initial.slice(), img=root.querySelector("img.lpx-picture");
  var status=root.querySelector(".lpx-status"), timer=null;
  var rows=root.querySelectorAll(".lpx-row");
  function flat(){var k=0;for(var i=0;i<pos.length;i++){k=k*data.shape[i]+pos[i];}return k;}
  function show(){
    var s=flat(), text=data.texts[s];
    img.src="data:image/png;base64,"+data.frames[data.frameOf[s]];
    img.alt=text; status.textContent=text;
    rows.forEach(function(row){
      var i=+row.dataset.control, c=data.controls[i], v=c.texts[pos[i]];
      var range=row.querySelector("input[type=range]");
      if(range){range.value=pos[i];range.setAttribute("aria-valuetext",v);
        row.querySelector("output").textContent=v;}
      else{row.querySelectorAll("input[type=radio]").forEach(function(r){
        r.checked=(+r.value===pos[i]);});}
    });
  }
  function set(i,k){pos[i]=Math.max(0,Math.min(data.shape[i]-1,k));show();}
  function stop(){
    if(timer!==null){clearInterval(timer);timer=null;}
    root.querySelectorAll(".lpx-play").forEach(function(b){
      b.textContent="play";b.setAttribute("aria-pressed","false");});
  }
  rows.forEach(function(row){
    var i=+row.dataset.control, range=row.querySelector("input[type=range]");
    if(range){range.addEventListener("input",function(){set(i,+range.value);});}
    row.querySelectorAll("input[type=radio]").forEach(function(r){
      r.addEventListener("change",function(){if(r.checked){set(i,+r.value);}});});
    var prev=row.querySelector(".lpx-prev"), next=row.querySelector(".lpx-next");
    if(prev){prev.addEventListener("click",function(){stop();set(i,pos[i]-1);});}
    if(next){next.addEventListener("click",function(){stop();set(i,pos[i]+1);});}
    var play=row.querySelector(".lpx-play");
    if(play){play.addEventListener("click",function(){
      if(timer!==null){stop();return;}
      if(pos[i]>=data.shape[i]-1){set(i,0);}
      play.textContent="pause";play.setAttribute("aria-pressed","true");
      timer=setInterval(function(){
        if(pos[i]>=data.shape[i]-1){stop();return;}
        set(i,pos[i]+1);},700);
    });}
  });
  show();
}
"""
