"""Generate eval/course/materials/09_lab_exercises.pdf (lab handout: text layer, bookmarks).

Modelled on demo/make_pdf.py. Run from the repository root:
    .venv/bin/python eval/course/make_pdf.py
Text stays within Latin-1 because fpdf2's core fonts cover nothing else.
The creation date is fixed, so the output is reproducible byte for byte.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from fpdf import FPDF

OUT = Path(__file__).parent / "materials" / "09_lab_exercises.pdf"

TITLE = "CS-318 Lab Exercises: Ranking, Evaluation and Capacity Planning"

# (section title, [paragraphs]); each section starts on a new page.
SECTIONS: list[tuple[str, list[str]]] = [
    (
        "Lab 1: Scoring a toy corpus with BM25 by hand",
        [
            "Goal: compute BM25 scores without a search engine, so that you can check the"
            " output of the bm25_search function from Lecture 4. Use k1 = 1.2, b = 0.75 and"
            " the Lucene form of IDF with the natural logarithm:"
            " IDF(t) = ln(1 + (N - n_t + 0.5) / (n_t + 0.5)).",
            "Corpus. Four short documents about storage engines, already tokenized."
            " d1 has 8 tokens and contains 'btree' twice and 'index' once."
            " d2 has 12 tokens and contains 'index' three times."
            " d3 has 6 tokens and contains 'index' once."
            " d4 has 14 tokens and contains neither term."
            " The average document length is avgdl = (8 + 12 + 6 + 14) / 4 = 10 tokens.",
            "Query: 'btree index'. There are N = 4 documents; 'btree' occurs in n = 1 of them"
            " and 'index' in n = 3.",
            "Step 1 (IDF). IDF(btree) = ln(1 + 3.5 / 1.5) = ln(3.333) = 1.204."
            " IDF(index) = ln(1 + 1.5 / 3.5) = ln(1.429) = 0.357. The rare term is worth"
            " more than three times as much as the common one.",
            "Step 2 (length normalization). K = k1 x (1 - b + b x dl / avgdl)."
            " For d1: K = 1.2 x (0.25 + 0.75 x 0.8) = 1.02. For d2: K = 1.38. For d3: K = 0.84.",
            "Step 3 (term scores). The term score is IDF x tf x (k1 + 1) / (tf + K)."
            " d1: btree gives 1.204 x 4.4 / 3.02 = 1.754 and index gives"
            " 0.357 x 2.2 / 2.02 = 0.389, so score(d1) = 2.143."
            " d2: index gives 0.357 x 6.6 / 4.38 = 0.537, so score(d2) = 0.537."
            " d3: index gives 0.357 x 2.2 / 1.84 = 0.426, so score(d3) = 0.426."
            " d4 scores 0 and is never touched, because it is in neither posting list.",
            "Result: d1 > d2 > d3. Note that d2 contains 'index' three times but scores only"
            " 26% higher than d3, which contains it once: tf saturates and d2 is also the"
            " longer document.",
            "Exercise 1a: recompute the scores with b = 0 (no length normalization)."
            " Expected answer: d1 = 2.012, d2 = 0.560, d3 = 0.357.",
            "Exercise 1b: explain in two sentences why d2 gains and d3 loses when b = 0.",
        ],
    ),
    (
        "Lab 2: Fusing two rankings and measuring nDCG and MRR",
        [
            "Goal: apply reciprocal rank fusion (Lecture 6) to two candidate lists and evaluate"
            " the fused list with graded judgments.",
            "Input. For query q1 the BM25 retriever returns [D3, D1, D7, D2] and the dense"
            " retriever returns [D1, D5, D3, D8]. Use RRF with k = 60.",
            "Fused scores. D1: 1/62 + 1/61 = 0.03252. D3: 1/61 + 1/63 = 0.03227."
            " D5: 1/62 = 0.01613. D7: 1/63 = 0.01587. D2 and D8: 1/64 = 0.01563 each; the tie"
            " is broken by the better lexical rank, so D2 comes before D8."
            " Fused top 5: D1, D3, D5, D7, D2.",
            "Judgments for q1 (0-3 scale): D1 = 3, D3 = 2, D5 = 0, D7 = 1, D2 = 2, D8 = 2;"
            " all other documents are 0.",
            "DCG@5 with linear gain. The grades in fused order are 3, 2, 0, 1, 2. The"
            " discounted gains are 3/1 = 3.000, 2/1.585 = 1.262, 0, 1/2.322 = 0.431 and"
            " 2/2.585 = 0.774, so DCG@5 = 5.466.",
            "Ideal DCG@5. The best possible order of the judged grades is 3, 2, 2, 2, 1, giving"
            " IDCG@5 = 3.000 + 1.262 + 1.000 + 0.861 + 0.387 = 6.510."
            " Therefore nDCG@5 = 5.466 / 6.510 = 0.840.",
            "Recall@5 (grades 2 and 3 count as relevant). q1 has four relevant documents"
            " (D1, D3, D2, D8); three of them are in the fused top 5, so Recall@5 = 0.75."
            " D8 is the one that was lost.",
            "MRR over three queries. The first relevant result is at rank 1 for q1, at rank 3"
            " for q2, and q3 has no relevant result in the top 10."
            " MRR = (1 + 1/3 + 0) / 3 = 0.444.",
            "Exercise 2a: D5 (grade 0) is ranked 3rd only because the dense retriever liked it."
            " Swap D5 and D7 and recompute nDCG@5. Expected answer: 0.850.",
        ],
    ),
    (
        "Lab 3: Sizing the vector index for a book catalogue",
        [
            "Goal: estimate the memory needed by an HNSW index before buying hardware. We size"
            " the book-catalogue part of the ShelfFinder case study (Lecture 8): 3.2 million"
            " records, one 768-dimensional embedding each.",
            "Vectors in single precision (4 bytes per dimension):"
            " 3,200,000 x 768 x 4 = 9,830,400,000 bytes, i.e. about 9.83 GB.",
            "Vectors as halfvec (2 bytes per dimension): 4.92 GB. The lecture measured almost"
            " no recall loss for halfvec, so this halves the memory for free.",
            "Graph. With m = 16 each vector keeps up to 2 x m = 32 neighbour links at layer 0."
            " Assume 8 bytes per link: 3,200,000 x 32 x 8 = 819,200,000 bytes, about 0.82 GB."
            " The upper layers hold few vectors; together with page headers and free space we"
            " add 10% on top.",
            "Totals. Single precision: (9.83 + 0.82) x 1.1 = 11.7 GB."
            " Halfvec: (4.92 + 0.82) x 1.1 = 6.3 GB.",
            "Rule of thumb used in this course: the HNSW index should fit in RAM together with"
            " the hot part of the tables; a server with 32 GB of RAM can host the halfvec index"
            " comfortably, but the single-precision index would leave little room for the rest.",
            "Exercise 3a: repeat the estimate for the whole ShelfFinder collection"
            " (14.7 million documents, halfvec). Compare your vector total with the 22.6 GB in"
            " the design document's capacity table.",
            "Exercise 3b: how does the graph part change if m is raised from 16 to 24?"
            " Expected answer: it grows by 50%, to about 1.23 GB for 3.2 million vectors.",
        ],
    ),
    (
        "Lab 4: Partitions and retention for an event stream",
        [
            "Goal: choose the partition count and estimate disk usage for a Kafka topic. A"
            " regional library consortium streams loan and return events into one topic.",
            "Load. On average 1,500 messages per second arrive, 1.2 KB each, i.e. 1.8 MB/s."
            " One indexer consumer instance can apply at most 250 messages per second to the"
            " search index.",
            "Partitions. A consumer group cannot use more consumers than there are partitions,"
            " so we need at least 1,500 / 250 = 6 partitions. Because the partition count"
            " should not be increased later (it changes the key-to-partition mapping), we plan"
            " for 2x growth and create 12 partitions.",
            "Retention. With retention.ms = 604800000 (7 days), one copy of the log needs"
            " 1.8 MB/s x 604,800 s = 1,088,640 MB, about 1.09 TB. With replication factor 3"
            " the cluster stores about 3.27 TB, before compression.",
            "Catch-up time. Suppose the indexers are stopped for 10 minutes for maintenance."
            " The backlog is 1,500 x 600 = 900,000 messages. Twelve consumers drain"
            " 12 x 250 = 3,000 messages per second while 1,500 new ones keep arriving, so the"
            " lag shrinks by 1,500 messages per second and is gone after 600 seconds"
            " (10 minutes).",
            "Exercise 4a: with only 6 partitions (and therefore at most 6 consumers), how long"
            " does the same backlog take to clear? Explain the result.",
            "Exercise 4b: the producer uses compression.type=zstd and we observe a compression"
            " ratio of 4:1. Recompute the cluster storage.",
        ],
    ),
    (
        "Lab 5: Write skew under snapshot isolation",
        [
            "Goal: reproduce the write-skew anomaly from Lecture 3 with two psql sessions and"
            " see how SERIALIZABLE prevents it.",
            "Setup. Table desk_shifts has two rows for 2025-12-20: staff L07 and staff L12,"
            " both with on_duty = true. The rule is that at least one person stays on duty.",
            "Procedure. Open sessions A and B. In both, run BEGIN ISOLATION LEVEL REPEATABLE"
            " READ and count the on-duty staff (both see 2). Session A sets on_duty = false for"
            " L07; session B sets on_duty = false for L12. Commit A, then commit B.",
            "Observation at REPEATABLE READ: both commits succeed, because the two sessions"
            " updated different rows. Nobody is on duty for 2025-12-20: the rule is broken.",
            "Repeat at SERIALIZABLE: the second COMMIT fails with SQLSTATE 40001"
            " (could not serialize access due to read/write dependencies among transactions)."
            " The application must retry session B from the beginning; on retry it sees only"
            " one person on duty and refuses the request.",
            "Exercise 5a: make the REPEATABLE READ version safe without SERIALIZABLE."
            " Hint: lock both rows with SELECT ... FOR UPDATE before counting, always in the"
            " same order of staff_id.",
            "Submission: answer the exercises of Labs 1-5 in one PDF. Show intermediate values"
            " to three decimal places.",
        ],
    ),
]


def build() -> bytes:
    pdf = FPDF(format="A4")
    pdf.set_title(TITLE)
    pdf.set_author("CS-318 teaching team (eduanima eval)")
    pdf.set_creation_date(dt.datetime(2026, 1, 1, tzinfo=dt.UTC))  # reproducible bytes
    pdf.set_auto_page_break(auto=True, margin=20)
    for title, paragraphs in SECTIONS:
        pdf.add_page()
        pdf.set_font("Helvetica", "B", 14)
        pdf.start_section(title, level=0)
        pdf.multi_cell(0, 8, title)
        pdf.ln(4)
        pdf.set_font("Helvetica", "", 11)
        for paragraph in paragraphs:
            pdf.multi_cell(0, 6, paragraph)
            pdf.ln(3)
    return bytes(pdf.output())


if __name__ == "__main__":
    OUT.write_bytes(build())
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")
