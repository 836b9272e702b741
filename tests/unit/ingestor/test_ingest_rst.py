"""reStructuredText: titles by their adornment, literal blocks and directives as the
structures they are, tables of all three kinds, and what a reader never sees left out."""

from services.ingestor.formats import Format
from services.ingestor.stages import parse_material

GUIDE = """==========================
演習2：レプリケーション
==========================

準備
====

プライマリとレプリカを起動する::

    docker compose up -d pg1 pg2

.. code-block:: sql
   :linenos:

   SELECT * FROM pg_stat_replication;

クォーラム
----------

#. ``W = 2``：書き込みは2台の確認を待つ。
#. ``R = 2``：読み取りは2台に問い合わせる。

.. note::

   N = 3 なら :math:`R + W > N` が成り立つ。

.. list-table:: 計測した遅延
   :header-rows: 1

   * - 方式
     - p99 遅延
   * - 同期
     - 0 ms

+--------+-----------+
| 項目   | 値        |
+========+===========+
| W      | 2（通常時 |
|        | の設定）  |
+--------+-----------+

注意：

   引用された注意書き。

.. この行は TA 向けのコメント。
   読者には見えない。

.. toctree::
   :maxdepth: 2

   lab3
"""


def test_titles_take_their_level_from_the_order_their_adornments_appear():
    material = parse_material(GUIDE.encode(), "lab2.rst")
    assert material.format is Format.RST and material.title == "演習2：レプリケーション"
    paths = {c.heading_path for c in material.chunks}
    assert ("演習2：レプリケーション", "準備") in paths
    assert ("演習2：レプリケーション", "準備", "クォーラム") in paths


def test_literal_blocks_and_code_directives_are_code_and_roles_keep_their_text():
    text = "\n".join(c.text for c in parse_material(GUIDE.encode(), "lab2.rst").chunks)
    assert "プライマリとレプリカを起動する:\n\n```\ndocker compose up -d pg1 pg2\n```" in text
    assert "```sql\nSELECT * FROM pg_stat_replication;\n```" in text  # its :linenos: gone
    assert "1. `W = 2`：書き込みは2台の確認を待つ。" in text
    assert "Note: N = 3 なら $R + W > N$ が成り立つ。" in text


def test_list_and_grid_tables_become_tables_and_hidden_text_stays_hidden():
    text = "\n".join(c.text for c in parse_material(GUIDE.encode(), "lab2.rst").chunks)
    assert "計測した遅延\n\n| 方式 | p99 遅延 |\n| --- | --- |\n| 同期 | 0 ms |" in text
    assert "| W | 2（通常時 の設定） |" in text  # a cell's lines joined
    assert "TA 向け" not in text and "maxdepth" not in text and "lab3" not in text
    assert "引用された注意書き。" in text and "```\n引用" not in text  # a quote is no code


def test_code_inside_a_list_item_stays_in_its_item():
    steps = (
        "Steps\n=====\n\n1. Start the stack:\n\n   .. code-block:: bash\n\n"
        "      docker compose up -d\n\n2. Check it::\n\n      curl localhost:8080\n"
    )
    (chunk,) = parse_material(steps.encode(), "steps.rst").chunks
    assert (
        "1. Start the stack:\n   ```bash\n   docker compose up -d\n   ```\n"
        "2. Check it:\n   ```\n   curl localhost:8080\n   ```" in chunk.text
    )


def test_what_sphinx_shows_for_fields_references_and_wrapped_lines():
    guide = (
        ":著者: 山田 花子\n\n.. _renewal:\n\n貸出の延長\n----------\n\n"
        "延長するときは必ず貸出記録を\n``loan.renew()`` で更新する。\n"
        "詳しくは :ref:`renewal` を参照。\n\n例 ::\n\n    curl -I localhost\n"
    )
    text = "\n".join(c.text for c in parse_material(guide.encode(), "guide.rst").chunks)
    assert "著者: 山田 花子" in text  # a field list as it reads
    # a wrapped line is a space, a label reference shows its section's title
    assert "貸出記録を `loan.renew()` で更新する。詳しくは 貸出の延長 を参照。" in text
    assert "例\n\n```\ncurl -I localhost\n```" in text  # "text ::" shows no colon
