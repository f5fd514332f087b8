"""URI templates as resource templates use them: variables, expansion (escaped), loose matching."""

from __future__ import annotations

import pytest

from anvia_nb.core.protocol.uri_template import expand, matches, variables
from anvia_nb.errors import ArgumentValidationError


def test_variables_expansion_and_matching() -> None:
    template = "demo://notes/{id}{?lang,format}"
    assert variables(template) == ["id", "lang", "format"]
    assert expand(template, {"id": "a b/c"}) == "demo://notes/a%20b%2Fc"  # a value cannot add a path
    assert expand(template, {"id": "1", "lang": "nb", "format": "md"}) == "demo://notes/1?lang=nb&format=md"
    assert expand("file://{+path}", {"path": "/tmp/x y"}) == "file:///tmp/x%20y"
    assert expand("x{/a,b}", {"a": "1", "b": "2"}) == "x/1/2"
    assert matches(template, "demo://notes/7") and matches(template, "demo://notes/7?lang=nb")
    assert not matches(template, "demo://notes/7/8") and not matches(template, "demo://other/7")


def test_a_missing_or_unknown_variable_is_one_line_that_says_what_to_give() -> None:
    with pytest.raises(ArgumentValidationError, match=r"needs id; give id=VALUE\.$"):
        expand("demo://notes/{id}", {})
    with pytest.raises(ArgumentValidationError, match=r"has no variable x\. It takes: id\.$"):
        expand("demo://notes/{id}", {"id": "1", "x": "2"})
