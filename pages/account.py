"""Account: your profile, your preferences, your password, your data (privacy and a download),
and deletion."""

from datetime import UTC, datetime

import streamlit as st

from dutch_app.accounts.export import export_file_name
from dutch_app.i18n import _
from dutch_app.services import members
from dutch_app.ui.account_tools import (
    confirms_email,
    deleted_text,
    my_data_maker,
    rename_offer_text,
    renamed_text,
)
from dutch_app.ui.anonymous import keep_section
from dutch_app.ui.context import (
    accounts,
    call,
    end_session,
    replace_account,
    require_account,
    start_session,
)
from dutch_app.ui.flash import flash, forget_flash, show_flash
from dutch_app.ui.guard import guarded
from dutch_app.ui.preference_form import preferences_section
from dutch_app.ui.routing import ensure_routed
from dutch_app.ui.text import md
from dutch_app.ui.widgets import password_change_fields

ensure_routed()


def profile(account) -> None:
    """The email address, and a form changing the display name."""
    st.subheader(_("Profile"))
    show_flash("account_profile")
    if not account.anonymous:
        st.caption(_("Email address (you sign in with it)"))
        st.text(account.email)
    with st.form("account_name_form"):
        name = st.text_input(
            _("Display name (the members of your groups see it)"),
            value=account.display_name,
            key="account_display_name",
            max_chars=80,
        )
        submitted = st.form_submit_button(_("Save the name"))
    if submitted:
        with guarded():
            changed = accounts().change_display_name(account.user_id, name)
            replace_account(changed)
            flash(
                _("Your display name is now {name}.").format(name=md(changed.display_name)),
                "account_profile",
            )
    rename_players()


def rename_players() -> None:
    """Offer to rename the person's players after their display name, where they differ."""
    with guarded():
        offered = call(members.players_to_rename)
    free = [rename for rename in offered if rename.renamed]
    if not free:
        return
    with st.container(border=True):
        st.markdown(rename_offer_text(offered))
        if st.button(
            _("Rename my player to {name}").format(name=md(free[0].new_name)),
            key="account_rename_players",
            type="primary",
        ):
            with guarded():
                done = call(members.rename_my_players)
                flash(renamed_text(done), "account_profile")


def password(account) -> None:
    """Change the password here, or (with Firebase) by a reset email."""
    st.subheader(_("Password"))
    show_flash("account_password")
    if accounts().password_reset_by_email:
        st.caption(_("We email you a link to choose a new password."))
        if st.button(_("Email me a link to change my password"), key="account_reset_password"):
            with guarded():
                accounts().send_password_reset(account.email)
                st.success(_("A link is on its way to {email}.").format(email=md(account.email)))
        return
    with st.form("account_password_form", clear_on_submit=True):
        current, new, again = password_change_fields(
            "account_current_password", "account_new_password", "account_new_password_again"
        )
        submitted = st.form_submit_button(_("Change the password"))
    if submitted:
        if new != again:
            st.error(_("The two new passwords differ; nothing was changed."))
            return
        with guarded():
            start_session(accounts().change_password(account.user_id, current, new))
            flash(
                _("Your password was changed. Your other devices are signed out."),
                "account_password",
            )


def your_data(account) -> None:
    """What is kept (the privacy page) and a download of all of it."""
    st.subheader(_("Your data"))
    if account.anonymous:
        kept = _(
            "We keep a random id for this account, its display name, your preferences and the "
            "games your groups enter; nothing is tracked, sold or shared."
        )
    else:
        kept = _(
            "We keep your email address, your display name, your preferences and the games "
            "your groups enter; nothing is tracked, sold or shared."
        )
    st.write(kept)
    st.page_link("pages/privacy.py", label=_("Read the privacy policy"), icon=":material/shield:")
    st.download_button(
        _("Download my data (ZIP)"),
        my_data_maker(account.user_id),
        file_name=export_file_name(datetime.now(UTC)),
        mime="application/zip",
        key="account_download_data",
        on_click="ignore",
        icon=":material/download:",
    )
    st.caption(
        _("Your profile, your preferences, your groups and all their games, as JSON and CSV files.")
    )


def delete_account(account) -> None:
    """Delete the account after typing the email address and the password."""
    st.subheader(_("Delete your account"))
    if account.anonymous:
        delete_anonymous(account)
        return
    st.write(
        _(
            "Your account, your sign-in details and any group only you belong to are deleted "
            "for good. In groups shared with others the games stay, and ownership passes to the "
            "longest-standing member."
        )
    )
    with st.form("account_delete_form"):
        typed = st.text_input(_("Type your email address to confirm"), key="account_delete_email")
        secret = st.text_input(
            _("Your password"),
            type="password",
            key="account_delete_password",
            autocomplete="current-password",
        )
        submitted = st.form_submit_button(_("Delete my account"), icon=":material/delete_forever:")
    if submitted:
        if not confirms_email(typed, account.email):
            st.error(_("The email address does not match your account's; nothing was deleted."))
            return
        with guarded():
            accounts().delete_account(account.user_id, secret)
            end_session(everywhere=False)
            flash(deleted_text(account.email), "signin_top")


def delete_anonymous(account) -> None:
    """Delete an account without an email or password: its session is all it takes."""
    st.write(
        _(
            "This account and any group only you belong to, with its games, are deleted "
            "for good. Without a visit, that happens by itself after 30 days."
        )
    )
    if st.button(
        _("Delete my account"), key="account_delete_anonymous", icon=":material/delete_forever:"
    ):
        with guarded():
            accounts().delete_account(account.user_id, "")
            end_session(everywhere=False)
            flash(_("Your account and its games were deleted."), "signin_top")


st.title(_("Account"))
me = require_account()
if me.anonymous:
    keep_section(me)
profile(me)
preferences_section()
if not me.anonymous:
    password(me)
your_data(me)
delete_account(me)
forget_flash()
