#!/usr/bin/env bash
# Everything `make test` does after the Python and Node packages are installed:
# system packages, PostgreSQL, the Firebase Auth emulator, lint, then pytest.
# Extra arguments go to pytest (make test PYTEST_ARGS="tests/unit -x").
set -euo pipefail
cd "$(dirname "$0")/.."

section() { printf '\n== %s\n' "$*"; }

# Keep compiled modules between processes (a machine may turn that off): every pytest worker
# and app server the suite starts would otherwise compile the project and rewrite the
# tests' asserts afresh, about 8 s of CPU per worker and phase.
unset PYTHONDONTWRITEBYTECODE

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

section "Translations"
.venv/bin/pybabel -q compile -d dutch_app/locale || failed+=("compiling the translations")

section "ruff check"
.venv/bin/ruff check . || failed+=("ruff check")

section "ruff format --check"
.venv/bin/ruff format --check . || failed+=("ruff format")

section "mypy (strict on dutch_core; settings in pyproject.toml)"
.venv/bin/mypy || failed+=("mypy")

section "Waiting for the Auth emulator"
# A failure here is not fatal by itself: the Firebase tests report it.
scripts/auth-emulator.sh wait || true

# Exit code 5 (no tests collected) is a failure like any other non-zero code.
if (($# > 0)); then
    section "pytest $*"
    .venv/bin/pytest "$@" || failed+=("pytest (exit $?)")
else
    # Three phases, each listing its ten slowest tests at the end. First everything but
    # the browser tests on both cores (each worker has its own SQLite files and
    # PostgreSQL database; a worker that is done takes tests left to the other, so that a
    # few long tests do not leave one core idle at the end). Then the browser journeys
    # without a deadline, also on both cores, each test file on one worker, each worker
    # with an app server of its own.
    # Last, one at a time: the tests of the one shared Auth emulator, and the browser tests
    # whose promises are deadlines (a live update within 3 s, a round kept offline within
    # 2 s, a page that stands still), measured on a machine they do not share.
    # No phase runs a failed test again: a failure is a failure.
    section "pytest: all but the browser and Auth emulator tests, on two workers"
    .venv/bin/pytest -m "not e2e and not serial" -n 2 --dist worksteal --durations=10 \
        || failed+=("pytest parallel (exit $?)")
    section "pytest: the browser tests without a deadline (Chromium), on two workers"
    .venv/bin/pytest -m "e2e and not deadline and not serial" -n 2 --dist loadfile \
        --durations=10 || failed+=("pytest e2e parallel (exit $?)")
    section "pytest: the Auth emulator and deadline-bound browser tests, one at a time"
    .venv/bin/pytest -m "serial or deadline" --durations=10 || failed+=("pytest serial (exit $?)")
fi

if ((${#failed[@]} > 0)); then
    printf '\nFAILED: %s\n' "${failed[*]}" >&2
    exit 1
fi
printf '\nAll checks passed.\n'
