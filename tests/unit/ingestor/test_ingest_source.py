"""Source and configuration files: the file's own comment introduces its code, and each
top-level definition is a section headed by its first line."""

import pytest

from services.ingestor.formats import Format
from services.ingestor.stages import parse_material

SERVICE = '''#!/usr/bin/env python3
"""演習5 の Web サービス。

/orders の流量を制限する。
"""
import time

RATE_LIMIT = 20  # 1 秒あたりの要求数


def handle(request):
    return 200


# トークンを補充してから取り出す
@dataclass
class TokenBucket:
    capacity: int = RATE_LIMIT

    def take(self):
        return True
'''


def test_a_python_file_is_its_docstring_then_one_section_per_definition():
    material = parse_material(SERVICE.encode(), "app.py")
    assert material.format is Format.CODE and material.title == "app.py"
    chunks = {c.heading_path[1:]: c.text for c in material.chunks}
    # the docstring's first line names the file's every section
    assert {c.heading_path[0] for c in material.chunks} == {"app.py: 演習5 の Web サービス。"}
    head = chunks[()]
    assert "演習5 の Web サービス。" in head and '"""' not in head  # the docstring as prose
    assert "```python\nimport time\n\nRATE_LIMIT = 20  # 1 秒あたりの要求数\n```" in head
    assert (
        "```python\ndef handle(request):\n    return 200\n```" in chunks[("def handle(request)",)]
    )
    bucket = chunks[("class TokenBucket",)]
    # the comment and the decorator above a class go with it; a method stays inside it
    assert bucket.index("# トークンを補充") < bucket.index("@dataclass") < bucket.index("def take")


SCHEMA = """-- =====================
-- 注文サービスのスキーマ
-- =====================
CREATE TABLE orders (
  order_id bigint PRIMARY KEY
);

-- 日付で探す
create index idx_orders_at on orders (created_at);
"""


def test_sql_sections_follow_its_statements_in_either_case():
    material = parse_material(SCHEMA.encode(), "schema.sql")
    assert {c.heading_path[0] for c in material.chunks} == {"schema.sql: 注文サービスのスキーマ"}
    chunks = {c.heading_path[1:]: c.text for c in material.chunks}
    assert "注文サービスのスキーマ" in chunks[()] and "=====" not in chunks[()]  # no banner
    table = chunks[("CREATE TABLE orders",)]
    assert "CREATE TABLE orders (\n  order_id bigint PRIMARY KEY\n);" in table
    index = chunks[("create index idx_orders_at on orders (created_at);",)]
    assert "```sql\n-- 日付で探す\ncreate index" in index


PARTS = """-- 図書館のスキーマ

-- ------------------------------
-- 利用者と貸出
-- ------------------------------
CREATE TABLE members (member_id bigint PRIMARY KEY);

CREATE TABLE loans (
  loan_id bigint PRIMARY KEY
);

-- ===== 延滞料 =====

CREATE TABLE fines (fine_id bigint PRIMARY KEY);  -- 1日50円
"""


def test_a_banner_heads_the_definitions_under_it():
    material = parse_material(PARTS.encode(), "library.sql")
    paths = [c.heading_path[1:] for c in material.chunks]
    assert ("利用者と貸出", "CREATE TABLE members (member_id bigint PRIMARY KEY);") in paths
    assert ("利用者と貸出", "CREATE TABLE loans") in paths
    # a title inside its rule, and a statement's comment left out of its heading
    assert ("延滞料", "CREATE TABLE fines (fine_id bigint PRIMARY KEY);") in paths
    text = "\n".join(c.text for c in material.chunks)
    assert "------" not in text and "=====" not in text


def test_a_json_file_without_sections_is_one_listing():
    config = '{\n  "port": 8080,\n  "workers": 3\n}'
    (chunk,) = parse_material(config.encode(), "settings.json").chunks
    assert chunk.heading_path == ("settings.json",)
    assert f"```json\n{config}\n```" in chunk.text


def test_a_long_yaml_mapping_is_split_at_its_own_keys():
    services = "".join(
        f"  {name}:\n    image: {name}:1.{n}\n"
        + "".join(f"    # setting {k} of {name}\n" for k in range(12))
        for n, name in enumerate(("web", "db"))
    )
    compose = f"name: lab\n\nservices:\n{services}\nvolumes:\n  pgdata:\n"
    material = parse_material(compose.encode(), "docker-compose.yaml")
    chunks = {c.heading_path: c.text for c in material.chunks}
    assert "name: lab" in chunks[("docker-compose.yaml",)]  # a scalar key opens no section
    assert "image: db:1.1" in chunks[("docker-compose.yaml", "services", "db")]
    assert "image: web:1.0" not in chunks[("docker-compose.yaml", "services", "db")]
    assert "pgdata:" in chunks[("docker-compose.yaml", "volumes")]


@pytest.mark.parametrize(
    ("filename", "text", "heading"),
    [
        ("run.sh", "set -e\n\nwarm_up() {\n  curl -s localhost\n}\n", "warm_up()"),
        ("Makefile", "CC = gcc\n\ntest: build\n\tpytest -q\n", "test: build"),
        ("Dockerfile", "FROM python:3.12-slim AS build\nRUN pip wheel .\n",
         "FROM python:3.12-slim AS build"),
        ("pyproject.toml", 'name = "lab"\n\n[tool.pytest]\naddopts = "-q"\n', "[tool.pytest]"),
        ("client.ts", "const BASE = '/api';\n\nexport const load = async (id: number) => {\n"
         "  return fetch(BASE);\n};\n", "export const load = async (id: number) =>"),
    ],
)  # fmt: skip
def test_each_language_sections_where_it_defines_things(filename, text, heading):
    material = parse_material(text.encode(), filename)
    assert (filename, heading) in {c.heading_path for c in material.chunks}
