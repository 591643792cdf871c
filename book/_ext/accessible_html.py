"""Sphinx extension: accessible markup where the HTML writer's own fails axe-core.

Docutils writes a bibliography as ``<div role="list" class="citation-list">`` whose
entries carry ``role="doc-biblioentry"``.  ARIA 1.2 deprecates that role, and a list must
own list items, so axe-core reports a critical ``aria-required-children`` violation on
the Bibliography page.  Each entry becomes a ``listitem`` of the list it already is in.
"""

import re

_BIBLIOENTRY = re.compile(r'(<div class="citation" id="[^"]*") role="doc-biblioentry"')


def accessible_body(body: str) -> str:
    """``body`` with every bibliography entry marked as a list item."""
    return _BIBLIOENTRY.sub(r'\1 role="listitem"', body)


def _fix(app, pagename, templatename, context, doctree):
    if "body" in context:
        context["body"] = accessible_body(context["body"])


def setup(app):
    app.connect("html-page-context", _fix)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
