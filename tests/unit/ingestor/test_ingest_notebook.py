"""Jupyter notebooks: Markdown cells as Markdown, code cells as code in the kernel's
language with what they printed beside them, and clear refusals."""

import json

import pytest

from services.common.errors import InvalidInput
from services.ingestor.formats import Format
from services.ingestor.notebook import MAX_OUTPUT_CHARS
from services.ingestor.stages import parse_material


def notebook(cells: list[dict]) -> bytes:
    return json.dumps(
        {
            "cells": cells,
            "metadata": {"kernelspec": {"language": "python", "name": "python3"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        },
        ensure_ascii=False,
    ).encode()


def markdown(*lines: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": list(lines)}


def code(source: str, *outputs: dict) -> dict:
    return {"cell_type": "code", "metadata": {}, "source": source, "outputs": list(outputs)}


LAB = notebook([
    markdown("# 演習2 線形回帰\n", "\n", "## 標準化\n", "\n", "特徴量は次のように標準化する。"),
    code(
        "from sklearn.preprocessing import StandardScaler\nscaler = StandardScaler()\n"
        "X = scaler.fit_transform(X_raw)\nprint(X.mean(axis=0).round(3))",
        {"output_type": "stream", "name": "stdout", "text": ["[0. 0. 0.]\n"]},
    ),
    code("model.score(X, y)", {"output_type": "execute_result", "execution_count": 3,
                               "data": {"text/plain": ["0.874"], "image/png": "iVBOR..."}}),
    code("1 / 0", {"output_type": "error", "ename": "ZeroDivisionError",
                   "evalue": "division by zero", "traceback": []}),
])  # fmt: skip


def test_a_notebook_keeps_its_headings_code_and_what_each_cell_printed():
    material = parse_material(LAB, "lab2.ipynb")
    assert material.format is Format.NOTEBOOK and material.title == "演習2 線形回帰"
    (chunk,) = material.chunks
    assert chunk.heading_path == ("演習2 線形回帰", "標準化")
    text = chunk.text
    assert "```python\nfrom sklearn.preprocessing import StandardScaler\n" in text
    assert text.index("X.mean(axis=0)") < text.index("```text\n[0. 0. 0.]\n```")
    assert "```text\n0.874\n```" in text and "iVBOR" not in text  # a picture is skipped
    assert "ZeroDivisionError: division by zero" in text


def test_a_printed_dataframe_keeps_its_header_over_its_columns():
    frame = "   n   mean\nA  3  12.5\nB  4  13.1\n"
    result = {"output_type": "execute_result", "data": {"text/plain": frame}}
    (chunk,) = parse_material(notebook([code("df.describe()", result)]), "eda.ipynb").chunks
    assert "```text\n   n   mean\nA  3  12.5\nB  4  13.1\n```" in chunk.text


def test_a_long_output_keeps_its_beginning_and_a_fence_inside_it_does_not_end_the_block():
    log = "".join(f"epoch {n} loss 0.{n:04d}\n" for n in range(2000))
    data = notebook([code("train()", {"output_type": "stream", "text": "```\n" + log})])
    text = "\n".join(c.text for c in parse_material(data, "train.ipynb").chunks)
    assert "epoch 0 loss" in text and "epoch 1999" not in text
    assert len(text) < MAX_OUTPUT_CHARS + 200
    assert "````text\n```\nepoch 0" in text  # a longer fence holds the printed one


@pytest.mark.parametrize(
    ("data", "message"),
    [(b"{not json", "is not a Jupyter notebook"), (b'{"nbformat": 4}', "no list of cells")],
)
def test_what_is_not_a_notebook_is_refused_clearly(data, message):
    with pytest.raises(InvalidInput, match=message):
        parse_material(data, "lab.ipynb")
