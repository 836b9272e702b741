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
HOME_DIR=${EDUANIMA_HOME:-.eduanima}
mkdir -p "$HOME_DIR/logs"
# Console sign-in for the demo's teacher and student: random local tokens, made once and
# kept (mode 600) under EDUANIMA_HOME, unless GATEWAY_TOKENS is set already.
if [ -z "${GATEWAY_TOKENS:-}" ]; then
  TOKENS_FILE="$HOME_DIR/console-tokens"
  if [ ! -s "$TOKENS_FILE" ]; then
    (umask 077 && python -c 'import secrets; t = secrets.token_urlsafe
print(f"{t(24)}=sensei,{t(24)}=gakusei")' >"$TOKENS_FILE")
  fi
  GATEWAY_TOKENS=$(cat "$TOKENS_FILE")
  export GATEWAY_TOKENS
fi
eduanima run >"${EDUANIMA_HOME:-.eduanima}/logs/services.log" 2>&1 &
services=$!
trap 'kill $services 2>/dev/null; wait $services 2>/dev/null || true' EXIT

eduanima subject create stats101 --title "Introduction to Statistics / 統計学入門"
eduanima subject enroll stats101 sensei --role teacher
eduanima subject enroll stats101 gakusei --role student
eduanima ingest demo/stats101 --subject stats101 --user sensei --wait
eduanima ask "$QUESTION" --subject stats101 --user gakusei --follow

console="http://127.0.0.1:${GATEWAY_PORT:-8765}"
echo
echo "Web console (each link signs its user in; the browser keeps the token):"
IFS=, read -ra entries <<<"$GATEWAY_TOKENS"
for entry in "${entries[@]}"; do
  echo "  ${entry#*=}: $console/#token=${entry%%=*}"
done
echo "Live insights: the console's Insights tab (teachers), or: eduanima insights stats101"
if [ -t 0 ]; then
  echo "The services keep running; Ctrl-C stops them."
  wait $services || true
fi
