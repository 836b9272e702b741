"""The ``eval fetch`` recipes on tiny hand-made SQuAD files; downloads go to a mock transport."""

import dataclasses
import hashlib
import json

import httpx
import pytest

from services.common.errors import EduanimaError, InvalidInput
from tools.evaluation import datasets as ds


def qa(qid, question, *answers, impossible=None):
    row = {"id": qid, "question": question, "answers": [{"text": a} for a in answers]}
    if impossible is not None:
        row["is_impossible"] = impossible
    return row


def jsquad_paragraph(title, body, *qas):
    return {"context": f"{title} [SEP] {body}", "qas": list(qas)}


VALID = {
    "data": [
        {
            "title": "梅雨",
            "paragraphs": [
                jsquad_paragraph(
                    "梅雨",
                    "梅雨は5月から7月にかけて来る雨の多い期間。",
                    qa("a1p0q0", " 梅雨は何月から？", "5月", " 5月 ", "5月から"),
                    qa("a1p0q1", "梅雨は何月まで？", "7月"),
                ),
                # The answer is only in the title prefix: the question must be dropped.
                jsquad_paragraph(
                    "梅雨", "北海道にはない。", qa("a1p1q0", "この現象は何？", "梅雨")
                ),
                jsquad_paragraph(
                    "梅雨",
                    "入梅は6月11日頃。",
                    qa("a1p2q0", "入梅はいつ？", "6月11日頃"),
                    qa("a1p2q1", "入梅の日は？", "6月11日頃", impossible=True),
                ),
            ],
        },
        {
            "title": "富士山",
            "paragraphs": [
                # Same question string as a1p2q0: only one of them may be sampled.
                jsquad_paragraph(
                    "富士山", "高さは3776 m。", qa("a2p0q0", "入梅はいつ？", "3776 m")
                ),
            ],
        },
    ]
}
TEST = {
    "data": [
        {
            "title": "富士山",
            "paragraphs": [
                # An exact copy of a valid paragraph: one corpus record, gold points to it.
                jsquad_paragraph("富士山", "高さは3776 m。", qa("a3p0q0", "高さは？", "3776 m")),
                jsquad_paragraph(
                    "富士山", "山梨県と静岡県にまたがる。", qa("a3p1q0", "県は？", "山梨県")
                ),
            ],
        }
    ]
}


def xquad_article(title, n_paragraphs):
    return {
        "title": title,
        "paragraphs": [
            {
                "context": f"{title} paragraph {i} says {i * 7}.",
                "qas": [
                    qa(f"{title}-{i}-{j}", f"What does {title} {i} say ({j})? ", str(i * 7))
                    for j in range(2)
                ],
            }
            for i in range(n_paragraphs)
        ],
    }


XQUAD = {"data": [xquad_article(t, 3) for t in ("Zeta_Island", "Alpha", "Mid_Town", "Beta")]}


def test_jsquad_corpus_keeps_both_files_in_source_order_without_title_prefix():
    built = ds.build_jsquad(VALID, TEST)
    assert [r["doc_id"] for r in built.corpus] == ["a1p0", "a1p1", "a1p2", "a2p0", "a3p1"]
    assert built.corpus[0] == {
        "doc_id": "a1p0",
        "title": "梅雨",
        "text": "梅雨は5月から7月にかけて来る雨の多い期間。",
    }
    assert list(built.corpus[0]) == ["doc_id", "title", "text"]
    assert built.stats["duplicate_paragraphs_merged"] == 1
    assert built.stats["shared_article_titles"] == 1


def test_jsquad_drops_title_only_and_impossible_questions_and_cleans_strings():
    built = ds.build_jsquad(VALID, TEST, quota=100)
    by_qid = {q["qid"]: q for q in built.queries}
    assert "a1p1q0" not in by_qid and "a1p2q1" not in by_qid
    assert by_qid["a1p0q0"] == {
        "qid": "a1p0q0",
        "question": "梅雨は何月から？",
        "answers": ["5月", "5月から"],
        "gold_doc_ids": ["a1p0"],
    }
    assert built.stats["source_questions"] == {"dev": 6, "holdout": 2}
    assert built.stats["eligible_questions"] == {"dev": 4, "holdout": 2}
    assert built.stats["paragraphs_with_eligible_questions"] == {"dev": 3, "holdout": 2}


def test_jsquad_sampling_skips_duplicate_question_strings_and_sorts_by_qid():
    built = ds.build_jsquad(VALID, TEST, quota=100)
    questions = [q["question"] for q in built.queries]
    assert len(questions) == len(set(questions)) == 3
    assert [q["qid"] for q in built.queries] == sorted(q["qid"] for q in built.queries)
    assert built.other_split_queries == 2


def test_jsquad_round_robin_takes_one_question_per_paragraph_first():
    built = ds.build_jsquad(VALID, TEST, quota=2)
    golds = [q["gold_doc_ids"][0] for q in built.queries]
    assert len(golds) == len(set(golds)) == 2


def test_jsquad_holdout_uses_the_test_file_and_the_merged_gold():
    built = ds.build_jsquad(VALID, TEST, "holdout")
    assert {q["qid"]: q["gold_doc_ids"] for q in built.queries} == {
        "a3p0q0": ["a2p0"],
        "a3p1q0": ["a3p1"],
    }
    assert built.corpus == ds.build_jsquad(VALID, TEST, "dev").corpus


def test_builds_are_deterministic(tmp_path):
    builds = {
        ds.JSQUAD: lambda: ds.build_jsquad(VALID, TEST, quota=2),
        ds.XQUAD: lambda: ds.build_xquad(XQUAD),
    }
    for provenance, build in builds.items():
        first, second = build(), build()
        assert first == second
        ds.write_dataset(first, tmp_path / "a", provenance)
        ds.write_dataset(second, tmp_path / "b", provenance)
        for name in ("corpus.jsonl", "queries.jsonl", "README.md"):
            assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_xquad_layout_and_topic_disjoint_splits():
    dev, holdout = ds.build_xquad(XQUAD, "dev"), ds.build_xquad(XQUAD, "holdout", quota=4)
    assert dev.corpus[0] == {
        "doc_id": "Zeta_Island_p0",
        "title": "Zeta Island",
        "text": "Zeta_Island paragraph 0 says 0.",
    }
    assert len(dev.corpus) == 12
    dev_articles = {q["gold_doc_ids"][0].rsplit("_p", 1)[0] for q in dev.queries}
    holdout_articles = {q["gold_doc_ids"][0].rsplit("_p", 1)[0] for q in holdout.queries}
    assert len(dev_articles) == 2 and not dev_articles & holdout_articles
    assert dev.stats["articles"] == {"dev": sorted(dev_articles)}
    assert dev.stats["eligible_questions_per_split_pool"] == {"dev": 12, "holdout": 12}
    assert len(dev.queries) == 12 and dev.other_split_queries == 12
    # Quota 4 over 6 paragraphs: round-robin never takes a 2nd question from a paragraph.
    assert len({q["gold_doc_ids"][0] for q in holdout.queries}) == 4
    assert all(not q["question"].endswith(" ") for q in dev.queries)


def test_unknown_split_is_refused():
    with pytest.raises(InvalidInput, match="unknown split"):
        ds.build_xquad(XQUAD, "test")


def test_write_dataset_writes_jsonl_and_a_readme_from_the_build(tmp_path):
    built = ds.build_jsquad(VALID, TEST)
    folder = ds.write_dataset(built, tmp_path / "jsquad_ja", ds.JSQUAD)
    queries = (folder / "queries.jsonl").read_bytes()
    lines = queries.decode().splitlines()
    assert [json.loads(line) for line in lines] == built.queries
    assert lines[0] == json.dumps(built.queries[0], ensure_ascii=False)
    readme = (folder / "README.md").read_text()
    assert readme.startswith("# jsquad_ja — dev split (retrieval + QA eval)\n")
    assert "nobody on this team wrote any question, answer or paragraph" in readme
    assert "- Commit: `6f071c09316baae89c3d083a90985b4b1cb9968c`" in readme
    assert f"- dev queries: 3 (`queries.jsonl` {len(queries):,} bytes, sha256 " in readme
    assert hashlib.sha256(queries).hexdigest() in readme
    assert "- corpus paragraphs: 5 (`corpus.jsonl`" in readme
    assert "- the other split (holdout) has 2 disjoint queries" in readme
    assert '"duplicate_paragraphs_merged": 1' in readme
    for heading in ("## Source", "## Files", "## Counts", "## Build recipe", "## Caveats"):
        assert f"\n{heading}\n" in readme


def serving(content: bytes) -> httpx.Client:
    return httpx.Client(
        transport=httpx.MockTransport(lambda r: httpx.Response(200, content=content))
    )


def pinned_to(content: bytes, monkeypatch) -> None:
    """Pin xquad_en to ``content`` so fetch accepts the tiny test file."""
    source = dataclasses.replace(ds.XQUAD.files[0], sha256=hashlib.sha256(content).hexdigest())
    monkeypatch.setitem(ds.PROVENANCE, "xquad_en", dataclasses.replace(ds.XQUAD, files=(source,)))


def test_fetch_downloads_builds_and_writes_the_split_folder(tmp_path, monkeypatch):
    content = json.dumps(XQUAD).encode()
    pinned_to(content, monkeypatch)
    assert ds.fetch("xquad_en", tmp_path, client=serving(content)) == tmp_path / "xquad_en"
    folder = ds.fetch("xquad_en", tmp_path, holdout=True, client=serving(content))
    assert folder == tmp_path / "xquad_en_holdout"
    assert "# xquad_en — holdout split" in (folder / "README.md").read_text()
    assert (folder / "corpus.jsonl").read_bytes() == (
        tmp_path / "xquad_en/corpus.jsonl"
    ).read_bytes()


def test_offline_fetch_says_what_to_do_instead(tmp_path):
    def offline(request):
        raise httpx.ConnectError("[Errno -3] Temporary failure in name resolution", request=request)

    client = httpx.Client(transport=httpx.MockTransport(offline))
    with pytest.raises(InvalidInput) as caught:
        ds.fetch("xquad_en", tmp_path, client=client)
    message = str(caught.value)
    assert message.startswith(f"cannot download {ds.XQUAD.files[0].url}: [Errno -3]")
    assert "eval fetch needs the internet" in message and "--dataset" in message
    assert not any(tmp_path.iterdir())


def test_http_error_is_reported():
    client = httpx.Client(transport=httpx.MockTransport(lambda r: httpx.Response(404)))
    with pytest.raises(InvalidInput, match="HTTP 404"):
        ds.download(ds.XQUAD.files[0], client)


def test_sha256_mismatch_is_refused(tmp_path):
    with pytest.raises(EduanimaError, match="sha256 .* expected e4c57d1c"):
        ds.fetch("xquad_en", tmp_path, client=serving(json.dumps(XQUAD).encode()))
    assert not any(tmp_path.iterdir())


def test_unknown_dataset_is_refused(tmp_path):
    with pytest.raises(InvalidInput, match="unknown dataset"):
        ds.fetch("squad_v2", tmp_path, client=serving(b"{}"))
