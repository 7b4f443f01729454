#!/usr/bin/env bash
# Make sure the programs the test suite drives are on the machine:
# Debian's Chromium (for the browser tests) and a PostgreSQL server.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
command -v pg_ctlcluster >/dev/null || missing+=(postgresql)
if ((${#missing[@]} > 0)); then
    scripts/apt-install.sh "${missing[@]}"
fi
