"""Session tokens: what a signed token says, and that nothing else is accepted."""

from __future__ import annotations

import stat
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from dutch_app.accounts.tokens import TokenClaims, read_token, sign_token
from dutch_app.config import load_settings, local_secret_key

KEY = b"unit test key"
ISSUED = 1_800_000_000
DAY = 86_400


def at(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


claims_strategy = st.builds(
    TokenClaims,
    user_id=st.integers(1, 2**63 - 1),
    session_epoch=st.integers(0, 2**31),
    issued_at=st.integers(0, 4_000_000_000),
    expires_at=st.integers(4_000_000_001, 8_000_000_000),
)


@given(claims_strategy)
def test_a_signed_token_reads_back_its_claims(claims):
    assert read_token(sign_token(claims, KEY), KEY, at(claims.issued_at)) == claims


def test_the_token_has_the_documented_form():
    token = sign_token(TokenClaims(42, 3, ISSUED, ISSUED + 30 * DAY), KEY)
    version, user, epoch, issued, expires, signature = token.split(".")
    assert (version, user, epoch) == ("v1", "42", "3")
    assert (int(issued), int(expires)) == (ISSUED, ISSUED + 30 * DAY)
    assert len(signature) == 43  # 32 bytes of HMAC-SHA256, base64url without padding


def test_a_token_ends_exactly_at_its_expiry():
    token = sign_token(TokenClaims(1, 0, ISSUED, ISSUED + DAY), KEY)
    assert read_token(token, KEY, at(ISSUED + DAY - 1)) is not None
    assert read_token(token, KEY, at(ISSUED + DAY)) is None


def test_another_key_is_refused():
    token = sign_token(TokenClaims(1, 0, ISSUED, ISSUED + DAY), KEY)
    assert read_token(token, b"another key", at(ISSUED)) is None


@given(st.data())
def test_any_changed_character_is_refused(data):
    token = sign_token(TokenClaims(7, 2, ISSUED, ISSUED + DAY), KEY)
    index = data.draw(st.integers(0, len(token) - 1))
    replacement = data.draw(
        st.sampled_from("0123456789.-_vAbZ").filter(lambda c: c != token[index])
    )
    changed = token[:index] + replacement + token[index + 1 :]
    assert read_token(changed, KEY, at(ISSUED)) is None


@given(st.text(max_size=200))
def test_any_text_is_refused_without_an_error(text):
    assert read_token(text, KEY, at(ISSUED)) is None


def test_the_local_key_is_made_once_and_readable_only_by_its_owner(tmp_path):
    first = local_secret_key(tmp_path)
    key_file = tmp_path / "data" / ".secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert len(first) >= 40
    assert local_secret_key(tmp_path) == first
    assert load_settings(secrets={}, environ={}, project_root=tmp_path).secret_key == first


def test_a_configured_key_wins_over_the_local_file(tmp_path):
    from_env = load_settings(
        secrets={}, environ={"DUTCH_SECRET_KEY": "env key"}, project_root=tmp_path
    )
    from_secrets = load_settings(
        secrets={"secret_key": "secret key"},
        environ={"DUTCH_SECRET_KEY": "env key"},
        project_root=tmp_path,
    )
    assert (from_env.secret_key, from_secrets.secret_key) == ("env key", "secret key")
    assert not (tmp_path / "data" / ".secret_key").exists()
