"""The ingestion stage: bad input is refused readably; the demo materials parse as expected."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.common.errors import EngineError, InvalidInput
from services.common.events import IngestJob
from services.common.ids import sha256_hex
from services.common.materials import Chunk
from services.ingestor.stages import parse_job, parse_material

DEMO = Path(__file__).parents[3] / "demo" / "stats101"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32


@pytest.mark.parametrize(
    ("data", "filename", "kwargs", "message"),
    [
        (b"", "empty.md", {}, "'empty.md' is empty"),
        (b"  \n\t\n", "blank.txt", {}, "'blank.txt' is empty"),
        (b"x" * 2048, "big.md", {"max_file_bytes": 1024}, r"is 0\.0 MiB, over the 0\.0 MiB limit"),
        (b"MZ\x90\x00binary", "tool.exe", {}, "unsupported file type"),
        (b"%PDF-1.4\ngarbage", "bad.pdf", {}, "corrupt or unreadable PDF"),
        (b"# Only a heading\n", "heading.md", {}, "contains no text to index"),
    ],
)
def test_bad_input(data, filename, kwargs, message):
    with pytest.raises(InvalidInput, match=message):
        parse_material(data, filename, **kwargs)


def test_size_limit_message_is_in_mib():
    with pytest.raises(InvalidInput, match=r"is 3\.0 MiB, over the 2\.0 MiB limit"):
        parse_material(b"a" * (3 * 1024 * 1024), "big.txt", max_file_bytes=2 * 1024 * 1024)


def test_image_without_gemini_is_an_engine_error_not_silence():
    with pytest.raises(
        EngineError, match=r"is an image: reading it needs Gemini \(set GEMINI_API_KEY\)"
    ):
        parse_material(PNG, "board.png")


class FailingVision:
    def read(self, data, mime_type, filename):
        raise EngineError("Gemini answered 503")


def test_vision_failure_names_the_file():
    with pytest.raises(EngineError, match="'board.png' is an image: Gemini answered 503"):
        parse_material(PNG, "board.png", vision=FailingVision())


class BigVision:
    def read(self, data, mime_type, filename):
        return [Chunk(0, "。".join(["板書の文"] * 400) + "。", 1, ("板書",))]


def test_image_chunks_from_vision_are_bounded_like_parsed_ones():
    parsed = parse_material(PNG, "board.png", vision=BigVision())
    assert parsed.read_by_vision and parsed.mime_type == "image/png"
    assert len(parsed.chunks) > 1
    assert all(len(c.text) <= 1000 and c.page == 1 for c in parsed.chunks)


def job_for(data: bytes, **overrides) -> IngestJob:
    fields = dict(
        job_id="j1",
        idempotency_key="k",
        subject_id="stats101",
        user_id="t",
        blob_uri="gs://b/o",
        filename="notes.md",
        mime_type="text/markdown",
        sha256=sha256_hex(data),
        size_bytes=len(data),
        submitted_at_ms=0,
    )
    return IngestJob(**{**fields, **overrides})


def test_parse_job_uses_the_job_title_and_checks_the_hash():
    data = "# 見出し\n\n本文です。".encode()
    parsed = parse_job(job_for(data, title="第1回"), data, vision=None)
    assert parsed.title == "第1回" and parsed.chunks[0].text == "# 見出し\n\n本文です。"
    with pytest.raises(InvalidInput, match="sha256 differs"):
        parse_job(job_for(data), data + b"changed", vision=None)


# Chunks per demo file: the figures the demo and the README rely on.
EXPECTED = {
    "01_descriptive_statistics_ja.md": ("markdown", 8),
    "02_correlation_en.md": ("markdown", 7),
    "03_hypothesis_testing.html": ("html", 6),
    "04_worked_examples.pdf": ("pdf", 5),
    "05_sampling_ja.txt": ("text", 2),
    "faq.csv": ("csv", 7),
}


@pytest.mark.parametrize(("name", "expected"), sorted(EXPECTED.items()))
def test_demo_materials(name, expected):
    parsed = parse_material((DEMO / name).read_bytes(), name)
    assert (parsed.format.value, len(parsed.chunks)) == expected
    assert all(0 < len(c.text) <= 1000 for c in parsed.chunks)
    assert [c.ordinal for c in parsed.chunks] == list(range(len(parsed.chunks)))


def test_demo_content_lands_in_the_right_chunks():
    md = parse_material((DEMO / "01_descriptive_statistics_ja.md").read_bytes(), "01.md")
    sd = next(c for c in md.chunks if c.heading_path[-1] == "標準偏差")
    assert "分散の正の平方根" in sd.text
    assert sd.heading_path == ("第1回 記述統計：データを要約する", "散布度（ばらつき）", "標準偏差")

    pdf = parse_material((DEMO / "04_worked_examples.pdf").read_bytes(), "04.pdf")
    assert pdf.title == "STATS101 Worked Examples" and pdf.page_count == 4
    outlier = next(c for c in pdf.chunks if "714 / 11" in c.text)
    assert outlier.page == 2
    assert outlier.heading_path == ("Example 2: What one outlier does to the mean and the median",)

    html = parse_material((DEMO / "03_hypothesis_testing.html").read_bytes(), "03.html")
    p_value = next(c for c in html.chunks if c.heading_path[-1] == "The p-value")
    assert "probability, computed assuming the null hypothesis is true" in p_value.text


@settings(max_examples=150, deadline=None)
@given(
    data=st.one_of(
        st.binary(max_size=400),
        st.text(alphabet="<>/#`|-=\n 。、abcあ漢pthl1li\"',{}:", max_size=400).map(str.encode),
    ),
    filename=st.sampled_from(["x.md", "x.html", "x.txt", "x.csv", "x.jsonl", "x.pdf"]),
)
def test_arbitrary_input_is_parsed_or_refused_readably(data, filename):
    try:
        parsed = parse_material(data, filename)
    except InvalidInput as exc:
        assert filename in str(exc)
    except EngineError as exc:  # image magic bytes under any name: only vision can read them
        assert "needs Gemini" in str(exc)
    else:
        assert parsed.chunks and all(c.text.strip() for c in parsed.chunks)
