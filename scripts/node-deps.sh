#!/usr/bin/env bash
# Install the test suite's Node.js tools (the Firebase CLI that runs the Auth
# emulator, axe-core for the accessibility check) into tests/node_modules,
# exactly as tests/package-lock.json says.
set -euo pipefail
cd "$(dirname "$0")/../tests"

if ! command -v npm >/dev/null; then
    echo "The tests need Node.js 20 or newer with npm (for the Firebase Auth emulator)." >&2
    exit 1
fi
echo "Installing the Firebase CLI and axe-core into tests/node_modules."
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
