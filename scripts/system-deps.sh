#!/usr/bin/env bash
# Make sure the programs the test suite drives are on the machine:
# Debian's Chromium and its headless shell (for the browser tests), a PostgreSQL server, nginx (the
# load balancer of deploy/nginx.conf, which the two-server browser tests run), and
# the DejaVu fonts the result picture is drawn with (dutch_app/share_image.py).
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
[[ -x /usr/bin/chromium-headless-shell ]] || missing+=(chromium-headless-shell)
command -v pg_ctlcluster >/dev/null || missing+=(postgresql)
[[ -x /usr/sbin/nginx ]] || missing+=(nginx)
[[ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]] || missing+=(fonts-dejavu-core)
if ((${#missing[@]} > 0)); then
    scripts/apt-install.sh "${missing[@]}"
fi
