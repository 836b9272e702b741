"""``python -m services.gateway.openapi [--check]``: write (or check) ``docs/openapi.yaml``.

The file is FastAPI's generated schema dumped to YAML, so the published spec
and the served API cannot drift; a unit test runs the same comparison.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

from services.gateway.app import create_app
from services.gateway.settings import GatewaySettings

SPEC_PATH = Path(__file__).resolve().parents[2] / "docs" / "openapi.yaml"


def schema() -> dict[str, Any]:
    """The app's OpenAPI document as plain JSON data, independent of the environment."""
    app = create_app(GatewaySettings(gateway_tokens="x=y"))
    return json.loads(json.dumps(app.openapi()))


def render() -> str:
    header = "# Generated from the gateway's FastAPI app: python -m services.gateway.openapi\n"
    return header + yaml.safe_dump(schema(), sort_keys=False, allow_unicode=True, width=100)


def main(argv: list[str]) -> int:
    if "--check" in argv:
        if yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8")) != schema():
            print(f"{SPEC_PATH} is stale: run python -m services.gateway.openapi", file=sys.stderr)
            return 1
        print(f"{SPEC_PATH} matches the app")
        return 0
    SPEC_PATH.write_text(render(), encoding="utf-8")
    print(f"wrote {SPEC_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
