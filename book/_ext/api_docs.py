"""Sphinx extension: the package's docstrings as a student reads them in the API reference.

* A named tuple's fields carry Python's generated docstring "Alias for field number N",
  which says nothing to a reader; the fields are described in the class's own docstring,
  so these entries are left out.
* The docstrings' references end with ``(bib key: ...)``, the key of the source in
  ``book/references.bib`` for whoever maintains the package; the reference drops it.
"""

from __future__ import annotations

import re

_BIB_KEY = re.compile(r"\s*\(bib key: [^)]*\)")


def _skip_field_aliases(app, what, name, obj, skip, options):
    if (getattr(obj, "__doc__", None) or "").startswith("Alias for field number"):
        return True
    return None


def _drop_bib_keys(app, what, name, obj, options, lines):
    lines[:] = [_BIB_KEY.sub("", line) for line in lines]


def setup(app):
    app.connect("autodoc-skip-member", _skip_field_aliases)
    app.connect("autodoc-process-docstring", _drop_bib_keys)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
