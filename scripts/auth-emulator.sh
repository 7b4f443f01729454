#!/usr/bin/env bash
# Start, wait for, or stop the Firebase Auth emulator that the tests sign up to.
#   scripts/auth-emulator.sh start   start it in the background (no-op if one answers)
#   scripts/auth-emulator.sh wait    wait until it answers (up to 90 s)
#   scripts/auth-emulator.sh stop    stop the one started by `start`, if any
# Address: FIREBASE_AUTH_EMULATOR_HOST (default 127.0.0.1:9099).
# Log and state: test-artifacts/auth-emulator/.
set -euo pipefail
cd "$(dirname "$0")/.."

address="${FIREBASE_AUTH_EMULATOR_HOST:-127.0.0.1:9099}"
project=demo-dutch
state="$PWD/test-artifacts/auth-emulator"
firebase="$PWD/tests/node_modules/.bin/firebase"
pid_file="$state/pid"

answers() {
    python3 - "$address" "$project" <<'PY'
import sys
import urllib.request

address, project = sys.argv[1], sys.argv[2]
url = f"http://{address}/emulator/v1/projects/{project}/config"
try:
    with urllib.request.urlopen(url, timeout=2) as response:  # noqa: S310 (local emulator)
        sys.exit(0 if response.status == 200 else 1)
except OSError:
    sys.exit(1)
PY
}

our_pid() {
    [[ -f "$pid_file" ]] && kill -0 "$(cat "$pid_file")" 2>/dev/null
}

start() {
    if answers; then
        echo "Auth emulator already answering at $address."
        return 0
    fi
    if [[ ! -x "$firebase" ]]; then
        echo "Firebase CLI missing: run scripts/node-deps.sh first." >&2
        return 1
    fi
    mkdir -p "$state"
    cat >"$state/firebase.json" <<JSON
{
  "emulators": {
    "auth": {"host": "${address%:*}", "port": ${address##*:}},
    "ui": {"enabled": false},
    "singleProjectMode": true
  }
}
JSON
    echo "Starting the Firebase Auth emulator at $address (log: $state/emulator.log)."
    # setsid: its own process group, so `stop` ends the CLI and everything it spawned.
    (cd "$state" && CI=true NO_UPDATE_NOTIFIER=1 exec setsid "$firebase" emulators:start \
        --only auth --project "$project" --config "$state/firebase.json" \
        >"$state/emulator.log" 2>&1 </dev/null) &
    echo $! >"$pid_file"
}

wait_ready() {
    for _ in $(seq 1 180); do
        if answers; then
            echo "Auth emulator ready at $address."
            return 0
        fi
        if [[ -f "$pid_file" ]] && ! our_pid; then
            break
        fi
        sleep 0.5
    done
    echo "The Firebase Auth emulator did not come up at $address." >&2
    [[ -f "$state/emulator.log" ]] && cat "$state/emulator.log" >&2
    return 1
}

stop() {
    if ! our_pid; then
        rm -f "$pid_file"
        return 0
    fi
    local pid
    pid="$(cat "$pid_file")"
    kill -INT -- "-$pid" 2>/dev/null || true
    for _ in $(seq 1 20); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.5
    done
    kill -KILL -- "-$pid" 2>/dev/null || true
    rm -f "$pid_file"
    echo "Auth emulator stopped."
}

case "${1:-}" in
    start) start ;;
    wait) wait_ready ;;
    stop) stop ;;
    *)
        echo "usage: scripts/auth-emulator.sh start|wait|stop" >&2
        exit 2
        ;;
esac
