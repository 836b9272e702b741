"""Build 06_lab2_prelab_sim_en.ipynb (Lab 2/3 pre-lab simulation by TA Lukas Brandt).

The code cells are run here, in order, in one namespace, and their real outputs (stdout as a
``stream``, the value of a trailing expression as an ``execute_result``) are stored in the
notebook (nbformat 4.5). Run: .venv/bin/python eval/course_circ/make_notebook.py
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "materials" / "06_lab2_prelab_sim_en.ipynb"

CELLS = [
    (
        "markdown",
        """# Lab 2 pre-lab: simulating the RC step response

EE-2104 Electric Circuits I · prepared by Lukas Brandt (TA) · November 2026

Before Lab 2 (24 November) every group runs this notebook, prints the predicted waveform and brings it to E-115.
We describe the circuit as a small SPICE-style netlist and integrate it with NumPy, so you can see what a circuit
simulator does inside. You do not need to install SPICE for this course.""",
    ),
    (
        "markdown",
        """## 1. The netlist

The same circuit as on the bench: a 5 V square wave (period 10 ms) drives R1 = 10 kΩ in series with C1 = 100 nF.
Node `0` is ground. The `.tran` line asks for a transient analysis with a 10 µs step up to 5 ms.""",
    ),
    (
        "code",
        '''NETLIST = """
* Lab 2: RC step response
V1 in 0 PULSE(0 5 0 1u 1u 5m 10m)
R1 in out 10k
C1 out 0 100n
.tran 10u 5m
.end
"""

SUFFIX = {"f": 1e-15, "p": 1e-12, "n": 1e-9, "u": 1e-6, "m": 1e-3, "k": 1e3, "meg": 1e6}


def value(text):
    text = text.lower()
    for s in sorted(SUFFIX, key=len, reverse=True):
        if text.endswith(s):
            return float(text[: -len(s)]) * SUFFIX[s]
    return float(text)


parts = {}
for line in NETLIST.strip().splitlines():
    if line.startswith("*") or line.startswith(".end"):
        continue
    fields = line.split()
    if fields[0] == ".tran":
        step, stop = value(fields[1]), value(fields[2])
    elif fields[0][0] in "RC":
        parts[fields[0]] = (fields[1], fields[2], value(fields[3]))
for name, (a, b, v) in parts.items():
    print(f"{name}: {a} -> {b}, {v:g}")
print(f"transient: step {step:g} s, stop {stop:g} s")''',
    ),
    (
        "markdown",
        """## 2. Time constant and the exact solution

For a step from 0 to 5 V the capacitor voltage is v(t) = 5 (1 − e^(−t/τ)) with τ = R1·C1.""",
    ),
    (
        "code",
        """import numpy as np

R = parts["R1"][2]
C = parts["C1"][2]
tau = R * C
V = 5.0
t = np.arange(0.0, stop + step / 2, step)
exact = V * (1 - np.exp(-t / tau))
print(f"tau = {tau * 1e3:.3f} ms")
for ms in (1, 2, 3, 5):
    k = int(round(ms * 1e-3 / step))
    print(f"v_out({ms} ms) = {exact[k]:.3f} V")""",
    ),
    (
        "markdown",
        """## 3. What a simulator does: backward Euler

A simulator replaces dv/dt by a finite difference. Backward Euler is what SPICE uses at the start of a
transient; it is stable for any step but slightly too slow when the step is large. Compare two step sizes.""",
    ),
    (
        "code",
        """def backward_euler(h):
    n = int(round(stop / h))
    v = np.zeros(n + 1)
    for i in range(n):
        v[i + 1] = (v[i] + h * V / tau) / (1 + h / tau)
    return np.arange(n + 1) * h, v


for h in (10e-6, 200e-6):
    tt, vv = backward_euler(h)
    k = int(round(1e-3 / h))
    err = vv[k] - V * (1 - np.exp(-1))
    print(f"h = {h * 1e6:5.0f} us: v(1 ms) = {vv[k]:.4f} V, error {err * 1e3:+.1f} mV")""",
    ),
    (
        "markdown",
        """## 4. Reading tau the way you will on the oscilloscope

On the bench you cannot fit an exponential; you read the time at which the voltage crosses 63.2 % of its final
value. We do the same on the simulated curve (linear interpolation between samples).""",
    ),
    (
        "code",
        """level = 0.632 * V
k = np.argmax(exact >= level)
t63 = t[k - 1] + (level - exact[k - 1]) / (exact[k] - exact[k - 1]) * step
print(f"63.2 % level = {level:.2f} V reached at t = {t63 * 1e3:.3f} ms")
print(f"5 tau = {5 * tau * 1e3:.1f} ms -> v = {V * (1 - np.exp(-5)):.3f} V")""",
    ),
    (
        "markdown",
        """## 5. Lab 3 preview: AC sweep of the series RLC circuit

Lab 3 uses R = 47 Ω, L = 10 mH, C = 100 nF. Instead of `.tran` a simulator runs `.ac dec 50 1k 20k`:
it solves the phasor equations at each frequency. Here is the same sweep with complex numbers.""",
    ),
    (
        "code",
        """R3, L3, C3 = 47.0, 10e-3, 100e-9
f = np.logspace(3, np.log10(20e3), 400)
w = 2 * np.pi * f
Z = R3 + 1j * w * L3 + 1 / (1j * w * C3)
I = 1.0 / np.abs(Z)  # 1 V source
f0 = 1 / (2 * np.pi * np.sqrt(L3 * C3))
Q = np.sqrt(L3 / C3) / R3
print(f"f0 (formula) = {f0:.0f} Hz")
print(f"f0 (sweep peak) = {f[np.argmax(I)]:.0f} Hz")
print(f"Q = {Q:.2f}, bandwidth = {f0 / Q:.0f} Hz")
print(f"|Z| at f0 = {np.abs(R3 + 1j * 2 * np.pi * f0 * L3 + 1 / (1j * 2 * np.pi * f0 * C3)):.1f} ohm")""",
    ),
    (
        "code",
        """# the worst case for the capacitor in Lab 3: V_C = Q x source amplitude (2.0 V)
round(Q * 2.0, 1)""",
    ),
    (
        "markdown",
        """## 6. A look back at Lab 1: the loading effect

The same netlist idea works for DC. In Lab 1 a load equal to R2 was connected across the divider output.
The loaded output is the divider with R2 replaced by R2 ∥ R_load.""",
    ),
    (
        "code",
        """def divider(vin, r1, r2, load=None):
    if load is not None:
        r2 = r2 * load / (r2 + load)
    return vin * r2 / (r1 + r2)


for r1, r2, vin in ((4.7e3, 10e3, 10.0), (10e3, 10e3, 10.0), (1e3, 3.3e3, 12.0)):
    print(f"R1={r1 / 1e3:g}k R2={r2 / 1e3:g}k: open {divider(vin, r1, r2):.2f} V, loaded {divider(vin, r1, r2, r2):.2f} V")""",
    ),
    (
        "markdown",
        """## 7. Before you come to the lab

1. Run every cell and check that your tau is 1.000 ms.
2. Print the plot of `exact` (or sketch it from the numbers above) and bring it to E-115.
3. Write down in your notebook which timebase you will use on the oscilloscope.

> If your printed waveform and the measured one differ by more than 10 %, check the probe setting (x10) first.""",
    ),
]


def run_cells() -> list[dict]:
    namespace: dict = {}
    cells, count = [], 0
    for n, (kind, source) in enumerate(CELLS):
        cell = {"cell_type": kind, "id": f"c{n:02d}", "metadata": {}, "source": _lines(source)}
        if kind == "code":
            count += 1
            tree = ast.parse(source)
            last = tree.body[-1] if isinstance(tree.body[-1], ast.Expr) else None
            if last is not None:
                tree.body = tree.body[:-1]
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer):
                exec(compile(tree, f"<cell {count}>", "exec"), namespace)
                result = (
                    eval(compile(ast.Expression(last.value), "<expr>", "eval"), namespace)
                    if last
                    else None
                )
            outputs = []
            if buffer.getvalue():
                outputs.append(
                    {"name": "stdout", "output_type": "stream", "text": _lines(buffer.getvalue())}
                )
            if last is not None and result is not None:  # Jupyter shows no None
                outputs.append(
                    {"data": {"text/plain": [repr(result)]}, "execution_count": count,
                     "metadata": {}, "output_type": "execute_result"}
                )  # fmt: skip
            cell.update(execution_count=count, outputs=outputs)
        cells.append(cell)
    return cells


def _lines(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    return lines


def main() -> None:
    notebook = {
        "cells": run_cells(),
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
    OUT.write_text(json.dumps(notebook, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print("wrote", OUT.name)


if __name__ == "__main__":
    main()
