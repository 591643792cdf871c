"""Sphinx extension: drop duplicate <script> entries from each page.

sphinx-thebe (loaded by every Jupyter Book 1.x build) registers an inline script that
declares ``const THEBE_JS_URL``; with Sphinx 7.4 it reaches every page twice, and the
second copy is a JavaScript SyntaxError ("Identifier 'THEBE_JS_URL' has already been
declared").  This keeps the first of any identical script entries.
"""


def _script_key(script):
    filename = getattr(script, "filename", script) or ""
    attributes = getattr(script, "attributes", {}) or {}
    return str(filename), tuple(sorted((k, str(v)) for k, v in attributes.items()))


def unique_scripts(scripts):
    """The scripts in order, without repeats of an identical file or inline body."""
    seen, kept = set(), []
    for script in scripts:
        key = _script_key(script)
        if key not in seen:
            seen.add(key)
            kept.append(script)
    return kept


def _dedupe(app, pagename, templatename, context, doctree):
    if "script_files" in context:
        context["script_files"] = unique_scripts(context["script_files"])


def setup(app):
    app.connect("html-page-context", _dedupe)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
