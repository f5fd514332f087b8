"""Importing jsonschema quickly: without the optional IRI grammar it would build at import.

jsonschema builds the grammar of ``rfc3987_syntax`` (two seconds of CPU or more) when it is
installed, for the ``iri`` formats that no check of anvia_nb or its demo server uses. Everything
here that needs jsonschema imports it through :func:`import_jsonschema` first.
"""

from __future__ import annotations

import sys

__all__ = ["import_jsonschema"]

_SKIPPED_GRAMMAR = "rfc3987_syntax"


# Kept (issue 27): a fresh process's first call checked by jsonschema: 0.22 s with it, 1.7 s without.
def import_jsonschema() -> None:
    """Import jsonschema, leaving out the optional IRI grammar it would build at import.

    Only while jsonschema itself is imported (and only if nothing imported the grammar before):
    a later ``import rfc3987_syntax`` works as usual.
    """
    if "jsonschema" in sys.modules:
        return
    skip = _SKIPPED_GRAMMAR not in sys.modules
    if skip:
        # None in sys.modules makes the import fail (documented by importlib); typeshed types the
        # dict's values as modules only.
        sys.modules[_SKIPPED_GRAMMAR] = None  # type: ignore[assignment]  # typeshed: modules only
    try:
        import jsonschema  # noqa: F401
    finally:
        if skip and sys.modules.get(_SKIPPED_GRAMMAR, 0) is None:
            del sys.modules[_SKIPPED_GRAMMAR]
