"""Tests of the book's local Sphinx extension (book/_ext)."""

import importlib.util
from pathlib import Path

from sphinx.builders.html._assets import _JavaScript

spec = importlib.util.spec_from_file_location(
    "dedupe_scripts", Path(__file__).resolve().parents[2] / "book" / "_ext" / "dedupe_scripts.py")
dedupe_scripts = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dedupe_scripts)


def test_identical_inline_scripts_are_kept_once():
    inline = _JavaScript("", body='const THEBE_JS_URL = "x"')
    scripts = [_JavaScript("a.js"), inline, _JavaScript("", body='const THEBE_JS_URL = "x"'),
               _JavaScript("b.js", **{"async": "async"}), _JavaScript("b.js")]
    kept = dedupe_scripts.unique_scripts(scripts)
    assert [(s.filename, s.attributes.get("body")) for s in kept] == [
        ("a.js", None), ("", 'const THEBE_JS_URL = "x"'), ("b.js", None), ("b.js", None)]
    assert kept[2].attributes == {"async": "async"}


def test_plain_strings_are_handled():
    assert dedupe_scripts.unique_scripts(["a.js", "a.js", "b.js"]) == ["a.js", "b.js"]


_spec = importlib.util.spec_from_file_location(
    "accessible_html", Path(__file__).resolve().parents[2] / "book" / "_ext" / "accessible_html.py")
accessible_html = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(accessible_html)


def test_figures_get_the_description_their_notebook_stored(tmp_path):
    import base64
    import hashlib
    import json

    png = b"\x89PNG fake bytes"
    digest = hashlib.sha256(png).hexdigest()
    nb = {"cells": [{"cell_type": "code", "source": "", "metadata": {}, "outputs": [
        {"output_type": "display_data",
         "data": {"image/png": base64.b64encode(png).decode()},
         "metadata": {"image/png": {"width": 300, "alt": 'Figure: "errors" < 1 & more.'}}}]}]}
    (tmp_path / "c.ipynb").write_text(json.dumps(nb))
    descriptions = accessible_html.figure_descriptions([tmp_path / "c.ipynb"])
    assert descriptions == {digest: 'Figure: "errors" < 1 & more.'}
    body = (f'<img alt="../_images/{digest}.png" src="../_images/{digest}.png" />'
            f'<img alt="x" src="../_images/{"0" * 64}.png" />'
            '<summary aria-label="Toggle hidden content"><span>Show code cell source</span>')
    out = accessible_html.accessible_body(body, descriptions)
    assert 'alt="Figure: &quot;errors&quot; &lt; 1 &amp; more."' in out
    assert 'alt="x"' in out                                # a figure without a description
    assert out.count('loading="lazy"') == 2
    explorer = accessible_html.accessible_body('<img class="lpx-picture" alt="eta = 1" src="x">')
    assert "loading" not in explorer
    assert "aria-label" not in out


def test_a_page_is_described_by_its_first_real_paragraph():
    body = ("<p>Short.</p><p>The perceptron <em>learns</em> a separating hyperplane from "
            "examples &amp; stops when every example is on its side.</p>")
    assert accessible_html.page_description(body) == (
        "The perceptron learns a separating hyperplane from examples & stops when every "
        "example is on its side.")
    long = "<p>" + "word " * 60 + "</p>"
    text = accessible_html.page_description(long)
    assert len(text) <= 155 and text.endswith("…")
    assert accessible_html.page_description("<p>x</p>", "Title") == "Title"


def test_the_index_of_theorems_names_its_columns_once():
    page = '<p>x</p><table class="indextable modindextable">\n<tr><td></td><td>a</td></tr></table>'
    once = accessible_html.index_with_header(page)
    assert once.count("<thead>") == 1 and '<th scope="col">Kind</th>' in once
    assert once.index("<thead>") < once.index("<tr><td>")
    assert accessible_html.index_with_header(once) == once
    assert accessible_html.index_with_header("<table>") == "<table>"


def test_generated_pages_get_a_description_from_their_title():
    for page, title, expected in (("prf-prf", "Proof Index", "Proof Index of Book: each entry"),
                                  ("search", "Search", "Search Book.")):
        context = {"title": title, "docstitle": "Book"}
        accessible_html._fix(None, page, "page.html", context, None)
        assert f'<meta name="description" content="{expected}' in context["metatags"]
