"""Starting and stopping the test servers' processes (shared by the conftest files)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import requests

PROJECT_ROOT = Path(__file__).resolve().parents[1]


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
    """Start ``python -m streamlit run APP`` headless on a free port, from the project root."""
    port = free_port()
    log_path = log_dir / f"streamlit-{port}.log"
    command = [
        sys.executable,
        *("-m", "streamlit", "run", app),
        *("--server.headless", "true", "--server.address", "127.0.0.1"),
        *("--server.port", str(port), "--browser.gatherUsageStats", "false"),
    ]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command,
            cwd=PROJECT_ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    return StreamlitRun(f"http://127.0.0.1:{port}", process, log_path)


def streamlit_healthy(url: str) -> bool:
    """True once the server at ``url`` answers its health check."""
    try:
        return requests.get(f"{url}/_stcore/health", timeout=2).status_code == 200
    except requests.RequestException:
        return False
