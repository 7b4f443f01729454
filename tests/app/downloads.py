"""Reading back what a download button would hand the browser, in AppTest runs."""

from __future__ import annotations

import streamlit.testing.v1.app_test as app_test_module
from streamlit.runtime.memory_media_file_storage import MemoryFile, MemoryMediaFileStorage


def keep_media(monkeypatch) -> list[MemoryMediaFileStorage]:
    """Collect every in-memory file store AppTest makes (one per run), newest last."""
    made: list[MemoryMediaFileStorage] = []

    class Kept(MemoryMediaFileStorage):
        def __init__(self, media_endpoint: str) -> None:
            super().__init__(media_endpoint)
            made.append(self)

    monkeypatch.setattr(app_test_module, "MemoryMediaFileStorage", Kept)
    return made


def download_file(at, key: str, media: list[MemoryMediaFileStorage]) -> MemoryFile:
    """The file (``content``, ``filename``, ``mimetype``) behind the download button ``key``."""
    button = at.download_button(key=key)
    return media[-1].get_file(button.proto.url.rsplit("/", 1)[-1])
