#!/usr/bin/env bash
# The main job on a fresh machine: install, start the infrastructure and the
# services, ingest the bundled demo course, ask a question, stream the cited answer.
set -euo pipefail
cd "$(dirname "$0")/.."
QUESTION=${1:-}
[ -n "$QUESTION" ] || QUESTION="中央値とは何ですか？"

[ -x .venv/bin/eduanima ] || bash deploy/install.sh
. .venv/bin/activate

eduanima up
mkdir -p "${EDUANIMA_HOME:-.eduanima}/logs"
eduanima run >"${EDUANIMA_HOME:-.eduanima}/logs/services.log" 2>&1 &
services=$!
trap 'kill $services 2>/dev/null; wait $services 2>/dev/null || true' EXIT

eduanima subject create stats101 --title "Introduction to Statistics / 統計学入門"
eduanima subject enroll stats101 sensei --role teacher
eduanima subject enroll stats101 gakusei --role student
eduanima ingest demo/stats101 --subject stats101 --user sensei --wait
eduanima ask "$QUESTION" --subject stats101 --user gakusei --follow
