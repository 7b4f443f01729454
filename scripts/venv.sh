#!/usr/bin/env bash
# Create (or refresh) the project's virtual environment in .venv and install the
# pinned packages of the given requirement file into it.
#   scripts/venv.sh requirements.txt        runtime only
#   scripts/venv.sh requirements-dev.txt    runtime + lint and test tools
set -euo pipefail
cd "$(dirname "$0")/.."

requirements="${1:?usage: scripts/venv.sh REQUIREMENTS_FILE}"
venv=.venv

is_python_311() {
    "$1" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))' 2>/dev/null
}

pick_python() {
    local candidate
    for candidate in "${PYTHON:-}" python3.11 python3; do
        if [[ -n "$candidate" ]] && command -v "$candidate" >/dev/null \
            && is_python_311 "$candidate"; then
            echo "$candidate"
            return 0
        fi
    done
    echo "Dutch Scorer needs Python 3.11 (python3.11 or python3 on PATH, or PYTHON=...)." >&2
    return 1
}

if [[ -x "$venv/bin/python" ]] && ! is_python_311 "$venv/bin/python"; then
    echo "Replacing $venv: it is not a Python 3.11 environment."
    rm -rf "$venv"
fi

if [[ ! -x "$venv/bin/python" ]]; then
    python="$(pick_python)"
    echo "Creating $venv with $("$python" --version)."
    if ! "$python" -m venv "$venv" 2>/dev/null; then
        # Debian's own Python keeps venv/ensurepip in a separate package.
        rm -rf "$venv"
        scripts/apt-install.sh python3-venv
        "$python" -m venv "$venv"
    fi
fi

echo "Installing pinned packages from $requirements into $venv."
"$venv/bin/python" -m pip install -qq --disable-pip-version-check \
    --no-input -r "$requirements"
