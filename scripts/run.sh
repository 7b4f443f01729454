#!/usr/bin/env bash
# Start Dutch Scorer with its embedded defaults: SQLite in data/ and local accounts.
# PORT (default 8501) and ADDRESS (default 0.0.0.0) can be set in the environment.
set -euo pipefail
cd "$(dirname "$0")/.."

port="${PORT:-8501}"
address="${ADDRESS:-0.0.0.0}"

if [[ ! -f app.py || ! -f serve.py ]]; then
    echo "app.py or serve.py is missing: there is no app to start in $PWD." >&2
    exit 1
fi
.venv/bin/pybabel -q compile -d dutch_app/locale  # the translations the app reads
mkdir -p -m 700 data  # the database and the session key are the owner's alone
# Refuse to start on settings that cannot work (a missing or weak secret key, ...).
.venv/bin/python -m dutch_app.config
echo "Dutch Scorer: open http://localhost:$port in a browser (Ctrl+C stops it)."
exec .venv/bin/python -m streamlit run serve.py \
    --server.port "$port" --server.address "$address"
