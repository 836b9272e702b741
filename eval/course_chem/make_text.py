"""Build 08_arrhenius_fit_en.ipynb: the Python exercise by TA Laila Haddad.

The code cells are run here, in order, in one namespace, and their real stdout is stored as
the cells' outputs (nbformat 4.5 with cell ids), the way Jupyter saves an executed notebook.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "materials" / "08_arrhenius_fit_en.ipynb"

CELLS = [
    (
        "markdown",
        """# Python exercise: Arrhenius plot from the class kinetics data

CHEM-1120 General Chemistry II · Assignment 4 · prepared by Laila Haddad (TA)

In Lab 2 every group measured the pseudo-first-order rate constant k′ of crystal violet fading at 25.0 °C. Six groups repeated the run at another temperature in the water bath, so we have one k′ for each of six temperatures. Here we fit ln k′ against 1/T and get the activation energy.

**What to submit:** this notebook with your own plot and your answers to the three questions at the end, as a PDF (File → Print → Save as PDF), on MizuLearn by **14 January 2027, 17:00**.""",
    ),
    (
        "code",
        """import numpy as np

R = 8.314  # J K^-1 mol^-1
t_celsius = np.array([15.0, 20.0, 25.0, 30.0, 35.0, 40.0])
k_obs = np.array([1.58e-3, 2.43e-3, 3.61e-3, 5.30e-3, 7.52e-3, 1.07e-2])  # k' in s^-1, [OH-]0 = 0.020 M
T = t_celsius + 273.15
for tc, k in zip(t_celsius, k_obs):
    print(f"{tc:5.1f} °C  k' = {k:.2e} s^-1")""",
    ),
    (
        "markdown",
        """## Fit

The Arrhenius equation k = A exp(−E_a/RT) becomes a straight line, ln k = ln A − (E_a/R)(1/T). We use `np.polyfit` with degree 1; the slope is −E_a/R.""",
    ),
    (
        "code",
        """x = 1 / T
y = np.log(k_obs)
slope, intercept = np.polyfit(x, y, 1)
Ea = -slope * R
A = np.exp(intercept)
r2 = np.corrcoef(x, y)[0, 1] ** 2
print(f"slope     = {slope:.1f} K")
print(f"intercept = {intercept:.2f}")
print(f"Ea = {Ea / 1000:.1f} kJ/mol")
print(f"A  = {A:.2e} s^-1")
print(f"R^2 = {r2:.4f}")""",
    ),
    (
        "markdown",
        """### Residuals

A good fit has small residuals with no pattern. The largest residual tells you which group's point to look at first. (Plotting is left to you: `plt.plot(x, y, "o")` and the fitted line; label the axes with units, e.g. 1/T in K^-1.)""",
    ),
    (
        "code",
        """residuals = y - (slope * x + intercept)
for tc, res in zip(t_celsius, residuals):
    print(f"{tc:5.1f} °C  residual = {res:+.4f}")
worst = t_celsius[np.argmax(np.abs(residuals))]
print(f"largest |residual| at {worst:.1f} °C")""",
    ),
    (
        "markdown",
        """## Using the fit

With the fitted line we can predict k′ at a temperature we did not measure, and the half-life t½ = ln 2 / k′ (first order in crystal violet).""",
    ),
    (
        "code",
        """def k_at(t_c):
    return A * np.exp(-Ea / (R * (t_c + 273.15)))

for t_c in (25.0, 37.0, 50.0):
    k = k_at(t_c)
    print(f"{t_c:4.1f} °C: k' = {k:.2e} s^-1, half-life = {np.log(2) / k:.0f} s")

# second-order constant at 25 °C: k = k' / [OH-]0
print(f"k(25 °C) = {k_at(25.0) / 0.020:.3f} L mol^-1 s^-1")""",
    ),
    (
        "markdown",
        """## Two-point check

Students often use only two temperatures. Compare the two-point estimate from 15 °C and 40 °C with the fit over all six points.""",
    ),
    (
        "code",
        """Ea_two = R * np.log(k_obs[-1] / k_obs[0]) / (1 / T[0] - 1 / T[-1])
print(f"two-point Ea (15 and 40 °C) = {Ea_two / 1000:.1f} kJ/mol")
print(f"difference from the fit     = {(Ea_two - Ea) / 1000:+.1f} kJ/mol")""",
    ),
    (
        "markdown",
        """## Questions (answer in a Markdown cell below)

1. Why do we plot ln k′ and not k′ against 1/T?
2. The 40 °C group said their solution had partly evaporated in the water bath. Would that make their k′ too high or too low? Refit without that point and compare E_a.
3. Use your E_a to estimate by how many times k′ increases between 25 °C and 35 °C, and compare with the measured ratio.

> Note from Laila: please keep the temperatures in kelvin inside the fit. A common mistake last year was fitting against 1/t in °C, which gives a nonsense activation energy. Office hours for this exercise: Tuesdays 13:00–14:00 in the graduate student room C-310.""",
    ),
]


def run() -> dict:
    namespace: dict = {}
    cells = []
    count = 0
    for n, (kind, source) in enumerate(CELLS):
        lines = source.splitlines(keepends=True)
        cell_id = f"c{n:02d}-chem"
        if kind == "markdown":
            cells.append({"cell_type": "markdown", "id": cell_id, "metadata": {}, "source": lines})
            continue
        count += 1
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            exec(compile(source, f"<cell {count}>", "exec"), namespace)
        text = buffer.getvalue()
        outputs = []
        if text:
            outputs.append(
                {"name": "stdout", "output_type": "stream", "text": text.splitlines(keepends=True)}
            )
        cells.append(
            {
                "cell_type": "code",
                "execution_count": count,
                "id": cell_id,
                "metadata": {},
                "outputs": outputs,
                "source": lines,
            }
        )
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {
                "display_name": "Python 3 (ipykernel)",
                "language": "python",
                "name": "python3",
            },
            "language_info": {"name": "python", "version": "3.11.7"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def main() -> None:
    OUT.write_text(json.dumps(run(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
