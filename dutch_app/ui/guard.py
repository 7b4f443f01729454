"""Keep tracebacks off the page.

The project's own errors (bad input, missing objects, conflicts) are shown as
plain messages, exactly as worded (they quote names and cards as typed). Anything
else is a bug: it is logged with a short id and the page shows only that id, so a
person can report it and we can find the log.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from dutch_app.accounts.base import AccountError
from dutch_app.i18n import _, error_text
from dutch_app.services.errors import ServiceError
from dutch_app.ui.text import md
from dutch_core.errors import DutchError

log = logging.getLogger("dutch_app")


USER_ERRORS = (DutchError, ServiceError, AccountError)
"""The exception classes whose messages are meant for the person at the screen."""


def unexpected_message(error: BaseException) -> tuple[str, str]:
    """Log an unexpected error with a fresh id: the id, and the plain message to show."""
    error_id = uuid.uuid4().hex[:8]
    log.error("unexpected error %s", error_id, exc_info=error)
    message = _(
        "Something went wrong on our side (error id {error_id}). Nothing was saved by the "
        "step that failed. Please try again; if it keeps happening, report the error id."
    ).format(error_id=error_id)
    return error_id, message


def report_unexpected(error: BaseException, where: DeltaGenerator | None = None) -> str:
    """Log an unexpected error with a fresh id and show a plain message carrying that id."""
    error_id, message = unexpected_message(error)
    (where or st).error(message)
    return error_id


@contextmanager
def guarded(where: DeltaGenerator | None = None) -> Iterator[None]:
    """Run a block; show user errors as messages and unexpected ones with an error id."""
    try:
        yield
    except USER_ERRORS as error:
        (where or st).error(md(error_text(error)))
    except Exception as error:
        report_unexpected(error, where)
