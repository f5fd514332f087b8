"""The result mapping's rules (docs/mapping.md), one test per rule, on plain result dicts (no server needed)."""

from __future__ import annotations

import json

import pytest

from anvia_nb.core.protocol.mapping import arguments_from_input, output_from_result
from anvia_nb.errors import (
    ArgumentError,
    InputRequiredError,
    ToolResultError,
    UnsupportedContentError,
)


def text(t: str) -> dict[str, str]:
    return {"type": "text", "text": t}


def test_single_text_is_returned_directly() -> None:
    assert output_from_result({"content": [text("The deployment is healthy.")]}) == "The deployment is healthy."


def test_texts_are_concatenated_in_server_order_without_separator() -> None:
    assert output_from_result({"content": [text("a"), text("b"), text("c")]}) == "abc"


def test_empty_content_without_structured_content_is_empty_string() -> None:
    assert output_from_result({"content": []}) == ""


def test_image_becomes_file_part_with_base64_kept_as_sent() -> None:
    result = {"content": [{"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}]}
    assert output_from_result(result) == [
        {"type": "file", "data": {"type": "data", "data": "iVBORw0KGgo="}, "mediaType": "image/png"}
    ]


def test_image_is_not_wrapped_in_a_data_url() -> None:
    out = output_from_result({"content": [{"type": "image", "data": "AAAA", "mimeType": "image/gif"}]})
    assert isinstance(out, list)
    assert not out[0]["data"]["data"].startswith("data:")


def test_text_beside_image_stays_separate_parts_in_order() -> None:
    result = {
        "content": [
            text("before"),
            text("second"),
            {"type": "image", "data": "AAAA", "mimeType": "image/jpeg"},
            text("after"),
        ]
    }
    assert output_from_result(result) == [
        {"type": "text", "text": "before"},
        {"type": "text", "text": "second"},
        {"type": "file", "data": {"type": "data", "data": "AAAA"}, "mediaType": "image/jpeg"},
        {"type": "text", "text": "after"},
    ]


def test_text_resource_becomes_serialized_string_with_uri_mime_and_text() -> None:
    resource = {"uri": "demo://notes/1", "mimeType": "text/markdown", "text": "# hi"}
    out = output_from_result({"content": [{"type": "resource", "resource": resource}]})
    assert isinstance(out, str)
    assert json.loads(out) == resource


def test_blob_resource_keeps_uri_mime_and_blob() -> None:
    resource = {"uri": "demo://bin", "mimeType": "application/octet-stream", "blob": "AAEC"}
    out = output_from_result({"content": [{"type": "resource", "resource": resource}]})
    assert isinstance(out, str)
    assert json.loads(out) == resource


def test_resource_text_concatenates_with_other_text() -> None:
    resource = {"uri": "u", "text": "t"}
    out = output_from_result({"content": [text(">"), {"type": "resource", "resource": resource}]})
    assert out == '>{"uri":"u","text":"t"}'


def test_resource_in_a_list_becomes_a_text_part_holding_its_json() -> None:
    resource = {"uri": "u", "mimeType": "text/plain", "text": "t"}
    out = output_from_result(
        {
            "content": [
                {"type": "image", "data": "AA", "mimeType": "image/png"},
                {"type": "resource", "resource": resource},
            ]
        }
    )
    assert isinstance(out, list)
    assert out[1]["type"] == "text"
    assert json.loads(out[1]["text"]) == resource


@pytest.mark.parametrize(
    "item",
    [
        {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
        {"type": "resource_link", "uri": "demo://x", "name": "x"},
    ],
)
def test_audio_and_resource_link_raise_unsupported_content_type(item: dict[str, str]) -> None:
    with pytest.raises(UnsupportedContentError) as caught:
        output_from_result({"content": [text("ok"), item]}, server="demo", tool="t")
    assert str(caught.value).startswith("Unsupported MCP tool result content type")
    assert item["type"] in str(caught.value)
    assert caught.value.raw is not None
    assert caught.value.server == "demo"


def test_empty_content_with_structured_content_serializes_it_as_the_one_text() -> None:
    out = output_from_result({"content": [], "structuredContent": {"temperature": 21.5, "unit": "C"}})
    assert out == '{"temperature":21.5,"unit":"C"}'


def test_structured_content_beside_text_leaves_the_text_as_output() -> None:
    assert output_from_result({"content": [text("21.5 C")], "structuredContent": {"t": 21.5}}) == "21.5 C"


def test_tool_result_string_is_returned_directly() -> None:
    assert output_from_result({"toolResult": "plain"}) == "plain"


def test_tool_result_non_string_is_json_serialized() -> None:
    assert output_from_result({"toolResult": {"a": [1, 2]}}) == '{"a":[1,2]}'
    assert output_from_result({"toolResult": 3}) == "3"


def test_tool_result_that_cannot_be_serialized_falls_back_to_its_string() -> None:
    assert output_from_result({"toolResult": {1, 2}}) in ("{1, 2}", "{2, 1}")


def test_is_error_raises_with_the_text_content_as_message() -> None:
    with pytest.raises(ToolResultError) as caught:
        output_from_result({"content": [text("disk "), text("full")], "isError": True}, server="s", tool="t")
    assert str(caught.value) == "disk full"
    assert caught.value.raw == {"content": [text("disk "), text("full")], "isError": True}


def test_is_error_without_text_uses_the_default_message() -> None:
    with pytest.raises(ToolResultError, match="^MCP tool returned an error$"):
        output_from_result({"content": [], "isError": True})


def test_input_required_result_is_never_output() -> None:
    with pytest.raises(InputRequiredError):
        output_from_result({"resultType": "input_required", "inputRequests": {}, "requestState": "x"})


def test_mapping_arguments_are_sent_as_a_dict() -> None:
    assert arguments_from_input({"a": 1}) == {"a": 1}


def test_none_arguments_omit_the_field() -> None:
    assert arguments_from_input(None) is None


@pytest.mark.parametrize("bad", [[1, 2], "text", 3, 2.5, True, (1,)])
def test_non_object_arguments_raise_a_type_error_of_our_tree(bad: object) -> None:
    with pytest.raises(ArgumentError) as caught:
        arguments_from_input(bad)
    assert isinstance(caught.value, TypeError)
    assert "JSON object" in str(caught.value)


def test_tool_result_nan_is_written_as_null_like_json_stringify() -> None:
    assert output_from_result({"toolResult": {"a": float("nan"), "b": [float("inf")]}}) == '{"a":null,"b":[null]}'


def test_numpy_values_from_a_dataframe_row_are_sent_as_plain_json() -> None:
    import numpy as np  # a dependency of anvia_nb (and of pandas)

    sent = arguments_from_input(
        {"a": np.int64(2), "b": np.float32(0.5), "rows": np.array([1, 2]), "ok": np.bool_(True)}
    )
    assert sent == {"a": 2, "b": 0.5, "rows": [1, 2], "ok": True}
    assert [type(v) for v in sent.values()] == [int, float, list, bool]


@pytest.mark.parametrize(("bad", "named"), [({"a": float("nan")}, "'a'"), ({"n": {"x": {1, 2}}}, "'n.x'")])
def test_values_json_cannot_carry_are_refused_naming_the_argument(bad: dict[str, object], named: str) -> None:
    with pytest.raises(ArgumentError, match=named):
        arguments_from_input(bad)
