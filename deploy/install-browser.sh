#!/usr/bin/env bash
# The browser the console tests drive: Debian's chromium, and fonts-noto-cjk so Japanese renders
# in screenshots. Idempotent: apt runs only when a package is missing (it needs root).
set -euo pipefail
PACKAGES=(chromium fonts-noto-cjk)
missing=()
for pkg in "${PACKAGES[@]}"; do
  if [[ $(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null) != "install ok installed" ]]; then
    missing+=("$pkg")
  fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi
if [[ $(id -u) -ne 0 ]]; then
  echo "deploy/install-browser.sh: missing ${missing[*]}; run it as root (apt-get install)" >&2
  exit 1
fi
echo "installing ${missing[*]} (apt)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q </dev/null
apt-get install -y -q "${missing[@]}" </dev/null
