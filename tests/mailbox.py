"""A real SMTP server on loopback for tests: ``smtp_server`` yields a `Mailbox` that
collects every message handed to it (aiosmtpd, on a free port of 127.0.0.1).

Import the fixture into a test module: ``from tests.mailbox import smtp_server``.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller

from dutch_app.config import SmtpSettings


class Mailbox:
    """What the test SMTP server received, with the settings that reach it."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self._arrived = threading.Condition()
        self.settings = SmtpSettings()

    async def handle_DATA(self, server, session, envelope) -> str:
        message = message_from_bytes(envelope.content, policy=policy.default)
        with self._arrived:
            self.messages.append(message)
            self._arrived.notify_all()
        return "250 Message accepted"

    def wait_for(self, count: int = 1, timeout: float = 30) -> list[EmailMessage]:
        """The first ``count`` messages, waiting up to ``timeout`` seconds for them to arrive."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while len(self.messages) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(self.messages)} of {count} emails arrived")
                self._arrived.wait(left)
            return list(self.messages[:count])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def smtp_server() -> Iterator[Mailbox]:
    """An SMTP server on 127.0.0.1 (no TLS, no login) for the length of one test."""
    mailbox = Mailbox()
    port = free_port()
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    mailbox.settings = SmtpSettings(
        host="127.0.0.1", port=port, sender="Dutch Scorer <scores@example.org>", tls="none"
    )
    try:
        yield mailbox
    finally:
        controller.stop()
