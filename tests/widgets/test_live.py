"""Tests of lecture_pkg.widgets._live: the live explorers' widgets, their one-line hint, the
rate sliders, and the picture redrawn in place."""

import json
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pytest

from lecture_pkg import datasets
from lecture_pkg.widgets import HopfieldExplorer, MEstimateExplorer, PerceptronExplorer, ROCExplorer
from lecture_pkg.widgets._live import LIVE_HINT, live_box, one_two_five, rate_slider


BOOK = Path(__file__).resolve().parents[2] / "book"


def _text(widget) -> str:
    """What a notebook stores (and shows before it runs) for the widget: its text/plain."""
    return widget._repr_mimebundle_()["text/plain"]


# ----------------------------------------------------------------- the stored text

def test_a_live_box_reads_as_one_line_not_as_its_widget_tree():
    import ipywidgets as widgets

    box = live_box([widgets.HBox([widgets.Button(description="Go")])], "ToyExplorer")
    assert isinstance(box, widgets.VBox) and box.children[0].children[0].description == "Go"
    text = _text(box)
    assert text == LIVE_HINT.format(name="ToyExplorer")
    assert "\n" not in text and len(text) <= 110 and "VBox" not in text
    assert "application/vnd.jupyter.widget-view+json" in box._repr_mimebundle_()


@pytest.mark.parametrize("make", [
    lambda: PerceptronExplorer(*datasets.koski_example(), eta=0.2),
    lambda: MEstimateExplorer(m=2.0, p=1 / 3),
    lambda: ROCExplorer(np.r_[np.zeros(10), np.ones(10)], np.linspace(-1, 2, 20)),
    lambda: HopfieldExplorer(side=8, alpha=0.05, corruption=0.1, random_state=1, max_sweeps=5),
], ids=["perceptron", "m-estimate", "roc", "hopfield"])
def test_every_explorers_widget_reads_as_the_hint(make):
    explorer = make()
    assert _text(explorer.widget()) == LIVE_HINT.format(name=type(explorer).__name__)


def test_every_explorer_module_builds_its_widget_with_the_hint():
    """All ten explorers return ``live_box(...)`` (the four above are built for real)."""
    sources = sorted((Path(__file__).resolve().parents[2] / "lecture_pkg" / "widgets").glob("*.py"))
    with_widget = [p for p in sources if "def widget(self)" in p.read_text()]
    assert len(with_widget) == 10
    bare = [p.name for p in with_widget if "return live_box(" not in p.read_text()
            or "return widgets.VBox(" in p.read_text()]
    assert not bare, f"widget() not wrapped in live_box: {bare}"


LIVE_NOTEBOOKS = sorted(p for p in BOOK.rglob("*.ipynb")
                        if ".widget()" in p.read_text(encoding="utf-8")
                        and ".ipynb_checkpoints" not in p.parts)


@pytest.mark.parametrize("path", LIVE_NOTEBOOKS, ids=[p.stem for p in LIVE_NOTEBOOKS])
def test_the_notebook_stores_the_hint_for_its_live_cell(path):
    """The stored output of each live cell is the hint (after `make refresh`)."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    live = [c for c in cells if c["cell_type"] == "code" and "widget()" in "".join(c["source"])]
    assert live
    for cell in live:
        texts = ["".join(o.get("data", {}).get("text/plain", ""))
                 for o in cell.get("outputs", [])]
        assert len(texts) == 1 and texts[0].endswith(LIVE_HINT.format(name="")[1:]), (
            f"{path.name}: the live cell stores {texts!r}; re-execute the notebook "
            "(`python -m tools.refresh book <notebook>`)")


# ----------------------------------------------------------------- rates on the grid

def test_one_two_five_is_decimal_and_bounded():
    assert one_two_five(0.01, 10) == [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0]
    assert one_two_five(0.001, 1)[:3] == [0.001, 0.002, 0.005]
    assert 0.2 in one_two_five(0.01, 10) and 0.3 not in one_two_five(0.01, 10)


def test_the_rate_slider_starts_exactly_at_the_value_and_inserts_an_off_grid_one():
    slider = rate_slider(0.2, 0.01, 10, "eta")
    assert slider.value == 0.2 and slider.label == "0.2"
    off = rate_slider(0.3, 0.01, 10, "eta")
    values = [v for _, v in off.options]
    assert off.value == 0.3 and values == sorted(values) and values.count(0.3) == 1


# ----------------------------------------------------------------- the live picture

def test_the_live_picture_is_drawn_once_per_redraw_and_replaced_in_place():
    from lecture_pkg.plotting import PIXEL_DENSITY
    from lecture_pkg.widgets._live import live_figure
    from lecture_pkg.widgets._static import png_width

    grey = [0.2]

    def make():
        fig = plt.figure(figsize=(2.0, 1.0))
        fig.patch.set_facecolor(str(grey[0]))
        return fig

    before = len(plt.get_fignums())
    image, redraw = live_figure(make)
    redraw()
    first = image.value
    assert first[:8] == b"\x89PNG\r\n\x1a\n" and image.format == "png"
    assert png_width(first) == 200 * PIXEL_DENSITY and image.width == "200"   # shown at 2 in
    grey[0] = 0.8
    redraw()
    assert image.value != first and len(plt.get_fignums()) == before      # no figure left open
