"""Build 04_rate_laws_gdocs_en.html: Lecture 8 (Dr. Wielgosz) as Google Docs "Download ->
Web page (.html, zipped)" writes it: class-only CSS, `<sub>`/`<sup>` for most sub- and
superscripts, but `<span class="c9">`/`"c2"` (CSS `vertical-align:sub/super`) in the units
table, `<sup><a href="#ftnt1">` footnote references and footnotes at the end.
Markup in TEXT: `_{..}` sub, `^{..}` sup, `**..**` bold, `[[n]]` footnote reference.
"""

import html
import re
from pathlib import Path

TEXT = """TITLE Lecture 8 — Rate Laws, Reaction Order and Half-Lives
SUB CHEM-1120 General Chemistry II · 20 November 2026 · Dr. Tomasz Wielgosz (lecture notes, shared from Google Docs)
H1 1. How fast? Measuring the rate
Thermodynamics (Lectures 4–7) tells us whether a reaction can go and how far. It says nothing about how fast. Diamond → graphite has ΔG° < 0 and still does not happen on any human time scale.
For a reaction aA + bB → cC + dD, the rate is defined so that it is the same whichever species we follow:
CENTER rate = −(1/a) d[A]/dt = −(1/b) d[B]/dt = (1/c) d[C]/dt = (1/d) d[D]/dt
Example: in 2N_{2}O_{5}(g) → 4NO_{2}(g) + O_{2}(g), NO_{2} appears four times as fast as O_{2}, and N_{2}O_{5} disappears twice as fast as O_{2} appears. Concentrations are in M[[1]], so the rate is in M s^{−1}.
H1 2. Rate laws and reaction order
For many reactions the rate can be written as a rate law, rate = k[A]^{m}[B]^{n}. The exponents m and n are the orders with respect to A and B, and m + n is the overall order.
- The orders are found by experiment. They are **not** the stoichiometric coefficients, except for a single elementary step.
- k is the rate constant. It depends on temperature (Lecture 10, Arrhenius) and on a catalyst, but not on concentration.
- Orders are usually 0, 1 or 2, but fractional and negative orders do occur.
H2 2.1 The method of initial rates
We measure the initial rate several times, changing one starting concentration at a time. For the reaction A + 2B → C at 298 K our class data were:
TABLE
Experiment | [A]_{0} / M | [B]_{0} / M | Initial rate / M s^{−1}
1 | 0.010 | 0.010 | 2.4 × 10^{−5}
2 | 0.020 | 0.010 | 9.6 × 10^{−5}
3 | 0.010 | 0.020 | 4.8 × 10^{−5}
END
Doubling [A] (1 → 2) makes the rate four times larger, so the reaction is second order in A. Doubling [B] (1 → 3) doubles the rate, so it is first order in B. The rate law is rate = k[A]^{2}[B], third order overall, and from experiment 1, k = 2.4 × 10^{−5} / (0.010^{2} × 0.010) = 24 M^{−2} s^{−1}.
H2 2.2 Units of k
The units of k change with the overall order, so the units alone tell you the order:
TABLECSS
Overall order | Rate law | Units of k
0 | rate = k | M s^{−1}
1 | rate = k[A] | s^{−1}
2 | rate = k[A]^{2} | M^{−1} s^{−1}
3 | rate = k[A]^{2}[B] | M^{−2} s^{−1}
END
H1 3. Integrated rate laws
Integrating the rate law gives concentration as a function of time. Each order has a plot that gives a straight line — this is how we test the order from data like those in Lab 2.
TABLE
Order | Integrated form | Straight-line plot | Slope
0 | [A] = [A]_{0} − kt | [A] vs t | −k
1 | ln[A] = ln[A]_{0} − kt | ln[A] vs t | −k
2 | 1/[A] = 1/[A]_{0} + kt | 1/[A] vs t | +k
END
H1 4. Half-life
The half-life t_{1/2} is the time for the concentration of a reactant to fall to half its value.
- First order: t_{1/2} = ln 2 / k = 0.693/k. It does not depend on the starting concentration.
- Second order: t_{1/2} = 1/(k[A]_{0}). Each half-life is twice as long as the one before.
- Zero order: t_{1/2} = [A]_{0}/(2k). Each half-life is half as long as the one before.
Worked example (first order). The decomposition of N_{2}O_{5} at 318 K has k = 5.1 × 10^{−4} s^{−1}. Then t_{1/2} = 0.693 / (5.1 × 10^{−4} s^{−1}) = 1.36 × 10^{3} s, a little under 23 minutes. After five half-lives (about 1 h 53 min) only 1/32, roughly 3 %, of the N_{2}O_{5} is left.
Worked example (second order). For 2NO_{2} → 2NO + O_{2} with k = 0.54 M^{−1} s^{−1} and [NO_{2}]_{0} = 0.010 M, t_{1/2} = 1/(0.54 × 0.010) = 185 s; the next half-life is 370 s.
H1 5. Pseudo-first-order conditions
If one reactant is in large excess, its concentration hardly changes and can be folded into the constant. With rate = k[CV^{+}][OH^{−}] and [OH^{−}] ≫ [CV^{+}], we get rate = k′[CV^{+}] with k′ = k[OH^{−}]_{0}. That is exactly the set-up of Lab 2 (crystal violet fading in sodium hydroxide): you measure k′ from a ln plot and then divide by [OH^{−}]_{0} to get k.
H1 6. Before Lab 2 (11 December)
1. Pass the Lab 2 pre-lab quiz on MizuLearn[[2]]. Without it you will not be allowed into C-B1.
2. Bring a USB stick or your laptop: the spectrophotometer exports a CSV of absorbance every 10 s.
3. Hold the cuvette by its frosted sides only; fingerprints on the clear sides change the absorbance.
4. Read Section 5 again and write the expected form of your ln plot in your notebook before the lab.
H1 7. Mistakes from the Lecture 8 in-class quiz
- Reading the order from the balanced equation: in A + 2B → C the order in B is 1, not 2.
- Using t_{1/2} = 0.693/k for a second-order reaction. Check the units of k first: M^{−1} s^{−1} means second order.
- Plotting log_{10}[A] instead of ln[A] and then taking the slope as −k. If you use log_{10}, the slope is −k/2.303.
- Forgetting that the half-life of a first-order reaction is the same at every stage: 75 % is gone after exactly two half-lives.
Only 41 % of the class got the units question right, so expect a similar question on the final exam.
Exam tip: the integrated rate laws and half-life formulas are not printed on the final exam paper. If you cannot remember them, put them on your A4 sheet.
H1 Appendix: words you will hear in Lecture 8
TABLE
English | Japanese | Note
rate constant | 速度定数 | k; depends on T
reaction order | 反応次数 | found by experiment
half-life | 半減期 | t_{1/2}
initial rate | 初速度 | method of initial rates
rate-determining step | 律速段階 | Lecture 12 (Prof. Shinohara)
END
HR
FN 1 M means mol dm^{−3}, the same as mol L^{−1}. Some of the Japanese handouts write mol L^{−1}; the numbers are identical.
FN 2 10 questions, pass mark 8 out of 10, unlimited attempts; it closes on 10 December at 23:59. Laila Haddad (TA) answers questions about it on the MizuLearn forum.
"""
CSS = (
    "@import url(https://themes.googleusercontent.com/fonts/css?kit=fpjTOVmNbO4Lz34iLyptLUXza5VhXqVC6o75Eld_V98);"
    'ol.lst-kix_q1w2e3r4t5-0{list-style-type:none}.lst-kix_q1w2e3r4t5-0>li:before{content:"" counter(lst-ctn-kix_q1w2e3r4t5-0,decimal) ". "}'
    'ul.lst-kix_a9s8d7f6-0{list-style-type:none}.lst-kix_a9s8d7f6-0>li:before{content:"\\0025cf   "}'
    "ol{margin:0;padding:0}table td,table th{padding:0}"
    '.c0{color:#000000;font-weight:400;text-decoration:none;vertical-align:baseline;font-size:11pt;font-family:"Arial";font-style:normal}'
    ".c1{padding-top:0pt;padding-bottom:0pt;line-height:1.15;orphans:2;widows:2;text-align:left}"
    ".c2{vertical-align:super;font-size:11pt}"
    ".c3{border-right-style:solid;padding:5pt 5pt 5pt 5pt;border-bottom-color:#000000;border-top-width:1pt;border-right-width:1pt;border-left-color:#000000;vertical-align:top;border-right-color:#000000;border-left-width:1pt;border-top-style:solid;border-left-style:solid;border-bottom-width:1pt;width:117pt;border-top-color:#000000;border-bottom-style:solid}"
    ".c4{font-weight:700}.c5{padding-top:20pt;padding-bottom:6pt;line-height:1.15;page-break-after:avoid;text-align:left}"
    ".c6{height:0pt}.c7{margin-left:auto;border-spacing:0;border-collapse:collapse;margin-right:auto}"
    ".c8{font-size:11pt}.c9{vertical-align:sub;font-size:11pt}.c10{font-style:italic}"
    ".c11{background-color:#ffffff;max-width:451.4pt;padding:72pt 72pt 72pt 72pt}.c12{padding-top:0pt;padding-bottom:3pt;line-height:1.15;page-break-after:avoid;text-align:left}"
    '.c13{margin-left:36pt;padding-left:0pt}.c14{text-align:center}.title{padding-top:0pt;color:#000000;font-size:26pt;padding-bottom:3pt;font-family:"Arial";line-height:1.15;page-break-after:avoid;orphans:2;widows:2;text-align:left}'
    'h1{padding-top:20pt;color:#000000;font-size:20pt;padding-bottom:6pt;font-family:"Arial";line-height:1.15;page-break-after:avoid;orphans:2;widows:2;text-align:left}'
    'h2{padding-top:18pt;color:#000000;font-size:16pt;padding-bottom:6pt;font-family:"Arial";line-height:1.15;page-break-after:avoid;orphans:2;widows:2;text-align:left}'
)


def inline(s, css_mode=False):
    # _{x} -> <sub>, ^{x} -> <sup>; in css_mode use Google's class spans instead
    out = []
    for part in re.split(r"(_\{[^}]*\}|\^\{[^}]*\}|\*\*[^*]+\*\*|\[\[\d+\]\])", s):
        if not part:
            continue
        if part.startswith("_{"):
            t = html.escape(part[2:-1])
            out.append(
                f'<span class="c9">{t}</span>'
                if css_mode
                else f'</span><sub class="c8">{t}</sub><span class="c0">'
            )
        elif part.startswith("^{"):
            t = html.escape(part[2:-1])
            out.append(
                f'<span class="c2">{t}</span>'
                if css_mode
                else f'</span><sup class="c8">{t}</sup><span class="c0">'
            )
        elif part.startswith("**"):
            out.append(
                f'</span><span class="c0 c4">{html.escape(part[2:-2])}</span><span class="c0">'
            )
        elif part.startswith("[["):
            n = part[2:-2]
            out.append(
                f'</span><sup><a href="#ftnt{n}" id="ftnt_ref{n}">[{n}]</a></sup><span class="c0">'
            )
        else:
            out.append(html.escape(part))
    res = "".join(out)
    if css_mode:
        return f'<span class="c0">{res}</span>'
    return re.sub(r'<span class="c0"></span>', "", f'<span class="c0">{res}</span>')


hid = iter(
    [
        "h.3znysh7",
        "h.2et92p0",
        "h.tyjcwt",
        "h.3dy6vkm",
        "h.1t3h5sf",
        "h.4d34og8",
        "h.2s8eyo1",
        "h.17dp8vu",
        "h.3rdcrjn",
        "h.26in1rg",
        "h.lnxbz9",
        "h.35nkun2",
    ]
)
body = []
lines = TEXT.split("\n")
i = 0
while i < len(lines):
    ln = lines[i]
    if ln.startswith("TITLE "):
        body.append(
            f'<p class="c12 title" id="{next(hid)}"><span class="c0">{html.escape(ln[6:])}</span></p>'
        )
    elif ln.startswith("SUB "):
        body.append(f'<p class="c1"><span class="c0 c10">{html.escape(ln[4:])}</span></p>')
    elif ln.startswith("H1 "):
        body.append(
            f'<h1 class="c5" id="{next(hid)}"><span class="c0">{html.escape(ln[3:])}</span></h1>'
        )
    elif ln.startswith("H2 "):
        body.append(
            f'<h2 class="c5" id="{next(hid)}"><span class="c0">{html.escape(ln[3:])}</span></h2>'
        )
    elif ln.startswith("- "):
        items = []
        while i < len(lines) and lines[i].startswith("- "):
            items.append(f'<li class="c1 c13 li-bullet-0">{inline(lines[i][2:])}</li>')
            i += 1
        body.append('<ul class="c7 lst-kix_a9s8d7f6-0 start">' + "".join(items) + "</ul>")
        continue
    elif ln.startswith("1. "):
        items = []
        while i < len(lines) and re.match(r"\d+\. ", lines[i]):
            items.append(f'<li class="c1 c13 li-bullet-0">{inline(lines[i].split(" ", 1)[1])}</li>')
            i += 1
        body.append(
            '<ol class="c7 lst-kix_q1w2e3r4t5-0 start" start="1">' + "".join(items) + "</ol>"
        )
        continue
    elif ln.startswith("TABLE"):
        css = ln.strip() == "TABLECSS"
        rows = []
        i += 1
        while lines[i] != "END":
            cells = [c.strip() for c in lines[i].split("|")]
            tds = "".join(
                f'<td class="c3" colspan="1" rowspan="1"><p class="c1"><span class="c0">{inline(c, css_mode=css)}</span></p></td>'
                for c in cells
            )
            rows.append(f'<tr class="c6">{tds}</tr>')
            i += 1
        body.append(
            '<table class="c7">'
            + "".join(rows)
            + '</table><p class="c1"><span class="c0"></span></p>'
        )
    elif ln.startswith("CENTER "):
        body.append(f'<p class="c1 c14">{inline(ln[7:])}</p>')
    elif ln.startswith("FN "):
        n, text = ln[3:].split(" ", 1)
        body.append(
            f'<div><p class="c1"><a href="#ftnt_ref{n}" id="ftnt{n}">[{n}]</a><span class="c0">&nbsp;{inline(text)[17:]}</p></div>'
        )
    elif ln.startswith("HR"):
        body.append('<hr class="c15">')
    elif ln.strip():
        body.append(f'<p class="c1">{inline(ln)}</p>')
    i += 1
doc = (
    '<html><head><meta content="text/html; charset=UTF-8" http-equiv="content-type"><style type="text/css">'
    + CSS
    + '</style></head><body class="c11 doc-content">'
    + "".join(body)
    + "</body></html>"
)
(Path(__file__).resolve().parent / "materials" / "04_rate_laws_gdocs_en.html").write_text(
    doc, encoding="utf-8"
)
