"""The files a host deploys with: the container recipe and the nginx configuration.

The image is not built here (no container engine that works offline), so the Dockerfile is
checked for what would break the app in it: a folder the app imports but the image lacks, a
start command other than ``serve.py``, packages from anywhere but the pinned file. nginx is
real: its own ``-t`` check reads ``deploy/nginx.conf``.
"""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

from tests.servers import NGINX, PROJECT_ROOT, balancer_config

DOCKERFILE = (PROJECT_ROOT / "Dockerfile").read_text(encoding="utf-8")


def _copied() -> set[str]:
    sources: set[str] = set()
    for line in DOCKERFILE.splitlines():
        if line.startswith("COPY "):
            *parts, _target = line.split()[1:]
            sources.update(part.rstrip("/") for part in parts)
    return sources


def _first_party_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
    return {name for name in found if (PROJECT_ROOT / name).is_dir() or name.endswith("_app")}


def test_the_image_holds_every_folder_and_file_the_app_needs():
    copied = _copied()
    entry_points = [PROJECT_ROOT / "app.py", PROJECT_ROOT / "serve.py"]
    entry_points += sorted((PROJECT_ROOT / "pages").glob("*.py"))
    needed = set().union(*(_first_party_imports(path) for path in entry_points))
    assert needed <= copied, needed - copied
    assert {"app.py", "serve.py", "pages", ".streamlit/config.toml"} <= copied
    for source in copied:
        assert (PROJECT_ROOT / source).exists(), source


def test_the_image_installs_the_pinned_packages_and_starts_serve_py():
    assert "pip install --no-input -r requirements.txt" in DOCKERFILE
    assert not re.search(r"pip install (?!--no-input -r requirements\.txt)", DOCKERFILE)
    (command,) = [line for line in DOCKERFILE.splitlines() if line.startswith("CMD ")]
    assert "serve.py" in command and "app.py" not in command
    assert re.search(r"(?m)^USER (?!root)\w+", DOCKERFILE)
    assert ".streamlit/secrets.toml" in (PROJECT_ROOT / ".dockerignore").read_text()


def test_nginx_accepts_the_configuration_as_kept_and_as_the_tests_run_it(
    tmp_path, service_unavailable
):
    if not Path(NGINX).exists():
        service_unavailable(f"nginx is not installed at {NGINX} (scripts/system-deps.sh)")
    kept = PROJECT_ROOT / "deploy" / "nginx.conf"
    as_tested = tmp_path / "nginx.conf"
    as_tested.write_text(balancer_config(["http://127.0.0.1:9001", "http://127.0.0.1:9002"], 9000))
    for config in (kept, as_tested):
        checked = subprocess.run(
            [NGINX, "-t", "-p", str(tmp_path), "-c", str(config)],
            capture_output=True,
            text=True,
            check=False,
        )
        assert checked.returncode == 0, checked.stderr
    text = as_tested.read_text()
    assert "server 127.0.0.1:9001" in text and "server 127.0.0.1:9002" in text
    assert "127.0.0.1:8501" not in text and "listen 127.0.0.1:9000;" in text
