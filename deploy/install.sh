#!/usr/bin/env bash
# Create .venv with the pinned dependencies (constraints.txt pins the transitive ones too).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null || PY=python3
"$PY" -m venv .venv
.venv/bin/pip install -q --upgrade pip
.venv/bin/pip install -q -c constraints.txt -e ".[dev]"
# The console's browser tests need Debian's chromium and CJK fonts.
bash deploy/install-browser.sh
