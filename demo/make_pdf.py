"""Generate demo/stats101/04_worked_examples.pdf (a small PDF with a text layer and bookmarks).

The generated file is committed, so running the demo needs no generator:
    python demo/make_pdf.py
Text stays within Latin-1 because fpdf2's core fonts cover nothing else.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from fpdf import FPDF

OUT = Path(__file__).parent / "stats101" / "04_worked_examples.pdf"

TITLE = "STATS101 Worked Examples"

# (section title, [paragraphs]); each section starts on a new page.
SECTIONS: list[tuple[str, list[str]]] = [
    (
        "Example 1: Mean, median and standard deviation of quiz scores",
        [
            "Ten students took the first quiz (maximum 100 points). Their scores, sorted, are:"
            " 55, 62, 64, 68, 70, 71, 73, 75, 78, 84.",
            "Mean. The scores add up to 700, so the mean is 700 / 10 = 70.0 points.",
            "Median. With an even count the median is the average of the 5th and 6th sorted"
            " values: (70 + 71) / 2 = 70.5 points.",
            "Deviations from the mean are -15, -8, -6, -2, 0, 1, 3, 5, 8 and 14. Their squares"
            " are 225, 64, 36, 4, 0, 1, 9, 25, 64 and 196, and the sum of squared deviations"
            " is 624.",
            "Sample variance. The class is treated as a sample, so we divide by n - 1 = 9:"
            " s^2 = 624 / 9 = 69.33 (points squared).",
            "Standard deviation. s = sqrt(69.33) = 8.33 points. Had we treated the ten"
            " students as the whole population, the variance would be 624 / 10 = 62.4 and"
            " the standard deviation 7.90 points.",
            "Interpretation: a typical score lies about 8 points away from the class mean of 70.",
        ],
    ),
    (
        "Example 2: What one outlier does to the mean and the median",
        [
            "An eleventh student joined late and scored 14 points after leaving the quiz"
            " early. The sorted data are now 14, 55, 62, 64, 68, 70, 71, 73, 75, 78, 84.",
            "The sum is 714, so the new mean is 714 / 11 = 64.9 points: the single low score"
            " pulled the mean down by 5.1 points.",
            "The median is now the 6th of 11 sorted values, which is 70 points: it moved by"
            " only 0.5 points.",
            "The sample standard deviation more than doubles, from 8.33 to 18.64 points.",
            "Conclusion: the median and the interquartile range are robust to the outlier,"
            " while the mean and the standard deviation are not. For skewed data or data"
            " with outliers, report the median.",
        ],
    ),
    (
        "Example 3: Correlation between study hours and exam score",
        [
            "Six students reported their weekly study hours x and their exam score y:"
            " (1, 52), (2, 60), (3, 58), (4, 70), (5, 75), (6, 83).",
            "Means: x-bar = 3.5 hours and y-bar = 66.33 points.",
            "The sample covariance is cov(x, y) = 106 / 5 = 21.2 (hours x points).",
            "Standard deviations: s_x = 1.871 hours and s_y = 11.67 points.",
            "Pearson's correlation coefficient: r = 21.2 / (1.871 x 11.67) = 0.97, a very"
            " strong positive linear relationship.",
            "Caution: this does not show that studying longer caused the higher scores."
            " Prior knowledge or motivation could drive both, and six students are a very"
            " small sample.",
        ],
    ),
    (
        "Example 4: One-sample t-test on the quiz scores",
        [
            "Question: is the mean quiz score of the class (Example 1) different from the"
            " department's usual mean of 65 points?",
            "Hypotheses: H0: mu = 65 and H1: mu is not 65, with significance level"
            " alpha = 0.05 (two-sided).",
            "Test statistic: t = (70.0 - 65) / (8.33 / sqrt(10)) = 5 / 2.633 = 1.90, with"
            " 10 - 1 = 9 degrees of freedom.",
            "The two-sided critical value for 9 degrees of freedom is 2.262. Since"
            " |t| = 1.90 < 2.262, the two-sided p-value is about 0.09, larger than 0.05.",
            "Decision: we do not reject H0. The data are compatible with a class mean of"
            " 65; ten students are too few to detect a 5-point difference reliably.",
        ],
    ),
]


def build() -> bytes:
    pdf = FPDF(format="A4")
    pdf.set_title(TITLE)
    pdf.set_author("eduanima demo")
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
            pdf.ln(4)
    return bytes(pdf.output())


if __name__ == "__main__":
    OUT.write_bytes(build())
    print(f"wrote {OUT} ({OUT.stat().st_size} bytes)")
