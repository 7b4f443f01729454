"""Starting and stopping the test servers' processes (shared by the conftest files)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests

PROJECT_ROOT = Path(__file__).resolve().parents[1]


def wait_until(condition: Callable[[], bool], timeout: float, interval: float = 0.25) -> bool:
    """Poll ``condition`` until it holds or ``timeout`` seconds pass; return its last value."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return condition()


def log_tail(path: Path, lines: int = 80) -> str:
    """The last ``lines`` lines of a log file (or a note that there is none)."""
    if not path.exists():
        return f"(no log at {path})"
    text = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return "\n".join(text[-lines:])


def spawn_logged(
    command: list[str], cwd: Path, env: dict[str, str], log_path: Path
) -> subprocess.Popen[bytes]:
    """Start ``command`` in a session of its own, its output going to ``log_path``."""
    with log_path.open("wb") as log:
        return subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop_process_group(
    process: subprocess.Popen[bytes], first_signal: int = signal.SIGTERM
) -> None:
    """Stop a process started with ``start_new_session=True`` and everything it spawned."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, first_signal)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=15)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


@dataclass(frozen=True)
class StreamlitRun:
    """A started ``streamlit run``: its base URL, process and log file."""

    url: str
    process: subprocess.Popen[bytes]
    log_path: Path


def launch_streamlit(app: str, env: dict[str, str], log_dir: Path) -> StreamlitRun:
    """Start ``python -m streamlit run APP`` headless on a free port, from the project root.

    ``DUTCH_BASE_URL`` is the server's own address unless ``env`` sets it.
    """
    port = free_port()
    log_path = log_dir / f"streamlit-{port}.log"
    command = [
        sys.executable,
        *("-m", "streamlit", "run", app),
        *("--server.headless", "true", "--server.address", "127.0.0.1"),
        *("--server.port", str(port), "--browser.gatherUsageStats", "false"),
    ]
    url = f"http://127.0.0.1:{port}"
    # Links the app sends (password reset) lead back to this server unless told otherwise.
    env = {**env, "DUTCH_BASE_URL": env.get("DUTCH_BASE_URL") or url}
    process = spawn_logged(command, PROJECT_ROOT, env, log_path)
    return StreamlitRun(url, process, log_path)


def streamlit_healthy(url: str) -> bool:
    """True once the server at ``url`` answers its health check."""
    try:
        return requests.get(f"{url}/_stcore/health", timeout=2).status_code == 200
    except requests.RequestException:
        return False


def start_streamlit(app: str, env: dict[str, str], log_dir: Path) -> StreamlitRun:
    """``launch_streamlit``, returning once the server answers its health check (60 s at most).

    A port taken by someone else between choosing it and binding it is retried on another
    port, three tries in all. Fails the test, with the server's log, if it does not start.
    """
    for _attempt in range(3):
        run = launch_streamlit(app, env, log_dir)
        ready = wait_until(
            lambda run=run: run.process.poll() is not None or streamlit_healthy(run.url),
            timeout=60,
        )
        if ready and run.process.poll() is None:
            return run
        stop_process_group(run.process)
        log = log_tail(run.log_path)
        if "already in use" not in log and "is not available" not in log:
            break
    pytest.fail(f"Streamlit did not start for {app!r}:\n{log_tail(run.log_path)}", pytrace=False)


NGINX = "/usr/sbin/nginx"
NGINX_CONF = PROJECT_ROOT / "deploy" / "nginx.conf"


@dataclass(frozen=True)
class Balancer:
    """nginx running ``deploy/nginx.conf`` in front of some servers: its URL and process."""

    url: str
    process: subprocess.Popen[bytes]
    prefix: Path


def balancer_config(backends: list[str], port: int) -> str:
    """``deploy/nginx.conf`` with its upstream servers and listening port pointed at the
    test's own (the lines a host changes); everything else exactly as kept in the repo."""
    text = NGINX_CONF.read_text(encoding="utf-8")
    servers = "\n".join(
        f"        server {url.removeprefix('http://')} max_fails=3 fail_timeout=10s;"
        for url in backends
    )
    text, upstreams = re.subn(r"(?m)^        server 127\.0\.0\.1:85\d\d .*;\n", "", text)
    if upstreams == 0:
        raise AssertionError("deploy/nginx.conf lists no upstream server lines to replace")
    text = text.replace("        keepalive 32;", f"{servers}\n        keepalive 32;", 1)
    text, listens = re.subn(r"(?m)^        listen 8080;", f"        listen 127.0.0.1:{port};", text)
    if listens != 1:
        raise AssertionError("deploy/nginx.conf has no 'listen 8080;' line to replace")
    return text


def start_balancer(backends: list[str], workdir: Path) -> Balancer:
    """Start nginx in the foreground on a free port in front of ``backends``."""
    port = free_port()
    workdir.mkdir(parents=True, exist_ok=True)
    config = workdir / "nginx.conf"
    config.write_text(balancer_config(backends, port), encoding="utf-8")
    command = [NGINX, "-p", str(workdir), "-c", str(config), "-g", "daemon off;"]
    process = spawn_logged(command, workdir, dict(os.environ), workdir / "nginx.out")
    url = f"http://127.0.0.1:{port}"
    if not wait_until(lambda: process.poll() is not None or streamlit_healthy(url), 30):
        stop_process_group(process)
        raise RuntimeError(f"nginx did not answer at {url}:\n{log_tail(workdir / 'error.log')}")
    if process.poll() is not None:
        raise RuntimeError(f"nginx stopped:\n{log_tail(workdir / 'nginx.out')}")
    return Balancer(url, process, workdir)


@contextlib.contextmanager
def serving_in_thread(app) -> Iterator[str]:
    """ASGI ``app`` served by uvicorn (the server Streamlit's runs on) on a free port of
    this machine, in a thread of this process; yields its base URL."""
    import uvicorn

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    try:
        if not wait_until(lambda: server.started, 10, 0.01):
            raise RuntimeError("uvicorn did not start")
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        listener.close()


IDENTITY = {"Accept-Encoding": "identity"}
_SCRIPT = re.compile(r'(?:src|href)="\./(static/js/[^"]+\.js)"')


def sent_bytes(url: str, headers: dict[str, str]) -> tuple[requests.Response, int]:
    """The answer to a GET of ``url``, and how many bytes of body came over the wire."""
    response = requests.get(url, headers=headers, stream=True, timeout=30)
    size = len(response.raw.read(decode_content=False))
    return response, size


def largest_script(url: str) -> str:
    """The address of the largest script the page loads before it shows anything."""
    page = requests.get(f"{url}/", timeout=30).text
    scripts = _SCRIPT.findall(page)
    assert scripts, "the page names no scripts"
    sizes = {path: sent_bytes(f"{url}/{path}", IDENTITY)[1] for path in scripts}
    return f"{url}/{max(sizes, key=sizes.__getitem__)}"
