"""The panel's Resources tab: a connection's resources and templates, read on request.

Pick a resource and press Read, or pick a template, fill its variables (the server suggests
values as you type) and press Read. The contents show below as ``%mcp read`` shows them
(escaped, images checked, blobs as their size), with their provenance; ``last_read`` is the
:class:`~anvia_nb.display.ReadView` for Python (``.contents``, ``.text``, ``.save(i, path)``).
Every server string in the lists is plain text through the connection's show policy.

A dashboard's panel offers only the resources and templates its author named (``offered``: URIs,
uriTemplates or names): the lists hold those alone, and a read checks again, in the kernel, that
what is read is one of them, whatever a browser sent.
"""

from __future__ import annotations

import concurrent.futures

import ipywidgets as widgets

from anvia_nb.core import McpServer
from anvia_nb.core.protocol.types import JsonObject
from anvia_nb.core.protocol.uri_template import query_variables, variables
from anvia_nb.display import ReadView
from anvia_nb.display.chrome import OPTION_CHARS
from anvia_nb.errors import AnviaError
from anvia_nb.policy import ShowPolicy
from anvia_nb.widgets._chrome import error_output, plain, shown_output
from anvia_nb.widgets.explorer.listing import BoundedList, ListingTab, item_select
from anvia_nb.widgets.explorer.subscribe_toggle import SubscribeToggle
from anvia_nb.widgets.fields.completing import CompletingFields

__all__ = ["ResourcesTab"]


def _label(item: JsonObject, key: str, policy: ShowPolicy) -> str:
    name, where = item.get("title") or item.get("name"), item.get(key)
    return f"{plain(name, policy, OPTION_CHARS)} — {plain(where, policy, OPTION_CHARS)}"


class ResourcesTab(ListingTab):
    """Resources and templates of the chosen connection (``offered``: the URIs, uriTemplates or
    names offered); display ``.widget``."""

    def _build(self) -> None:
        self.resources: list[JsonObject] = []
        self.templates: list[JsonObject] = []
        self.last_read: ReadView | None = None
        self.resource_list = item_select("Resources", 6)
        self.template_list = item_select("Templates", 3)
        viewers = self.settings.hide_server_errors  # nothing to type for a viewer
        self.listed_resources = BoundedList(
            self.resource_list, "resources", "" if viewers else "read any other with %mcp read NAME URI"
        )
        how = "read from any other with %mcp read NAME TEMPLATE var=value"
        self.listed_templates = BoundedList(self.template_list, "templates", "" if viewers else how)
        self.read_button = widgets.Button(
            description="Read",
            icon="book",
            disabled=True,
            tooltip="read the chosen resource (or the template with its variables)",
        )
        self.subscription = SubscribeToggle(self.runtime, lambda exc: self._error(exc))
        """The Subscribe toggle and update count of the chosen resource (subscribe_toggle.py)."""
        self.resource_list.observe(lambda _c: self._chose("resource"), names="value")
        self.template_list.observe(lambda _c: self._chose("template"), names="value")
        self.read_button.on_click(lambda _b: self.read())
        lists = [self.resource_list, self.listed_resources.note, self.template_list, self.listed_templates.note]
        self.widget = self._layout(lists, self.read_button, below=[self.subscription.widget])

    def show(self, server: McpServer | None) -> concurrent.futures.Future[None] | None:
        """List ``server``'s resources and templates (nothing when ``None``), on the runtime's loop:
        callable from any thread (a connection event arrives on the loop's own). Returns the
        listing under way (``.listing`` too), which callers may wait on."""
        kept = self.subscription.uri if server is self.server else None  # a re-listing keeps the choice
        self.server = server
        self.policy = self.settings.policy(tuple(server.secrets) if server is not None else ())
        self._listed(server, [], [])
        if server is None:
            return None

        async def both() -> None:
            # Each listing on its own: a server that lists resources but fails resources/templates/list
            # (many do not implement it) still shows its resources, with the one error below.
            failed: list[AnviaError] = []
            listed: list[list[JsonObject]] = []
            for listing in (server.resources, server.resource_templates):
                try:
                    listed.append(await listing())
                except AnviaError as exc:
                    failed.append(exc)
                    listed.append([])
            self._listed(server, *listed)
            notes = [server.client.listing_notes.get(key, "") for key in ("resources", "resourceTemplates")]
            shown = [error_output(exc, self.policy) for exc in failed] + [
                {"output_type": "display_data", "metadata": {}, "data": {"text/plain": self.policy.text(note)}}
                for note in notes
                if note
            ]  # a listing the server refuses (-32601) is empty, and its note says so
            if shown and server is self.server:
                self.output.outputs = tuple(shown)
            if kept is not None and server is self.server:
                self.select(kept)

        self.listing = self.runtime.loop.submit(both())
        return self.listing

    def _listed(self, server: McpServer | None, resources: list[JsonObject], templates: list[JsonObject]) -> None:
        if server is not self.server:
            return  # another connection was chosen meanwhile
        resources = [item for item in resources if self._offers(item, "uri")]
        templates = [item for item in templates if self._offers(item, "uriTemplate")]
        self.resources, self.templates = resources, templates
        self.listed_resources.show(resources, lambda r: _label(r, "uri", self.policy))
        self.listed_templates.show(templates, lambda t: _label(t, "uriTemplate", self.policy))
        self.resource_list.value = self.template_list.value = None
        self._chose("")

    def _offers(self, item: JsonObject, key: str) -> bool:
        return self.offered is None or item.get(key) in self.offered or item.get("name") in self.offered

    def select(self, uri_or_template: str) -> None:
        """Choose a resource by URI, or a template by uriTemplate or name, as a person would."""
        for index, item in enumerate(self.resources):
            if item.get("uri") == uri_or_template:
                self.listed_resources.choose(index, _label(item, "uri", self.policy))
                return
        for index, item in enumerate(self.templates):
            if uri_or_template in (item.get("uriTemplate"), item.get("name")):
                self.listed_templates.choose(index, _label(item, "uriTemplate", self.policy))
                return

    def _chose(self, which: str) -> None:
        if which == "resource" and self.resource_list.value is not None:
            self.template_list.value = None
        if which == "template" and self.template_list.value is not None:
            self.resource_list.value = None
        template = self._template()
        self.fields = None
        if template is not None and self.server is not None:
            uri_template = str(template.get("uriTemplate", ""))
            optional = query_variables(uri_template)
            fields = [(name, name not in optional, uri_template) for name in variables(uri_template)]
            self.fields = CompletingFields(self.runtime, self.server, ("template", uri_template), fields, self.policy)
        self.form_box.children = (self.fields.widget,) if self.fields is not None else ()
        self.read_button.disabled = self.resource_list.value is None and template is None
        index = self.resource_list.value
        uri = str(self.resources[index].get("uri")) if index is not None and index < len(self.resources) else None
        self.subscription.show(self.server, uri, self.policy)

    def _error(self, exc: AnviaError) -> None:
        self.output.outputs = (error_output(exc, self.policy),)

    def _template(self) -> JsonObject | None:
        index = self.template_list.value
        return self.templates[index] if index is not None and index < len(self.templates) else None

    def read(self) -> ReadView | None:
        """Read the chosen resource, or the chosen template with the fields' values; show it."""
        server = self.server
        if server is None:
            return None
        template, index, timeout = self._template(), self.resource_list.value, self.timeout_seconds
        try:
            if template is not None and not self._offers(template, "uriTemplate"):
                return None  # never listed: not offered (checked here, whatever a browser sent)
            if template is not None:
                values = self.fields.values() if self.fields is not None else {}
                coro = server.read_template(str(template.get("uriTemplate")), values, timeout_seconds=timeout)
            elif index is not None and index < len(self.resources) and self._offers(self.resources[index], "uri"):
                coro = server.read_resource(str(self.resources[index].get("uri")), timeout_seconds=timeout)
            else:
                return None
            self.last_read = ReadView(self.runtime.run(coro), self.settings)
        except AnviaError as exc:
            self.output.outputs = (error_output(exc, self.policy),)
            return None
        self.output.outputs = (shown_output(self.last_read),)
        return self.last_read
