"""The form rules over schemas that real MCP servers publish, and over Pydantic-generated ones."""

from __future__ import annotations

from enum import Enum
from typing import Any, Literal

import pytest
from pydantic import BaseModel, Field

from anvia_nb.core.protocol.schema import argument_problems
from anvia_nb.widgets.spec import (
    Entry,
    entry_from_value,
    field_spec_from_schema,
    initial_entry,
    value_from_entry,
)
from tests.helpers.spec import SCHEMAS, arguments, checked, group, load_schema, null_chosen, picked, rows, ticked, typed

CORPUS = sorted(path.stem for path in SCHEMAS.glob("*.json"))


def test_the_corpus_is_not_empty() -> None:
    assert len(CORPUS) >= 10


@pytest.mark.parametrize("name", CORPUS)
def test_every_corpus_schema_gives_a_form_whose_untouched_value_omits_every_optional_field(name: str) -> None:
    schema = load_schema(name)
    spec = field_spec_from_schema(schema)
    value, _ = value_from_entry(spec, initial_entry(spec))
    required = set(schema.get("required", []))
    assert set(value) <= required


def test_filesystem_read_file_sends_only_the_path_unless_head_is_typed() -> None:
    schema = load_schema("filesystem_read_file")
    assert arguments(schema, path=typed("/tmp/a.txt")) == ({"path": "/tmp/a.txt"}, [])
    assert arguments(schema, path=typed("/a"), head=typed("5")) == ({"path": "/a", "head": 5}, [])


def test_filesystem_edit_file_takes_its_edits_as_groups_of_fields_and_omits_the_untouched_dry_run() -> None:
    schema = load_schema("filesystem_edit_file")
    spec = field_spec_from_schema(schema)
    assert spec.child("edits").kind == "list" and spec.child("dryRun").kind == "boolean"
    assert [c.name for c in spec.child("edits").item.children] == ["oldText", "newText"]  # type: ignore[union-attr]
    edit = group(oldText=typed("a"), newText=typed("b"))
    value, problems = checked(schema, path=typed("a.py"), edits=rows(edit, Entry()))
    assert problems == [] and value == {"path": "a.py", "edits": [{"oldText": "a", "newText": "b"}]}
    assert argument_problems(schema, value) == []


def test_filesystem_read_multiple_files_needs_at_least_one_path() -> None:
    schema = load_schema("filesystem_read_multiple_files")
    assert checked(schema) == ({}, ["paths: a value is required: add an item (+ then − sends an empty list)"])
    assert checked(schema, paths=rows(typed(""))) == (
        {},
        ["paths: a value is required: add an item (+ then − sends an empty list)"],
    )  # a blank row is not an answer
    assert checked(schema, paths=rows()) == (
        {"paths": []},
        ["paths: needs at least 1 item"],
    )  # emptied: minItems says no
    assert checked(schema, paths=rows(typed("a"), typed("b"))) == ({"paths": ["a", "b"]}, [])


def test_git_log_omits_its_defaulted_count_and_null_defaulted_timestamp() -> None:
    schema = load_schema("git_log")
    spec = field_spec_from_schema(schema)
    assert initial_entry(spec.child("max_count")).text == ""  # shown as a placeholder, not a value
    assert arguments(schema, repo_path=typed(".")) == ({"repo_path": "."}, [])
    assert arguments(schema, repo_path=typed("."), start_timestamp=typed("2024-01-01")) == (
        {"repo_path": ".", "start_timestamp": "2024-01-01"},
        [],
    )
    assert arguments(schema, repo_path=typed("."), start_timestamp=null_chosen()) == (
        {"repo_path": ".", "start_timestamp": None},
        [],
    )


def test_git_commit_sends_an_empty_required_message_as_empty_string() -> None:
    assert arguments(load_schema("git_commit"), repo_path=typed(".")) == ({"repo_path": ".", "message": ""}, [])


def test_time_convert_time_checks_the_hh_mm_pattern_beside_the_field() -> None:
    schema = load_schema("time_convert_time")
    _, problems = checked(schema, source_timezone=typed("UTC"), time=typed("9:30"), target_timezone=typed("Asia/Tokyo"))
    assert problems == ["time: must match the pattern ^([01][0-9]|2[0-3]):[0-5][0-9]$"]


def test_time_get_current_time_sends_the_timezone() -> None:
    assert arguments(load_schema("time_get_current_time"), timezone=typed("UTC")) == ({"timezone": "UTC"}, [])


def test_fetch_leaves_the_url_format_to_the_server_as_the_magic_does_and_checks_ranges() -> None:
    schema = load_schema("fetch")
    value, problems = checked(schema, url=typed("example.com"))
    assert problems == [] == argument_problems(schema, value)  # formats are annotations, for both
    _, problems = checked(schema, url=typed("https://example.com"), raw=ticked(True), max_length=typed("0"))
    assert problems == ["max_length: must be more than 0"]
    assert arguments(schema, url=typed("https://example.com"), raw=ticked(False)) == (
        {"url": "https://example.com", "raw": False},
        [],
    )


def test_github_create_issue_sends_lists_only_when_given() -> None:
    schema = load_schema("github_create_issue")
    base = {"owner": typed("o"), "repo": typed("r"), "title": typed("Bug")}
    assert arguments(schema, **base) == ({"owner": "o", "repo": "r", "title": "Bug"}, [])
    value, problems = arguments(schema, **base, labels=rows(typed("bug"), typed("ui")), milestone=typed("3"))
    assert problems == [] and value == {
        "owner": "o",
        "repo": "r",
        "title": "Bug",
        "labels": ["bug", "ui"],
        "milestone": 3,
    }


def test_github_search_issues_offers_sort_and_order_as_optional_choices() -> None:
    schema = load_schema("github_search_issues")
    spec = field_spec_from_schema(schema)
    assert spec.child("order").kind == "choice" and not spec.child("order").required
    assert checked(schema, q=typed("is:open"), order=picked(1), per_page=typed("101")) == (
        {"q": "is:open", "order": "desc", "per_page": 101},
        ["per_page: must be at most 100"],
    )


def test_postgres_query_takes_json_params_and_a_nullable_row_limit() -> None:
    schema = load_schema("postgres_query")
    spec = field_spec_from_schema(schema)
    assert spec.child("params").kind == "json"
    assert (spec.child("row_limit").kind, spec.child("row_limit").nullable) == ("integer", True)
    assert arguments(schema, sql=typed("select $1"), params=typed('[1, "a"]'), row_limit=null_chosen()) == (
        {"sql": "select $1", "params": [1, "a"], "row_limit": None},
        [],
    )


class Color(str, Enum):
    red = "red"
    green = "green"


class Window(BaseModel):
    start: str = Field(description="ISO date")
    days: int = Field(7, ge=1, le=31)


class Report(BaseModel):
    """A Pydantic model shaped like the tools FastMCP / MCPServer generate from type hints."""

    query: str
    limit: int | None = None
    color: Color = Color.red
    colors: list[Color] = []
    mode: Literal["fast", "exact"] = "fast"
    tags: list[str] = Field(default_factory=list)
    window: Window | None = None
    strict: bool = False
    extra: int | str | None = None
    weights: dict[str, float] = {}


REPORT = Report.model_json_schema()


def test_pydantic_schema_becomes_the_expected_kinds() -> None:
    spec = field_spec_from_schema(REPORT)
    kinds = {child.name: (child.kind, child.nullable) for child in spec.children}
    assert kinds == {
        "query": ("string", False),
        "limit": ("integer", True),
        "color": ("choice", False),
        "colors": ("multi_choice", False),
        "mode": ("choice", False),
        "tags": ("list", False),
        "window": ("object", True),
        "strict": ("boolean", False),
        "extra": ("union", True),
        "weights": ("json", False),
    }
    assert spec.child("window").child("days").constraints.maximum == 31


def test_pydantic_untouched_form_sends_only_the_required_query() -> None:
    assert arguments(REPORT, query=typed("q")) == ({"query": "q"}, [])


def test_pydantic_filled_form_validates_and_parses_back_into_the_model() -> None:
    extra = Entry(touched=True, chosen=(1,), items=(Entry(), typed("x")))  # the type "text" chosen
    value, problems = arguments(
        REPORT,
        extra=extra,
        query=typed("q"),
        limit=typed("5"),
        colors=picked(1),
        window=group(start=typed("2024-01-01")),
        strict=ticked(True),
        mode=picked(1),
        weights=typed('{"a": 0.5}'),
    )
    assert problems == []
    assert argument_problems(REPORT, value) == []
    report = Report.model_validate(value)
    assert report.window == Window(start="2024-01-01", days=7) and report.colors == [Color.green]
    assert value["window"] == {"start": "2024-01-01"}  # the untouched default days is left to the server


def test_pydantic_nested_constraint_problem_is_reported_by_path() -> None:
    _, problems = checked(REPORT, query=typed("q"), window=group(start=typed("d"), days=typed("40")))
    assert problems == ["window.days: must be at most 31"]


@pytest.mark.parametrize(
    "value",
    [
        {"query": "q"},
        {"query": "", "limit": None, "window": {"start": "s", "days": 3}, "tags": ["a"]},
        {"query": "q", "extra": 3, "weights": {"w": 1.0}, "colors": ["green", "red"]},
    ],
)
def test_pydantic_values_round_trip_through_the_form(value: dict[str, Any]) -> None:
    spec = field_spec_from_schema(REPORT)
    entry = entry_from_value(spec, value)
    assert entry is not None and value_from_entry(spec, entry) == (value, [])
