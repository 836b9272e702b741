"""Generate eval/course_sec/materials/07_lab4_passwords_en.pdf (English lab handout).

Modelled on eval/course/make_pdf.py. Run from the repository root:
    .venv/bin/python eval/course_sec/make_pdf.py
Text stays within Latin-1 because fpdf2's core fonts cover nothing else, so the
handout is in English and names are romanised. The creation date is fixed, so the
output is reproducible byte for byte.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from fpdf import FPDF

OUT = Path(__file__).parent / "materials" / "07_lab4_passwords_en.pdf"

TITLE = "SEC-3150 Lab 4: Password Storage and Dictionary Attacks"

# (section title, [blocks]); a block is a paragraph, or ("code", [lines]) set in Courier.
SECTIONS: list[tuple[str, list[object]]] = [
    (
        "Lab 4 overview",
        [
            "Date: Friday 4 December 2026, 4th period (14:55-16:35), Computer Room 3 (E-207)."
            " TA: Hiyori Miyasaka. Report due: Thursday 10 December 2026, 23:59, on Kasumi LMS.",
            "Goal: see with your own eyes why a fast hash is the wrong tool for storing"
            " passwords, measure how slow the slow hashes really are, and plan the migration of"
            " the KBX book-exchange application from unsalted SHA-256 to Argon2id.",
            "Everything in this lab runs on hayate or on your own sec-vm. The leaked table is a"
            " copy made for teaching; the accounts in it do not exist on shizuku any more."
            " Do not run the cracking script against any other data.",
            "Files (in /srv/sec3150/lab4/ on hayate): kbx_users_leak.csv (5 users),"
            " kiri-words-10k.txt (a word list with 10,000 entries), kiri.rule (500 mangling"
            " rules such as 'append a digit' or 'capitalise the first letter') and crack.py.",
        ],
    ),
    (
        "Part A: How slow is a password hash?",
        [
            "Run bench.py on hayate. It hashes the same 12-character password with each"
            " function and reports the mean time of 10 runs on one core. Typical results"
            " from the teaching team's run (yours should be within about 10%):",
            (
                "code",
                [
                    "function                          time per hash",
                    "SHA-256 (one call)                0.4 microseconds",
                    "bcrypt, cost 10                   60 ms",
                    "bcrypt, cost 12                   240 ms",
                    "bcrypt, cost 14                   960 ms",
                    "Argon2id m=19 MiB, t=2, p=1       41 ms",
                    "Argon2id m=64 MiB, t=3, p=1       180 ms",
                ],
            ),
            "Question A1: by what factor does the bcrypt time grow when the cost goes up by 2?"
            " Explain the factor from the definition of the cost parameter.",
            "Question A2: SHA-256 is about 600,000 times faster than bcrypt at cost 12 on this"
            " machine. Why is that speed an advantage for file checksums but a disadvantage"
            " for password storage?",
            "Question A3: the course setting Argon2id m=64 MiB, t=3, p=1 needs 64 MiB of RAM"
            " for every guess. Explain why this hurts an attacker with a GPU more than it"
            " hurts our login server.",
        ],
    ),
    (
        "Part B: Cracking the leaked KBX table",
        [
            "The old KBX stored hex(SHA-256(password)) with no salt. The first 16 hex digits of"
            " each stored hash are shown below (the file has the full 64):",
            (
                "code",
                [
                    "username   password_hash (first 16 hex digits)",
                    "admin      dc92a4b62d1ae927...",
                    "tanaka_b   3cb132a809beea54...",
                    "suzuki_h   d5236995999caa24...",
                    "kbx_bot    42f78245eaba92aa...",
                    "yamada_r   ed3c9886c697c0ac...",
                ],
            ),
            "crack.py applies every rule in kiri.rule to every word in kiri-words-10k.txt, which"
            " gives 10,000 x 500 = 5,000,000 candidates, hashes each candidate once and looks"
            " the result up in a set of the stored hashes. Because there is no salt, one"
            " SHA-256 computation tests a candidate against all five users at once.",
            ("code", ["$ python3 crack.py kbx_users_leak.csv kiri-words-10k.txt kiri.rule"]),
            "Expected result: the run finishes in under 10 seconds and recovers 3 of the 5"
            " passwords (admin, tanaka_b and yamada_r). The passwords of suzuki_h and kbx_bot"
            " were random strings and are not in the candidate list, so a dictionary attack"
            " cannot find them however fast the hash is.",
            "Question B1: write down the three recovered passwords and the rule that produced"
            " each one from a dictionary word.",
            "Question B2: repeat the estimate for bcrypt at cost 12 with per-user salts, using"
            " the course's reference GPU rate of 1,100 bcrypt hashes per second. Each candidate"
            " must now be hashed separately for every user. Expected answer: about 4,545"
            " seconds (76 minutes) per user, or about 6.3 hours for all five users.",
        ],
    ),
    (
        "Part C: Migrating KBX to Argon2id",
        [
            "Asking every user to choose a new password would be the cleanest fix, but many"
            " users never come back. Instead we wrap the old hashes: each stored SHA-256 value"
            " is hashed again with Argon2id, and the plain Argon2id(password) form replaces it"
            " the next time the user logs in successfully.",
            (
                "code",
                [
                    "from argon2 import PasswordHasher",
                    "",
                    "ph = PasswordHasher(time_cost=3, memory_cost=65536, parallelism=1,",
                    "                    hash_len=32, salt_len=16)",
                    "",
                    "def upgrade_all(db):",
                    '    for uid, old in db.execute("SELECT id, password_hash FROM users"):',
                    "        db.execute(\"UPDATE users SET password_hash = ?, scheme = 'wrapped'\"",
                    '                   " WHERE id = ?", (ph.hash(old), uid))',
                    "",
                    "def verify(row, password):",
                    "    if row.scheme == 'wrapped':",
                    "        pre = hashlib.sha256(password.encode()).hexdigest()",
                    "        return ph.verify(row.password_hash, pre)",
                    "    return ph.verify(row.password_hash, password)",
                ],
            ),
            "memory_cost is given in KiB, so 65536 means 64 MiB. On a successful login of a"
            " 'wrapped' user, the application computes ph.hash(password), stores it and sets"
            " scheme = 'argon2id'. verify() raises VerifyMismatchError when the password is"
            " wrong, so the caller must catch it.",
            "Question C1: why must upgrade_all() run for all users at once, rather than only"
            " waiting for logins?",
            "Question C2: the function does not use a pepper. Where would you add it, and where"
            " should the pepper be stored?",
        ],
    ),
    (
        "Report and grading",
        [
            "Submit one PDF named lab4_<student number>.pdf, at most 4 pages, on Kasumi LMS."
            " Answer A1-A3, B1, B2, C1 and C2, and include the output of bench.py from your own"
            " run.",
            "Grading (5% of the course grade): Part A 30 points, Part B 40 points, Part C 30"
            " points. A report that contains a recovered password of another student's account,"
            " or of any account outside the leaked teaching table, gets 0 points and is"
            " reported under the ethics rules in the syllabus.",
            "Late reports: accepted up to 24 hours after the deadline with a 30% deduction,"
            " as for every lab in this course.",
        ],
    ),
]


def build() -> bytes:
    pdf = FPDF(format="A4")
    pdf.set_title(TITLE)
    pdf.set_author("SEC-3150 teaching team (eduanima eval)")
    pdf.set_creation_date(dt.datetime(2026, 11, 27, tzinfo=dt.UTC))  # reproducible bytes
    pdf.set_auto_page_break(auto=True, margin=20)
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.multi_cell(0, 9, TITLE, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)
    pdf.set_font("Helvetica", "", 10)
    pdf.multi_cell(
        0,
        5,
        "Kirigaoka University of Information Sciences, autumn term 2026."
        " Prof. Naoto Kubota; TA Hiyori Miyasaka.",
        new_x="LMARGIN",
        new_y="NEXT",
    )
    pdf.ln(4)
    for n, (title, blocks) in enumerate(SECTIONS):
        if n in (2, 4):
            pdf.add_page()
        pdf.set_font("Helvetica", "B", 13)
        pdf.start_section(title, level=0)
        pdf.multi_cell(0, 8, title, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
        for block in blocks:
            if isinstance(block, tuple):
                pdf.set_font("Courier", "", 9)
                for line in block[1]:
                    pdf.multi_cell(0, 4.5, line or " ", new_x="LMARGIN", new_y="NEXT")
                pdf.ln(3)
            else:
                pdf.set_font("Helvetica", "", 11)
                pdf.multi_cell(0, 6, block, new_x="LMARGIN", new_y="NEXT")
                pdf.ln(2)
        pdf.ln(3)
    return bytes(pdf.output())


if __name__ == "__main__":
    OUT.write_bytes(build())
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")
