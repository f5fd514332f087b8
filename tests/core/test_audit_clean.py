"""Few false alarms, measured (issue 38): clean definitions in many scripts, with emoji and with
ordinary imperative documentation, get nothing at medium or above from any check, wherever a
model reads them (descriptions, titles, parameters, enums, defaults, prompts, resources,
instructions)."""

from __future__ import annotations

import pytest

from anvia_nb.core.audit.checks import audit_definitions
from anvia_nb.core.audit.definitions import Definition, Finding, definitions_of
from anvia_nb.core.protocol.types import ToolInfo

CLEAN = {
    "arabic": "يعيد قائمة الملفات في المجلد المحدد، مرتبة حسب تاريخ التعديل. لا تستخدمه للمجلدات الكبيرة جدًا.",
    "hebrew": "מחזיר את רשימת הקבצים בתיקייה. השתמשו בנתיב מלא, למשל ‎/home/user‎.",
    "persian": "فهرست فایل‌ها را برمی‌گرداند؛ می‌توانید مسیر را مشخص کنید.",
    "japanese": "指定したフォルダー内のファイル一覧を返します。大きなフォルダーには使わないでください。",
    "chinese": "返回指定目录中的文件列表。请勿用于超过 10 GB 的表。",
    "korean": "지정한 폴더의 파일 목록을 반환합니다. 절대 경로를 전달하세요.",
    "greek": "Επιστρέφει τη λίστα των αρχείων του φακέλου. Μην το χρησιμοποιείτε για πίνακες άνω των 10 GB.",
    "russian": "Возвращает список файлов в папке. Всегда передавайте абсолютный путь.",
    "ukrainian": "Повертає список файлів у теці. Не використовуйте для таблиць понад 10 ГБ.",
    "hindi": "निर्दिष्ट फ़ोल्डर में फ़ाइलों की सूची लौटाता है। क्‍या आप पूरा पथ देंगे?",
    "bengali": "নির্দিষ্ট ফোল্ডারের ফাইলের তালিকা ফেরত দেয়।",
    "thai": "ส่งคืน\u200bรายการ\u200bไฟล์\u200bในโฟลเดอร์\u200bที่ระบุ\u200bทั้งหมด\u200bตาม\u200bลำดับ\u200bวันที่",
    "fluent": "Hello, \u2068Alice\u2069! You have \u20683\u2069 new files.",
    "accented": "Crée un résumé précis ; für Größen über 10 GB nicht geeignet. Año, niño, São Paulo, Łódź, Ærø.",
    "vietnamese": "Trả về danh sách tệp trong thư mục. Đừng dùng cho bảng lớn hơn 10 GB.",
    "emoji": "Adds a reaction 👍🏽 👨‍👩‍👧‍👦 🧑🏿‍💻 🏳️‍🌈 ❤️ ☺︎ 1️⃣ 🇫🇷 🇯🇵 🏴󠁧󠁢󠁳󠁣󠁴󠁿 🏴󠁧󠁢󠁷󠁬󠁳󠁿 👩🏻‍❤️‍💋‍👨🏼 to the message.",
    "imperative": "Do not use for tables over 10 GB. Important: exports are slow. Always pass an absolute path.",
    "own tools": "You must call list_files before read_file. Use read_file instead of cat for text files.",
    "warnings": "Never run this on production data. You should not use it for secrets; it does not hide them.",
    "parameters": "Pass the file path in the `path` parameter and the API token in the `token` argument.",
    "markdown": "See [the docs](https://example.com/docs) and ![logo](logo.png). Returns **bold** text.",
    "code": "Runs `git status` and returns its output.\n\n```\n$ git status\n```\n\n- one\n- two",
    "env": "Reads configuration from environment variables (set them before starting the server).",
    "user": "Returns the user's profile. Show the user a summary before deleting anything.",
    "model": "Loads the model from disk; the model must fit in memory. The assistant role is supported.",
    "docstring": "Search the index.\n\n    Parameters\n    ----------\n    query : str\n        What to find.\n",
}
"""Clean text: many scripts (right-to-left text is not bidi controls), emoji of every kind, and
the imperative, cautionary documentation real servers write."""


def _server() -> list[Definition]:
    tools = [
        ToolInfo(server="clean", name="list_files", description=CLEAN["arabic"], annotations={"readOnlyHint": True}),
        ToolInfo(server="clean", name="read_file", description=CLEAN["own tools"], annotations={"readOnlyHint": True}),
        ToolInfo(
            server="clean", name="get_post", description="Gets one blog post.", annotations={"readOnlyHint": True}
        ),
        ToolInfo(
            server="clean", name="email_search", description="Searches the inbox.", annotations={"readOnlyHint": True}
        ),
    ]
    for number, (label, text) in enumerate(CLEAN.items()):
        schema = {
            "type": "object",
            "properties": {
                "text": {"type": "string", "description": text, "default": text, "enum": [text, label]},
                "名前": {"type": "string", "title": text},
            },
        }
        tools.append(ToolInfo(server="clean", name=f"tool_{number}", title=text, description=text, input_schema=schema))
    prompts = [{"name": f"prompt_{n}", "description": t} for n, t in enumerate(CLEAN.values())]
    resources = [{"uri": f"clean://{n}", "name": f"r{n}", "description": t} for n, t in enumerate(CLEAN.values())]
    return definitions_of(
        "clean", instructions="\n\n".join(CLEAN.values()), tools=tools, prompts=prompts, resources=resources
    )


def _serious(findings: list[Finding]) -> list[tuple[str, str, str, str]]:
    return [(f.item, f.check, f.severity, f.evidence) for f in findings if f.severity in ("high", "medium")]


def test_clean_text_in_any_script_gets_nothing_at_medium_or_above() -> None:
    assert _serious(audit_definitions(_server())) == []


@pytest.mark.parametrize("label", list(CLEAN))
def test_each_clean_text_alone_gets_nothing_at_medium_or_above(label: str) -> None:
    tool = ToolInfo(server="one", name="tool", description=CLEAN[label])
    assert _serious(audit_definitions(definitions_of("one", tools=[tool]))) == []


def test_the_same_clean_tools_on_two_servers_are_not_shadowing() -> None:
    both = _server() + [
        Definition("other", d.kind, d.name, d.body)
        if d.kind != "server"
        else Definition("other", "server", "other", d.body)
        for d in _server()
    ]
    assert _serious(audit_definitions(both)) == []


def test_right_to_left_marks_and_isolates_in_right_to_left_text_are_below_medium() -> None:
    text = "שלום \u2067עולם\u2069 \u200fמה נשמע\u200f"
    findings = audit_definitions(definitions_of("rtl", tools=[ToolInfo(server="rtl", name="t", description=text)]))
    assert {f.check for f in findings} == {"hidden-bidi"}
    assert {f.severity for f in findings} <= {"low", "info"}


def test_words_to_the_model_alone_are_style_not_an_attack() -> None:
    tool = ToolInfo(
        server="one", name="weather", description="Claude should call this when the user asks for the weather."
    )
    findings = audit_definitions(definitions_of("one", tools=[tool]))
    assert [(f.check, f.severity) for f in findings] == [("addressed-to-model", "low")]
