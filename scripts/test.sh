#!/usr/bin/env bash
# Everything `make test` does after the Python and Node packages are installed:
# system packages, PostgreSQL, the Firebase Auth emulator, lint, then pytest.
# Extra arguments go to pytest (make test PYTEST_ARGS="tests/unit -x").
set -euo pipefail
cd "$(dirname "$0")/.."

section() { printf '\n== %s\n' "$*"; }

section "System packages"
scripts/system-deps.sh

section "PostgreSQL"
if [[ -z "${DUTCH_TEST_POSTGRES_URL:-}" ]]; then
    DUTCH_TEST_POSTGRES_URL="$(scripts/postgres.sh)"
fi
export DUTCH_TEST_POSTGRES_URL
echo "DUTCH_TEST_POSTGRES_URL=$DUTCH_TEST_POSTGRES_URL"

section "Firebase Auth emulator"
export FIREBASE_AUTH_EMULATOR_HOST="${FIREBASE_AUTH_EMULATOR_HOST:-127.0.0.1:9099}"
trap 'scripts/auth-emulator.sh stop' EXIT
scripts/auth-emulator.sh start

failed=()

section "ruff check"
.venv/bin/ruff check . || failed+=("ruff check")

section "ruff format --check"
.venv/bin/ruff format --check . || failed+=("ruff format")

section "Waiting for the Auth emulator"
# A failure here is not fatal by itself: the Firebase tests report it.
scripts/auth-emulator.sh wait || true

section "pytest"
# Exit code 5 (no tests collected) is a failure like any other non-zero code.
.venv/bin/pytest "$@" || failed+=("pytest (exit $?)")

if ((${#failed[@]} > 0)); then
    printf '\nFAILED: %s\n' "${failed[*]}" >&2
    exit 1
fi
printf '\nAll checks passed.\n'
