"""Session tokens: what a signed token says, and that nothing else is accepted."""

from __future__ import annotations

import stat
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from dutch_app.accounts.tokens import TokenClaims, parse_token, read_token, sign_token
from dutch_app.config import load_settings, local_secret_key

KEY = b"unit test key"
ENV_KEY = "key-from-the-environment-0123456789abcdef"
SECRETS_KEY = "key-from-the-secrets-file-ZYXWVUTSRQ9876543"
ISSUED = 1_800_000_000
DAY = 86_400


def at(seconds: int) -> datetime:
    return datetime.fromtimestamp(seconds, UTC)


SECRET = "ab" * 32  # a person's session secret

claims_strategy = st.builds(
    TokenClaims,
    user_id=st.integers(1, 2**63 - 1),
    issued_at=st.integers(0, 4_000_000_000),
    expires_at=st.integers(4_000_000_001, 8_000_000_000),
)


@given(claims_strategy)
def test_a_signed_token_reads_back_its_claims(claims):
    token = sign_token(claims, KEY, SECRET)
    assert read_token(token, KEY, SECRET, at(claims.issued_at)) == claims


def test_the_token_has_the_documented_form():
    token = sign_token(TokenClaims(42, ISSUED, ISSUED + 30 * DAY), KEY, SECRET)
    version, user, issued, expires, signature = token.split(".")
    assert (version, user) == ("v2", "42")
    assert (int(issued), int(expires)) == (ISSUED, ISSUED + 30 * DAY)
    assert len(signature) == 43  # 32 bytes of HMAC-SHA256, base64url without padding
    assert SECRET not in token


def test_a_token_ends_exactly_at_its_expiry():
    token = sign_token(TokenClaims(1, ISSUED, ISSUED + DAY), KEY, SECRET)
    assert read_token(token, KEY, SECRET, at(ISSUED + DAY - 1)) is not None
    assert read_token(token, KEY, SECRET, at(ISSUED + DAY)) is None


def test_another_key_is_refused():
    token = sign_token(TokenClaims(1, ISSUED, ISSUED + DAY), KEY, SECRET)
    assert read_token(token, b"another key", SECRET, at(ISSUED)) is None


def test_a_token_is_good_only_with_the_session_secret_it_was_signed_for():
    """Another person with the same id (or the same person after signing out) has another
    secret, and the token means nothing to them."""
    token = sign_token(TokenClaims(1, ISSUED, ISSUED + DAY), KEY, SECRET)
    assert read_token(token, KEY, "cd" * 32, at(ISSUED)) is None


@given(st.data())
def test_any_changed_character_is_refused(data):
    token = sign_token(TokenClaims(7, ISSUED, ISSUED + DAY), KEY, SECRET)
    index = data.draw(st.integers(0, len(token) - 1))
    replacement = data.draw(
        st.sampled_from("0123456789.-_vAbZ\u0661").filter(lambda c: c != token[index])
    )
    changed = token[:index] + replacement + token[index + 1 :]
    assert read_token(changed, KEY, SECRET, at(ISSUED)) is None


@given(st.text(max_size=200))
def test_any_text_is_refused_without_an_error(text):
    assert parse_token(text) is None or text.startswith(("v2.", " ", "\t", "\n"))
    assert read_token(text, KEY, SECRET, at(ISSUED)) is None


# Text shaped like a token whose numbers are any digits of any script, huge or signed.
odd_numbers = st.one_of(
    st.text(st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=25),
    st.integers(-(2**80), 2**80).map(str),
    st.text(min_size=0, max_size=5),
)
token_like = st.builds(
    lambda version, numbers, signature: ".".join([version, *numbers, signature]),
    st.sampled_from(["v2", "v1", "V2", "v\u0662"]),
    st.lists(odd_numbers, min_size=2, max_size=4),
    st.one_of(st.just("A" * 43), st.text(max_size=50)),
)


@given(token_like)
def test_token_shaped_text_with_odd_numbers_is_refused_without_an_error(text):
    parsed = parse_token(text)
    if parsed is not None:  # only plain ASCII numbers within 64 bits get this far
        claims = parsed[0]
        assert 1 <= claims.user_id <= 2**63 - 1
        assert text.split(".")[1] == str(claims.user_id)
    assert read_token(text, KEY, SECRET, at(ISSUED)) is None


def test_a_non_ascii_digit_or_an_id_beyond_64_bits_is_no_token():
    signature = "A" * 43
    assert parse_token(f"v2.\u0661.{ISSUED}.{ISSUED + DAY}.{signature}") is None
    assert parse_token(f"v2.{2**64}.{ISSUED}.{ISSUED + DAY}.{signature}") is None
    assert parse_token(f"v2.007.{ISSUED}.{ISSUED + DAY}.{signature}") is None
    assert parse_token(None) is None and parse_token(b"v2.1.1.1.x") is None


def test_an_old_form_token_is_refused():
    assert parse_token(f"v1.7.0.{ISSUED}.{ISSUED + DAY}.{'A' * 43}") is None


def test_the_local_key_is_made_once_and_readable_only_by_its_owner(tmp_path):
    first = local_secret_key(tmp_path)
    key_file = tmp_path / "data" / ".secret_key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert len(first) >= 40
    assert local_secret_key(tmp_path) == first
    assert load_settings(secrets={}, environ={}, project_root=tmp_path).secret_key == first


def test_a_configured_key_wins_over_the_local_file(tmp_path):
    from_env = load_settings(
        secrets={}, environ={"DUTCH_SECRET_KEY": ENV_KEY}, project_root=tmp_path
    )
    from_secrets = load_settings(
        secrets={"secret_key": SECRETS_KEY},
        environ={"DUTCH_SECRET_KEY": ENV_KEY},
        project_root=tmp_path,
    )
    assert (from_env.secret_key, from_secrets.secret_key) == (ENV_KEY, SECRETS_KEY)
    assert not (tmp_path / "data" / ".secret_key").exists()
