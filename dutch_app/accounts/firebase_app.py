"""The firebase-admin app of a Firebase project, and the settings it needs."""

from __future__ import annotations

import os

import firebase_admin
from firebase_admin import credentials

from dutch_app.config import ConfigError, FirebaseSettings

EMULATOR_HOST_VARIABLE = "FIREBASE_AUTH_EMULATOR_HOST"


def check_settings(settings: FirebaseSettings) -> None:
    """Raise `ConfigError` naming the first Firebase setting that is missing.

    firebase-admin finds the Auth emulator only through the environment, so an
    emulator host given in the secrets is copied there.
    """
    if not settings.project_id:
        raise ConfigError("firebase.project_id: missing; the Firebase backend needs it.")
    if settings.auth_emulator_host:
        os.environ.setdefault(EMULATOR_HOST_VARIABLE, settings.auth_emulator_host)
        return
    if not settings.api_key:
        raise ConfigError("firebase.api_key: missing; the web API key is needed to sign in.")
    if not settings.credentials:
        raise ConfigError("firebase.credentials: missing; a service account is needed.")


def firebase_app(settings: FirebaseSettings) -> firebase_admin.App:
    """The firebase-admin app for this project, made once per project id and reused.

    With the Auth emulator no credential is needed: firebase-admin talks to the
    emulator without one when FIREBASE_AUTH_EMULATOR_HOST is set.
    """
    name = f"dutch-scorer-{settings.project_id}"
    try:
        return firebase_admin.get_app(name)
    except ValueError:
        return _make_app(settings, name)


def _make_app(settings: FirebaseSettings, name: str) -> firebase_admin.App:
    credential = None
    if settings.credentials is not None and not settings.auth_emulator_host:
        credential = credentials.Certificate(dict(settings.credentials))
    try:
        return firebase_admin.initialize_app(
            credential, {"projectId": settings.project_id}, name=name
        )
    except ValueError:  # another thread made it in the meantime
        return firebase_admin.get_app(name)
