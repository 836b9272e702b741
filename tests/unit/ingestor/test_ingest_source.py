"""Source and configuration files: the file's own comment introduces its code, and each
top-level definition is a section headed by its first line."""

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
    chunks = {c.heading_path: c.text for c in material.chunks}
    head = chunks[("app.py",)]
    assert "演習5 の Web サービス。" in head and '"""' not in head  # the docstring as prose
    assert "```python\nimport time\n\nRATE_LIMIT = 20  # 1 秒あたりの要求数\n```" in head
    assert (
        "```python\ndef handle(request):\n    return 200\n```"
        in chunks[("app.py", "def handle(request)")]
    )
    bucket = chunks[("app.py", "class TokenBucket")]
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
    chunks = {c.heading_path: c.text for c in material.chunks}
    assert "注文サービスのスキーマ" in chunks[("schema.sql",)]
    assert "=====" not in chunks[("schema.sql",)]  # a rule of the banner is no text
    assert (
        "CREATE TABLE orders (\n  order_id bigint PRIMARY KEY\n);"
        in chunks[("schema.sql", "CREATE TABLE orders")]
    )
    index = chunks[("schema.sql", "create index idx_orders_at on orders (created_at);")]
    assert "```sql\n-- 日付で探す\ncreate index" in index


def test_a_configuration_file_without_definitions_is_one_listing():
    compose = 'services:\n  web:\n    image: app:1.4\n    ports:\n      - "8080:80"\n'
    material = parse_material(compose.encode(), "docker-compose.yaml")
    (chunk,) = material.chunks
    assert chunk.heading_path == ("docker-compose.yaml",)
    assert f"```yaml\n{compose.rstrip()}\n```" in chunk.text
