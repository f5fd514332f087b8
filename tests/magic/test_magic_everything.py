"""Resources, templates, prompts, completion and resource links of a server nobody here wrote:
@modelcontextprotocol/server-everything from npm, cached by scripts/setup-test (the test installs
nothing; without it the test is skipped with the reason, except in CI, where it fails)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from IPython.core.error import UsageError
from IPython.core.interactiveshell import InteractiveShell
from magic_helpers import run
from support import npm_servers, require_setup

from anvia_nb.magic._help import completions_for_line
from anvia_nb.runtime import get_runtime

pytestmark = pytest.mark.thirdparty


@pytest.fixture(scope="module")
def everything() -> str:
    folder = npm_servers()
    require_setup(folder / "anvia-ready", "@modelcontextprotocol/server-everything")
    executable = folder / "node_modules" / ".bin" / "mcp-server-everything"
    assert executable.exists(), f"{executable} is missing: run scripts/setup-test again"
    return str(executable)


def test_server_everything_resources_prompts_completion_and_links(
    ip: InteractiveShell, everything: str, live_children: Callable[[], set[int]], eventually: Callable[..., None]
) -> None:
    before = live_children()
    run(ip, f"connect every --stdio {everything} stdio")
    try:
        resources = run(ip, "resources every")
        assert len(resources) >= 5 and resources["uri"].str.startswith("demo://resource/").all()
        templates = run(ip, "templates every")
        assert "demo://resource/dynamic/text/{resourceId}" in set(templates["uriTemplate"])
        first = resources.iloc[0]["uri"]
        read = run(ip, f"read every {first}")
        assert read.text and "read from server every" in read._repr_mimebundle_()["text/html"]
        dynamic = run(ip, 'read every "Dynamic Text Resource" resourceId=2')
        assert dynamic.uri == "demo://resource/dynamic/text/2" and "Resource 2" in str(dynamic.text)

        prompts = run(ip, "prompts every")
        assert {"simple-prompt", "args-prompt", "completable-prompt", "resource-prompt"} <= set(prompts["name"])
        weather = run(ip, "prompt every.args-prompt city=Oslo")
        assert "Oslo" in weather.messages[0]["content"]["text"]
        embedded = run(ip, "prompt every.resource-prompt resourceType=Text resourceId=1")
        assert "resource from server every: demo://resource/dynamic/text/1" in embedded._repr_mimebundle_()["text/html"]
        with pytest.raises(UsageError, match="every.args-prompt was not asked for: it needs city"):
            run(ip, "prompt every.args-prompt state=Oslo")

        runtime = get_runtime()
        line = "%mcp prompt every.completable-prompt department=Engineering name="
        assert completions_for_line(line, runtime) == ["name=Alice", "name=Bob", "name=Charlie"]
        assert "department=Sales" in completions_for_line("%mcp prompt every.completable-prompt department=S", runtime)

        links = run(ip, "call every.get-resource-links count=2")
        assert len(links.links) == 2 and "(not fetched)" in links._repr_mimebundle_()["text/html"]
        on_request = links.read_link(1)
        assert on_request.uri == links.links[1]["uri"]
        assert "read on request from server every" in on_request._repr_mimebundle_()["text/html"]
    finally:
        run(ip, "close every")
    eventually(lambda: live_children() <= before, 30, "server-everything to exit")
