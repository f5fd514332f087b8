"""A pytest plugin loaded first (``-p tests.helpers.jsonschema_first`` in pyproject's addopts): jsonschema as
anvia_nb imports it, without the IRI grammar that costs two seconds of CPU per process.

nbval's nbformat imports jsonschema as pytest loads its plugins, in the main process and in every
xdist worker, before any conftest; this plugin is loaded before nbval, so it goes first.
"""

from anvia_nb.core.protocol.schema import import_jsonschema

import_jsonschema()
