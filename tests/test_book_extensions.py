"""Tests of the book's local Sphinx extension (book/_ext)."""

import importlib.util
from pathlib import Path

from sphinx.builders.html._assets import _JavaScript

spec = importlib.util.spec_from_file_location(
    "dedupe_scripts", Path(__file__).resolve().parents[1] / "book" / "_ext" / "dedupe_scripts.py")
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
