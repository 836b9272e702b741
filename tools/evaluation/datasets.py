"""``eduanima eval fetch``: build the JSQuAD and XQuAD retrieval/QA sets from their releases.

Each set is a folder with ``corpus.jsonl`` (one record per paragraph), ``queries.jsonl``
(sampled questions with their gold paragraph) and a README.md giving source, licence,
counts and the build recipe. The source files are pinned to a commit and checked against
their sha256, and the build is deterministic (fixed seeds), so a fetched dev split is
byte-for-byte the one the team's figures were measured on.

The builders are pure functions of the parsed SQuAD JSON; downloading and writing are
separate so the recipe can be tested without a network.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from services.common.errors import EduanimaError, InvalidInput

SEED = 20251122
QUOTA = 300
SPLITS = ("dev", "holdout")
TIMEOUT_S = 60.0
JSQUAD_SEP = " [SEP] "


@dataclass(frozen=True)
class SourceFile:
    """One pinned file of a public GitHub repository."""

    repo: str  # owner/name
    commit: str
    path: str
    sha256: str

    @property
    def url(self) -> str:
        return f"https://raw.githubusercontent.com/{self.repo}/{self.commit}/{self.path}"


@dataclass(frozen=True)
class Provenance:
    """What the README says about a set beyond the counts of the build."""

    files: tuple[SourceFile, ...]
    license: str
    attribution: str
    recipe: tuple[str, ...]  # numbered steps, after the seed/quota line
    caveats: tuple[str, ...]

    @property
    def repo(self) -> str:
        return self.files[0].repo

    @property
    def commit(self) -> str:
        return self.files[0].commit


@dataclass
class Built:
    """One split of a set: rows ready to write, and the figures its README reports."""

    name: str
    split: str
    corpus: list[dict]
    queries: list[dict]
    stats: dict
    other_split_queries: int
    seed: int = SEED
    quota: int = QUOTA


@dataclass
class _Paragraphs:
    """The corpus under construction; exact duplicate (title, text) pairs share one record."""

    rows: list[dict] = field(default_factory=list)
    by_content: dict[tuple[str, str], str] = field(default_factory=dict)
    merged: int = 0

    def add(self, doc_id: str, title: str, text: str) -> str:
        """Add a paragraph and return the doc_id its questions should point to."""
        kept = self.by_content.get((title, text))
        if kept is not None:
            self.merged += 1
            return kept
        self.by_content[(title, text)] = doc_id
        self.rows.append({"doc_id": doc_id, "title": title, "text": text})
        return doc_id


Pool = dict[str, list[dict]]  # doc_id -> eligible query rows written for that paragraph


def _answers(qa: dict) -> list[str]:
    """The reference answer strings, stripped and de-duplicated in source order."""
    return list(dict.fromkeys(a["text"].strip() for a in qa["answers"] if a["text"].strip()))


def _eligible(qa: dict, doc_id: str, text: str) -> dict | None:
    """The query row of ``qa``, or None when no answer can be found in ``text``."""
    answers = _answers(qa)
    if qa.get("is_impossible") or not any(a in text for a in answers):
        return None
    return {
        "qid": qa["id"],
        "question": qa["question"].strip(),
        "answers": answers,
        "gold_doc_ids": [doc_id],
    }


def _sample(pool: Pool, rng: random.Random, quota: int) -> list[dict]:
    """Round-robin over shuffled paragraphs, so questions spread over as many as possible."""
    order = sorted(pool)
    rng.shuffle(order)
    lists = []
    for doc_id in order:
        questions = list(pool[doc_id])
        rng.shuffle(questions)
        lists.append(questions)
    picked: list[dict] = []
    seen: set[str] = set()
    for depth in range(max(map(len, lists), default=0)):
        for questions in lists:
            if len(picked) == quota:
                return sorted(picked, key=lambda q: q["qid"])
            if depth < len(questions) and questions[depth]["question"] not in seen:
                seen.add(questions[depth]["question"])
                picked.append(questions[depth])
    return sorted(picked, key=lambda q: q["qid"])


def _check_split(split: str) -> None:
    if split not in SPLITS:
        raise InvalidInput(f"unknown split {split!r}: use {' or '.join(SPLITS)}")


def _samples(pools: dict[str, Pool], seed: int, quota: int) -> dict[str, list[dict]]:
    return {s: _sample(pools[s], random.Random(seed * 10 + i), quota) for i, s in enumerate(SPLITS)}


def _jsquad_file(source: dict, corpus: _Paragraphs) -> tuple[Pool, int, int]:
    """Add the paragraphs of one JSQuAD file; its question pool, paragraph and question counts."""
    pool: Pool = {}
    paragraphs = questions = 0
    for article in source["data"]:
        for paragraph in article["paragraphs"]:
            # Ids look like a<article>p<paragraph>q<question>; the prefix names the paragraph.
            doc_id = paragraph["qas"][0]["id"].rsplit("q", 1)[0]
            # The context repeats the title in front; keep it out of the searchable text.
            _, body = paragraph["context"].split(JSQUAD_SEP, 1)
            gold = corpus.add(doc_id, article["title"], body)
            paragraphs += 1
            for qa in paragraph["qas"]:
                questions += 1
                row = _eligible(qa, gold, body)
                if row is not None:
                    pool.setdefault(gold, []).append(row)
    return pool, paragraphs, questions


def build_jsquad(
    valid: dict, test: dict, split: str = "dev", *, seed: int = SEED, quota: int = QUOTA
) -> Built:
    """JSQuAD: questions of ``valid`` (dev) or ``test`` (holdout) over both files' paragraphs."""
    _check_split(split)
    sources = dict(zip(SPLITS, (valid, test), strict=True))
    corpus = _Paragraphs()
    # Valid first, then test: the corpus keeps that source order.
    read = {s: _jsquad_file(source, corpus) for s, source in sources.items()}
    pools = {s: pool for s, (pool, _, _) in read.items()}
    titles = [{a["title"] for a in source["data"]} for source in sources.values()]
    stats = {
        "source_articles": {s: len(source["data"]) for s, source in sources.items()},
        "shared_article_titles": len(titles[0] & titles[1]),
        "source_paragraphs": {s: paragraphs for s, (_, paragraphs, _) in read.items()},
        "duplicate_paragraphs_merged": corpus.merged,
        "source_questions": {s: questions for s, (_, _, questions) in read.items()},
        "eligible_questions": {s: sum(map(len, p.values())) for s, p in pools.items()},
        "paragraphs_with_eligible_questions": {s: len(p) for s, p in pools.items()},
    }
    return _built("jsquad_ja", split, corpus.rows, _samples(pools, seed, quota), stats, seed, quota)


def build_xquad(source: dict, split: str = "dev", *, seed: int = SEED, quota: int = QUOTA) -> Built:
    """XQuAD: all paragraphs as corpus; questions from a topic-disjoint half of the articles."""
    _check_split(split)
    titles = sorted(a["title"] for a in source["data"])
    random.Random(seed).shuffle(titles)
    half = len(titles) // 2
    split_of = {t: SPLITS[0] if n < half else SPLITS[1] for n, t in enumerate(titles)}
    corpus = _Paragraphs()
    pools: dict[str, Pool] = {s: {} for s in SPLITS}
    questions = 0
    for article in source["data"]:
        for index, paragraph in enumerate(article["paragraphs"]):
            text = paragraph["context"]
            gold = corpus.add(
                f"{article['title']}_p{index}", article["title"].replace("_", " "), text
            )
            for qa in paragraph["qas"]:
                questions += 1
                row = _eligible(qa, gold, text)
                if row is not None:
                    pools[split_of[article["title"]]].setdefault(gold, []).append(row)
    eligible = {s: sum(map(len, p.values())) for s, p in pools.items()}
    stats = {
        "source_paragraphs": sum(len(a["paragraphs"]) for a in source["data"]),
        "source_articles": len(source["data"]),
        "source_questions": questions,
        "eligible_questions": sum(eligible.values()),
        "articles": {split: sorted(t for t, s in split_of.items() if s == split)},
        "eligible_questions_per_split_pool": eligible,
    }
    return _built("xquad_en", split, corpus.rows, _samples(pools, seed, quota), stats, seed, quota)


def _built(
    name: str,
    split: str,
    corpus: list[dict],
    samples: dict[str, list[dict]],
    stats: dict,
    seed: int,
    quota: int,
) -> Built:
    (other,) = (s for s in SPLITS if s != split)
    return Built(name, split, corpus, samples[split], stats, len(samples[other]), seed, quota)


def _jsonl(rows: Iterable[dict]) -> bytes:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode("utf-8")


def _file_line(path: str, data: bytes) -> str:
    return f"`{path}` {len(data):,} bytes, sha256 `{hashlib.sha256(data).hexdigest()}`"


def _readme(built: Built, provenance: Provenance, corpus: bytes, queries: bytes) -> str:
    (other,) = (s for s in SPLITS if s != built.split)
    gold = {d for q in built.queries for d in q["gold_doc_ids"]}
    files = [f"- File: `{f.path}` (sha256 `{f.sha256}`)" for f in provenance.files]
    steps = [f"{n}. {step}" for n, step in enumerate(provenance.recipe, 1)]
    lines = [
        f"# {built.name} — {built.split} split (retrieval + QA eval)",
        "",
        "Real public data, re-formatted; nobody on this team wrote any question, answer or "
        "paragraph.",
        "",
        "## Source",
        "",
        f"- Repository: https://github.com/{provenance.repo}",
        f"- Commit: `{provenance.commit}`",
        *files,
        f"- License: {provenance.license}",
        f"- Attribution: {provenance.attribution}",
        "",
        "## Files",
        "",
        '- `corpus.jsonl`: `{"doc_id": str, "title": str, "text": str}`, one record per unique '
        "paragraph.",
        '- `queries.jsonl`: `{"qid": str, "question": str, "answers": [str,...], '
        '"gold_doc_ids": [str,...]}`; `qid` is the original dataset question id; `answers` are '
        "all reference answer strings.",
        "",
        "## Counts",
        "",
        f"- corpus paragraphs: {len(built.corpus)} ({_file_line('corpus.jsonl', corpus)})",
        f"- {built.split} queries: {len(built.queries)} ({_file_line('queries.jsonl', queries)})",
        f"- distinct gold paragraphs in this split: {len(gold)}",
        f"- the other split ({other}) has {built.other_split_queries} disjoint queries over the "
        "same corpus, stored separately",
        f"- source statistics: `{json.dumps(built.stats, ensure_ascii=False)}`",
        "",
        "## Build recipe",
        "",
        f"Seed {built.seed}, {built.quota} queries per split, built by a script that reads the "
        "source files at the commit above.",
        "",
        *steps,
        "",
        "## Caveats",
        "",
        *(f"- {c}" for c in provenance.caveats),
        "",
    ]
    return "\n".join(lines)


def write_dataset(built: Built, folder: Path, provenance: Provenance) -> Path:
    """Write corpus.jsonl, queries.jsonl and README.md of ``built`` into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    corpus, queries = _jsonl(built.corpus), _jsonl(built.queries)
    # Bytes, not text mode: the sha256 in the README must hold on every platform.
    (folder / "corpus.jsonl").write_bytes(corpus)
    (folder / "queries.jsonl").write_bytes(queries)
    (folder / "README.md").write_bytes(_readme(built, provenance, corpus, queries).encode())
    return folder


def download(source: SourceFile, client: httpx.Client) -> dict:
    """The parsed JSON of ``source``, refused unless its bytes have the pinned sha256."""
    try:
        response = client.get(source.url)
        response.raise_for_status()
    except httpx.HTTPStatusError as exc:
        raise InvalidInput(
            f"cannot download {source.url}: HTTP {exc.response.status_code}"
        ) from exc
    except httpx.TransportError as exc:
        raise InvalidInput(
            f"cannot download {source.url}: {str(exc) or type(exc).__name__}. eval fetch needs the "
            "internet; on a machine without it, pass an existing folder with --dataset "
            "(corpus.jsonl + queries.jsonl)"
        ) from exc
    digest = hashlib.sha256(response.content).hexdigest()
    if digest != source.sha256:
        raise EduanimaError(
            f"{source.url} has sha256 {digest}, expected {source.sha256}: refusing a file that "
            "is not the pinned release"
        )
    return json.loads(response.content)


_FORMAT_CAVEATS = (
    "Gold is the single paragraph the question was written from. Answer strings (especially "
    "short ones: numbers, years, names) may also occur in other paragraphs, so an answer-string "
    "match in a non-gold paragraph is not necessarily a hit, and a non-gold paragraph may still "
    "support the answer."
)
_STRIPPED = "Question texts are stripped of surrounding whitespace (a few start with a space)."

_JGLUE = ("yahoojapan/JGLUE", "6f071c09316baae89c3d083a90985b4b1cb9968c")
JSQUAD = Provenance(
    files=(
        SourceFile(
            *_JGLUE,
            "datasets/jsquad-v1.3/valid-v1.3.json",
            "fb0a57a35281ff03bbe7f0e878cff5b577985fbe6fcb242e7e8ddb63d1c0ab11",
        ),
        SourceFile(
            *_JGLUE,
            "datasets/jsquad-v1.3/test-v1.3.json",
            "0078f3f2e1604a201700c24139e198344fa689e02282fc00adaa31687cce2aff",
        ),
    ),
    license=(
        "CC BY-SA 4.0 (JGLUE repository LICENSE; paragraphs are from Japanese Wikipedia, "
        "CC BY-SA). Redistribution of this derived set must keep attribution and the same "
        "license (ShareAlike)."
    ),
    attribution=(
        "JSQuAD, part of JGLUE by Yahoo Japan Corporation and Waseda University. Kurihara, "
        "Kawahara, Shibata. 'JGLUE: Japanese General Language Understanding Evaluation', LREC "
        "2022; and 栗原・河原・柴田, 'JGLUE: 日本語言語理解ベンチマーク', "
        "自然言語処理 30(1):63-87, 2023, doi:10.5715/jnlp.30.63. Contexts from the Japanese "
        "Wikipedia dump of 2021-11-01 (CC BY-SA). Modified here: re-formatted into a retrieval "
        "benchmark (paragraph corpus + sampled questions)."
    ),
    recipe=(
        "Download `datasets/jsquad-v1.3/valid-v1.3.json` (source of DEV queries) and "
        "`datasets/jsquad-v1.3/test-v1.3.json` (source of HOLDOUT queries) from "
        "raw.githubusercontent.com at the commit above and check their sha256. The two files "
        "cover different Wikipedia articles (see `shared_article_titles` in stats).",
        'Each SQuAD paragraph becomes one corpus record: context `"<title> [SEP] <body>"` is '
        "split at the first ` [SEP] `; `title` = article title, `text` = body (no title "
        "prefix). `doc_id` = paragraph prefix of the JSQuAD question ids "
        "(`a<article id>p<paragraph index>`). Exact duplicate (title, text) pairs are merged "
        "(see `duplicate_paragraphs_merged` in stats).",
        "Corpus = ALL paragraphs of both files (valid first, then test, source order); for a "
        "given split, the other file's paragraphs and the unsampled paragraphs act as "
        "distractors. The same corpus.jsonl is written for dev and holdout.",
        "Question eligibility: not `is_impossible`; reference answers = the annotators' answer "
        "texts, stripped and de-duplicated in source order; a question is dropped if none of "
        "its answers occurs verbatim in the body text (these are questions whose answer is "
        "only in the title prefix). " + _STRIPPED,
        "Sampling (300 per split): for split i (dev=0, holdout=1) use "
        "`random.Random(20251122*10+i)`; shuffle the sorted list of paragraph ids with an "
        "eligible question, shuffle each paragraph's question list, then take questions "
        "round-robin (1st question of each paragraph in shuffled order, then 2nd, ...) skipping "
        "exact duplicate question strings, until the quota is met. With >1,100 paragraphs per "
        "file this yields at most one question per paragraph.",
        "`gold_doc_ids` = the paragraph the question was written for (single id). "
        "queries.jsonl is sorted by qid; corpus.jsonl keeps source order.",
    ),
    caveats=(
        _FORMAT_CAVEATS,
        "SQuAD-style questions were written while looking at the paragraph, so they have high "
        "lexical overlap with it (favours BM25) and some are under-specified out of context "
        "(e.g. refer to 'この/その' or omit the subject).",
        "The paragraph title is kept out of `text`; questions whose answers occur only in the "
        "title were dropped. Text is kept exactly as in the source (no Unicode normalisation; "
        "mixed full/half-width forms occur).",
    ),
)

XQUAD = Provenance(
    files=(
        SourceFile(
            "google-deepmind/xquad",
            "7d30520c717524000f0d9d2f9c10a069acd9d285",
            "xquad.en.json",
            "e4c57d1c9143aaa1c5d265ba5987a65f4e69528d2a98f29d6e75019b10344f29",
        ),
    ),
    license=(
        "CC BY-SA 4.0 (XQuAD README + CC-BY-SA4.0.txt; English text is SQuAD v1.1 dev, "
        "CC BY-SA 4.0, from English Wikipedia). Redistribution of this derived set must keep "
        "attribution and the same license (ShareAlike)."
    ),
    attribution=(
        "XQuAD by Mikel Artetxe, Sebastian Ruder, Dani Yogatama (DeepMind), 'On the "
        "Cross-lingual Transferability of Monolingual Representations', ACL 2020 "
        "(arXiv:1910.11856). The English file is a subset of the SQuAD v1.1 development set "
        "(Rajpurkar, Zhang, Lopyrev, Liang, 'SQuAD: 100,000+ Questions for Machine "
        "Comprehension of Text', EMNLP 2016), paragraphs from English Wikipedia. Modified here: "
        "re-formatted into a retrieval benchmark (paragraph corpus + sampled questions)."
    ),
    recipe=(
        "Download `xquad.en.json` from raw.githubusercontent.com at the commit above and check "
        "its sha256 (48 articles x 5 paragraphs, 1,190 questions, one answer each).",
        "Each paragraph becomes one corpus record: `doc_id` = `<ArticleTitle>_p<i>` (i = "
        "0-based paragraph index within the article in the source file), `title` = article "
        "title with `_` replaced by spaces, `text` = context verbatim.",
        "Corpus = all 240 paragraphs (the whole English file); the same corpus.jsonl is written "
        "for dev and holdout. There are no extra distractors beyond XQuAD itself (the full "
        "SQuAD dev file is >4 MiB and was not available).",
        "Split by article: sort the 48 titles, shuffle with `random.Random(20251122)`, first 24 "
        "-> dev question pool, last 24 -> holdout question pool (topic-disjoint). Paragraphs of "
        "the other split's articles are in the corpus as distractors.",
        "Sampling (300 per split): `random.Random(20251122*10+i)` (dev i=0, holdout i=1); "
        "shuffle the sorted paragraph ids of that pool, shuffle each paragraph's questions, "
        "take questions round-robin (1st of every paragraph, then 2nd, ...) skipping exact "
        "duplicate question strings, until the quota is met (120 paragraphs per pool -> 2-3 "
        "questions per paragraph).",
        "A question is kept only if its answer occurs verbatim in the paragraph (all do). "
        "`gold_doc_ids` = source paragraph. queries.jsonl sorted by qid. " + _STRIPPED,
    ),
    caveats=(
        _FORMAT_CAVEATS,
        "SQuAD-style questions were written while looking at the paragraph, so they have high "
        "lexical overlap with it (favours BM25) and some are under-specified out of context "
        "(e.g. 'the team', 'he', 'this method' without naming it).",
        "The corpus is small (240 paragraphs, 48 articles, 5 paragraphs each), so the retrieval "
        "task is mostly discrimination among same-article paragraphs; scores will be higher "
        "than on a large corpus. XQuAD English = SQuAD v1.1 dev subset, which many English "
        "models may have seen during training.",
    ),
)

PROVENANCE = {"jsquad_ja": JSQUAD, "xquad_en": XQUAD}


def fetch(
    name: str, root: Path, *, holdout: bool = False, client: httpx.Client | None = None
) -> Path:
    """Download the sources of ``name`` and write its dev (or holdout) split under ``root``.

    The folder is ``root/<name>`` (``root/<name>_holdout`` for the holdout split).
    """
    if name not in PROVENANCE:
        raise InvalidInput(f"unknown dataset {name!r}: use {', '.join(PROVENANCE)}")
    provenance = PROVENANCE[name]
    split = SPLITS[1] if holdout else SPLITS[0]
    own_client = client is None
    client = client or httpx.Client(timeout=TIMEOUT_S, follow_redirects=True)
    try:
        sources = [download(f, client) for f in provenance.files]
    finally:
        if own_client:
            client.close()
    built = build_jsquad(*sources, split) if name == "jsquad_ja" else build_xquad(*sources, split)
    folder = root / (f"{name}_holdout" if holdout else name)
    return write_dataset(built, folder, provenance)
