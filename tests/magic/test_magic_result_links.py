"""A valid ``resource_link`` result leads with what the server sent: its header counts the links,
the links follow (read only on request), and the mapping's refusal is a note at the end, never an
error block or the header. The mapping itself still refuses it (``tool.call`` raises)."""

from __future__ import annotations

import pytest
from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.errors import UNSUPPORTED_CONTENT_MESSAGE, UnsupportedContentError
from anvia_nb.runtime import get_runtime
from tests.helpers.display import assert_safe_html
from tests.helpers.magic import run


def test_a_resource_link_result_leads_with_the_link_and_notes_the_refusal(ip: InteractiveShell, demo: str) -> None:
    result = run(ip, "call demo.resource_link")
    bundle = result._repr_mimebundle_()
    plain: str = bundle["text/plain"]
    lines = plain.splitlines()
    assert lines[0].startswith("[MCP demo · resource_link] 1 resource link")
    assert lines[1] == "--- resource link from server demo (not fetched) ---"
    assert "UnsupportedContentError" not in lines[0] and "--- error ---" not in plain
    assert lines[-1].startswith(f"{UNSUPPORTED_CONTENT_MESSAGE}: resource_link. Anvia's mapping refuses it")
    assert plain.count(UNSUPPORTED_CONTENT_MESSAGE) == 1  # said once, as the note
    audit = assert_safe_html(bundle["text/html"])
    assert audit.text_by_class["anvia-status"] == "1 resource link"
    assert ">error</div>" not in bundle["text/html"]  # no error block
    assert result.links[0]["uri"] == "demo://notes/1" and result.read_link(0).text
    assert isinstance(result.error, UnsupportedContentError) and result.output is None  # the mapping still refuses


def test_the_mapping_still_raises_for_it(demo: str) -> None:
    server = get_runtime().server("demo")
    with pytest.raises(UnsupportedContentError):
        get_runtime().run(server.tool("resource_link").call({}))
