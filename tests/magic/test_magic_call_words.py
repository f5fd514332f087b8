"""How ``%mcp call`` reads its line: a key=value value is typed by the tool's schema (digits stay
text for a string), and a tab separates words as a space does."""

from __future__ import annotations

from IPython.core.interactiveshell import InteractiveShell

from anvia_nb.display import ResultView
from tests.helpers.magic import run


def test_key_value_digits_stay_text_when_the_tool_wants_a_string(ip: InteractiveShell, demo: str) -> None:
    view = run(ip, "call demo.echo message=123")
    assert isinstance(view, ResultView)
    assert view.output == "123"
    assert run(ip, "call demo.add a=2 b=3").structured == {"sum": 5}


def test_a_tab_separates_words_like_a_space(ip: InteractiveShell, demo: str) -> None:
    assert run(ip, "call\tdemo.echo\tmessage=tabbed").output == "tabbed"
