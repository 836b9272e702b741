"""`eduanima fence` knows every stage that writes in transactions, by the name it writes as."""

from __future__ import annotations

import re
from pathlib import Path

from tools.fence import STAGES

ROOT = Path(__file__).resolve().parents[3]


def test_the_fence_knows_every_stage_a_service_runs():
    runners = set()
    for app in (ROOT / "services").glob("*/app.py"):
        source = app.read_text(encoding="utf-8")
        for call in re.finditer(r"StageRunner\((.*?)\n\s*\)", source, re.S):
            runners.update(re.findall(r'\bstage="([^"]+)"', call.group(1)))
    assert runners == set(STAGES)
