"""A server out of open files logs it sparsely, and starts with as many as it may have.

Real sockets: a small asyncio server (the event loop Streamlit's web server runs on) in a
process of its own, started with a soft limit of 64 open files, and 150 connections to it.
"""

from __future__ import annotations

import asyncio
import importlib
import resource
import socket
import subprocess
import sys
import textwrap
import threading

from tests.servers import PROJECT_ROOT

LOW = 64

SERVER = textwrap.dedent(
    f"""
    import asyncio, importlib.util, logging, resource, sys

    # The module alone, without the web package around it (which loads Streamlit: seconds).
    spec = importlib.util.spec_from_file_location("open_files", "dutch_app/web/open_files.py")
    open_files = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(open_files)

    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, ({LOW}, hard))
    logging.basicConfig(level=logging.INFO, stream=sys.stderr)

    async def main():
        if sys.argv[1] == "quiet":
            open_files.quiet_accept_errors(asyncio.get_running_loop())
        held = []

        async def keep(reader, writer):
            held.append(writer)

        server = await asyncio.start_server(keep, "127.0.0.1", 0, backlog=2048)
        print(server.sockets[0].getsockname()[1], flush=True)
        await asyncio.to_thread(sys.stdin.readline)  # serve until the test is done

    asyncio.run(main())
    """
)


def is_refusal(line: str) -> bool:
    """Whether a log line is about connections refused for want of open files."""
    return "out of system resource" in line or "connections refused" in line


def refusals_logged(mode: str) -> int:
    """Lines about refused connections a server logs while 150 connections try to reach it
    (from its first such line, which comes once it has run out of open files, to its end)."""
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, mode],
        cwd=PROJECT_ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert server.stdout is not None and server.stderr is not None
    watchdog = threading.Timer(30, server.kill)
    watchdog.start()
    try:
        port = int(server.stdout.readline())
        clients = []
        for _ in range(150):
            client = socket.socket()
            client.setblocking(False)
            client.connect_ex(("127.0.0.1", port))
            clients.append(client)
        log = [server.stderr.readline()]
        while not is_refusal(log[-1]):
            assert log[-1], f"the server logged no refusal: {''.join(log)}"
            log.append(server.stderr.readline())
        for client in clients:
            client.close()
        _, rest = server.communicate(input="", timeout=30)  # its input ends: it stops
    finally:
        watchdog.cancel()
    return sum(is_refusal(line) for line in [*log, *rest.splitlines()])


def test_running_out_of_open_files_is_logged_once_per_interval_not_per_connection():
    plain = refusals_logged("plain")
    assert plain > 50, plain  # what Python's event loop does by itself
    assert refusals_logged("quiet") == 1


def test_the_soft_open_file_limit_is_raised_to_the_hard_one():
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    script = textwrap.dedent(
        f"""
        import importlib.util, resource
        spec = importlib.util.spec_from_file_location("open_files", "dutch_app/web/open_files.py")
        open_files = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(open_files)
        resource.setrlimit(resource.RLIMIT_NOFILE, ({LOW}, {hard}))
        print(open_files.raise_open_file_limit(), resource.getrlimit(resource.RLIMIT_NOFILE)[0])
        """
    )
    shown = subprocess.run(
        [sys.executable, "-c", script], cwd=PROJECT_ROOT, capture_output=True, text=True, check=True
    )
    expected = LOW if hard == resource.RLIM_INFINITY else hard
    assert shown.stdout.split() == [str(expected), str(expected)]


def test_the_servers_lifespan_raises_the_limit_and_quiets_accept_errors_while_it_serves(
    monkeypatch,
):
    lifespan_module = importlib.import_module("dutch_app.web.lifespan")
    steps: list[str] = []
    monkeypatch.setattr(lifespan_module, "warm_up", lambda: None)
    monkeypatch.setattr(lifespan_module, "raise_open_file_limit", lambda: steps.append("raised"))

    class Live:
        def stop(self) -> None:
            pass

    async def serve() -> None:
        loop = asyncio.get_running_loop()
        async with lifespan_module.lifespan(Live())(None):  # type: ignore[arg-type]
            steps.append("quiet" if loop.get_exception_handler() is not None else "loud")
        steps.append("loud" if loop.get_exception_handler() is None else "still quiet")

    asyncio.run(serve())
    assert steps == ["raised", "quiet", "loud"]
