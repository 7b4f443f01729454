"""Reading back what a download button would hand the browser, in AppTest runs."""

from __future__ import annotations

import streamlit.testing.v1.app_test as app_test_module
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.runtime.memory_media_file_storage import MemoryFile, MemoryMediaFileStorage


class Media:
    """The file stores and managers AppTest makes (one per run), newest last."""

    def __init__(self) -> None:
        self.storages: list[MemoryMediaFileStorage] = []
        self.managers: list[MediaFileManager] = []


def keep_media(monkeypatch) -> Media:
    """Keep hold of AppTest's media objects, so download buttons can be "clicked"."""
    media = Media()

    class KeptStorage(MemoryMediaFileStorage):
        def __init__(self, media_endpoint: str) -> None:
            super().__init__(media_endpoint)
            media.storages.append(self)

    class KeptManager(MediaFileManager):
        def __init__(self, storage) -> None:
            super().__init__(storage)
            media.managers.append(self)

    monkeypatch.setattr(app_test_module, "MemoryMediaFileStorage", KeptStorage)
    monkeypatch.setattr(app_test_module, "MediaFileManager", KeptManager)
    return media


def download_file(at, key: str, media: Media) -> MemoryFile:
    """The file behind the download button ``key`` after the latest run, made as a click would
    (a button given a function runs it now)."""
    button = at.download_button(key=key)
    url = button.proto.url
    if not url:
        url = media.managers[-1].execute_deferred(button.proto.deferred_file_id)
    return media.storages[-1].get_file(url.rsplit("/", 1)[-1])
