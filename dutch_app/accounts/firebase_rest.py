"""The client side of Firebase Authentication: the Identity Toolkit REST API.

These calls are what a browser would make with the web API key: sign-up (with a password,
or anonymous), sign-in with a password or a custom token, linking a password to an
anonymous user and sending the password-reset email. With
an Auth emulator host they go to the emulator over plain HTTP.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import requests

IDENTITY_TOOLKIT = "identitytoolkit.googleapis.com/v1"
TIMEOUT_SECONDS = 15


class FirebaseRestError(Exception):
    """Firebase refused a request; ``code`` is its error code such as ``EMAIL_EXISTS``."""

    def __init__(self, code: str, status: int | None = None) -> None:
        super().__init__(f"Firebase answered {code!r} (HTTP {status})")
        self.code = code
        self.status = status


@dataclass(frozen=True)
class SignedIn:
    """What Firebase returns after sign-up or sign-in. The tokens stay out of ``repr``."""

    uid: str
    email: str
    display_name: str
    id_token: str = field(repr=False)


def _error_code(response: requests.Response) -> str:
    try:
        message = response.json()["error"]["message"]
    except (ValueError, KeyError, TypeError):
        return f"HTTP_{response.status_code}"
    # Some codes carry an explanation: "WEAK_PASSWORD : Password should be at least ..."
    return str(message).split(" : ")[0].strip()


class IdentityToolkit:
    """A small REST client bound to one web API key."""

    def __init__(self, web_api_key: str, emulator_host: str | None = None) -> None:
        self._key = web_api_key
        self._root = f"http://{emulator_host}/" if emulator_host else "https://"
        self._http = requests.Session()

    def __repr__(self) -> str:
        return f"IdentityToolkit(root={self._root!r}, web_api_key=<hidden>)"

    def _post(self, method: str, body: dict[str, Any]) -> dict[str, Any]:
        url = f"{self._root}{IDENTITY_TOOLKIT}/{method}"
        params = {"key": self._key}
        try:
            response = self._http.post(url, params=params, timeout=TIMEOUT_SECONDS, json=body)
        except requests.RequestException as error:
            raise FirebaseRestError("UNREACHABLE") from error
        if not response.ok:
            raise FirebaseRestError(_error_code(response), response.status_code)
        return response.json()

    @staticmethod
    def _signed_in(answer: dict[str, Any]) -> SignedIn:
        return SignedIn(
            uid=answer["localId"],
            email=answer.get("email", ""),
            display_name=answer.get("displayName", ""),
            id_token=answer["idToken"],
        )

    def sign_up(self, email: str, password: str, display_name: str) -> SignedIn:
        """Create an email/password user (``accounts:signUp``)."""
        body = {
            "email": email,
            "password": password,
            "displayName": display_name,
            "returnSecureToken": True,
        }
        return self._signed_in(self._post("accounts:signUp", body))

    def sign_up_anonymous(self) -> SignedIn:
        """Create an anonymous user (``accounts:signUp`` with no email or password)."""
        body = {"returnSecureToken": True}
        return self._signed_in(self._post("accounts:signUp", body))

    def sign_in_with_custom_token(self, token: str) -> str:
        """Trade a custom token made by the server for an ID token of its user."""
        body = {"token": token, "returnSecureToken": True}
        answer = self._post("accounts:signInWithCustomToken", body)
        return str(answer["idToken"])

    def link_password(
        self, id_token: str, email: str, password: str, display_name: str
    ) -> SignedIn:
        """Give the (anonymous) user of ``id_token`` an email and password
        (``accounts:update``): the same user, now able to sign in with them."""
        body = {
            "idToken": id_token,
            "email": email,
            "password": password,
            "displayName": display_name,
            "returnSecureToken": True,
        }
        return self._signed_in(self._post("accounts:update", body))

    def sign_in(self, email: str, password: str) -> SignedIn:
        """Check a password (``accounts:signInWithPassword``)."""
        body = {"email": email, "password": password, "returnSecureToken": True}
        return self._signed_in(self._post("accounts:signInWithPassword", body))

    def send_password_reset(self, email: str) -> None:
        """Have Firebase email a password-reset link (``accounts:sendOobCode``)."""
        body = {"requestType": "PASSWORD_RESET", "email": email}
        self._post("accounts:sendOobCode", body)
