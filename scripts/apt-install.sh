#!/usr/bin/env bash
# Install Debian packages quietly, refreshing the package lists only when the
# first attempt fails (missing or stale lists).
#   scripts/apt-install.sh chromium
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

if (($# == 0)); then
    echo "usage: scripts/apt-install.sh PACKAGE..." >&2
    exit 2
fi

echo "Installing Debian packages: $*"
if ! apt-get install -y -qq "$@" >/tmp/dutch-apt-install.log 2>&1; then
    apt-get update -qq >/dev/null
    if ! apt-get install -y -qq "$@" >/tmp/dutch-apt-install.log 2>&1; then
        cat /tmp/dutch-apt-install.log >&2
        exit 1
    fi
fi
