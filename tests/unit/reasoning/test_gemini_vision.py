"""GeminiVisionReader against canned REST bodies: structured-output request and parsing."""

import base64
import json

import pytest
from gemini_fakes import CannedGemini, gemini_settings

from services.common.errors import EngineError
from services.common.materials import Chunk
from services.ingestor.settings import IngestionSettings
from services.ingestor.stages import parse_material
from services.reasoning.gemini.vision import CHUNKS_SCHEMA, GeminiVisionReader

PNG = b"\x89PNG\r\n\x1a\n" + b"\x01" * 16


def answer(chunks) -> tuple[int, dict]:
    text = json.dumps({"chunks": chunks}, ensure_ascii=False)
    content = {"role": "model", "parts": [{"text": text}]}
    return 200, {"candidates": [{"content": content, "finishReason": "STOP"}]}


CANNED = [
    {"text": "## 箱ひげ図\n\n箱は Q1 から Q3 まで。", "page": 1, "heading_path": ["箱ひげ図"]},
    {"text": "外れ値は点で示す。", "page": 2, "heading_path": []},
]


def test_request_is_structured_output_with_the_file_inline_and_chunks_are_parsed():
    server = CannedGemini(lambda body, path: answer(CANNED))
    reader = GeminiVisionReader(
        gemini_settings(), "gemini-test-model", transport=server.transport()
    )
    chunks = reader.read(b"%PDF-1.7 scanned", "application/pdf", "scan.pdf")

    path, body, _ = server.requests[0]
    assert path.endswith("/models/gemini-test-model:generateContent")
    parts = body["contents"][0]["parts"]
    assert parts[0]["inlineData"]["mime_type"] == "application/pdf"
    assert base64.b64decode(parts[0]["inlineData"]["data"]) == b"%PDF-1.7 scanned"
    assert "meaning units" in parts[1]["text"]
    config = body["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    assert config["responseJsonSchema"] == CHUNKS_SCHEMA
    thinking = config["thinkingConfig"]  # the SDK 3.4.0 writes this key in snake case
    assert thinking.get("thinkingLevel", thinking.get("thinking_level")) == "MINIMAL"

    assert chunks == [
        Chunk(0, "## 箱ひげ図\n\n箱は Q1 から Q3 まで。", 1, ("箱ひげ図",)),
        Chunk(1, "外れ値は点で示す。", 2, ()),
    ]


def test_model_comes_from_the_ingestion_setting():
    server = CannedGemini(lambda body, path: answer(CANNED))
    settings = IngestionSettings(
        gemini_api_key="k",
        gemini_base_url="http://gemini.test",
        professor_gemini_model_ingestion="gemini-ingest-x",
    )
    parsed = parse_material(
        PNG, "board.png", vision=GeminiVisionReader(settings, transport=server.transport())
    )
    assert server.requests[0][0].endswith("/models/gemini-ingest-x:generateContent")
    assert (
        server.requests[0][1]["contents"][0]["parts"][0]["inlineData"]["mime_type"] == "image/png"
    )
    assert [c.text for c in parsed.chunks] == [
        "# 箱ひげ図\n\n箱は Q1 から Q3 まで。",
        "外れ値は点で示す。",
    ]
    assert [c.page for c in parsed.chunks] == [1, 2]


@pytest.mark.parametrize(
    "response",
    [
        answer([{"page": 1}]),  # no text
        (200, {"candidates": [{"content": {"role": "model", "parts": [{"text": "not json"}]}}]}),
    ],
)
def test_unusable_model_output_is_an_engine_error(response):
    server = CannedGemini(lambda body, path: response)
    reader = GeminiVisionReader(gemini_settings(), "m", transport=server.transport())
    with pytest.raises(EngineError, match="returned unusable chunks for 'x.png'"):
        reader.read(PNG, "image/png", "x.png")


def test_no_key_fails_at_first_use_with_needs_gemini():
    reader = GeminiVisionReader(gemini_settings(gemini_api_key=None), "m")
    with pytest.raises(EngineError, match=r"needs Gemini \(set GEMINI_API_KEY\)"):
        parse_material(PNG, "x.png", vision=reader)
