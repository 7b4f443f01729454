"""Dutch Scorer: the entry point and only router.

Configures the page, restores a signed-in person from their cookie, builds the
navigation (fewer pages before sign-in), shows who is signed in and which group
is active, and runs the chosen page inside the error guard, so no traceback
ever reaches the screen.
"""

import logging
from functools import partial

import streamlit as st

from dutch_app.i18n import N_, _, chosen_language, use_language
from dutch_app.services import groups
from dutch_app.ui.context import (
    active_group,
    call,
    current_account,
    end_of_run,
    end_session,
    flush_cookie,
    hand_groups_to_page,
    require_account,
    resources,
    resume_from_cookie,
    set_active_group,
    settings_problem,
    show_lost_group,
    signed_out_notice,
)
from dutch_app.ui.guard import guarded
from dutch_app.ui.invite_link import (
    WAITING,
    invite_link_opened,
    invite_waiting,
    join_from_link,
    show_invite_outcome,
)
from dutch_app.ui.page_css import page_css
from dutch_app.ui.password_reset import reset_link_opened
from dutch_app.ui.preferences import my_preferences, page_head, read_again_next_run
from dutch_app.ui.text import distinct_labels
from dutch_app.ui.widgets import apply_pending_resets

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s %(message)s")

ICON = "dutch_app/web/static/icon-192.png"  # also the home-screen icon (dutch_app.web.assets)
st.set_page_config(page_title="Dutch Scorer", page_icon=ICON, layout="wide")
st.html(page_css())  # no English hint in text fields; room for a table's toolbar on a phone


def public_pages() -> dict[str, st.Page]:
    """The pages open to everyone, titled in this run's language."""
    return {
        "sign_in": st.Page("pages/sign_in.py", title=_("Sign in"), icon=":material/login:"),
        "calculator": st.Page(
            "pages/calculator.py", title=_("Round calculator"), icon=":material/calculate:"
        ),
        "rules": st.Page("pages/rules.py", title=_("Rules"), icon=":material/menu_book:"),
        "privacy": st.Page("pages/privacy.py", title=_("Privacy"), icon=":material/shield:"),
        # A read-only link to one game opens this page, signed in or not
        # (dutch_app.services.sharing).
        "shared_game": st.Page(
            "pages/shared.py",
            title=_("Shared game"),
            icon=":material/share:",
            url_path="shared",
            visibility="hidden",
        ),
        "reset_password": st.Page(
            "pages/reset_password.py", title=_("Choose a new password"), icon=":material/key:"
        ),
    }


def preferred_language() -> str | None:
    """The language the person stored with their account, else the one chosen in this
    session; None follows the browser."""
    if current_account() is not None and (stored := my_preferences().language):
        return stored
    return chosen_language()


PRIVATE_PATHS = ("play", "table", "history", "stats", "group", "account")


def signed_out_pages(public: dict[str, st.Page]) -> list[st.Page]:
    """The navigation before sign-in. The addresses of the signed-in pages lead to the
    sign-in form (hidden from the menu), so a bookmark or a reload never hits "page not
    found"; once signed in, the same address shows the page asked for.

    The menu is one list, without section titles: Streamlit draws a sectioned menu as a
    list whose items are not its own children, which a screen reader cannot count or
    step through (docs/accessibility.md)."""
    waiting = [
        st.Page("pages/sign_in.py", title=_("Sign in"), url_path=path, visibility="hidden")
        for path in PRIVATE_PATHS
    ]
    return [
        public["sign_in"],
        public["calculator"],
        *waiting,
        public["shared_game"],
        public["rules"],
        public["privacy"],
    ]


def signed_in_pages(public: dict[str, st.Page]) -> list[st.Page]:
    """The navigation once someone is signed in, in one list as before sign-in: the pages
    of the table first, then the person's own, the tools and what the app is about.

    Play is the home page, at the app's root address. Its own address (``/play``: a
    bookmark, or the address asked for before signing in) is a hidden page that opens it.
    """
    play = st.Page(
        "pages/play.py",
        title=_("Play"),
        icon=":material/playing_cards:",
        url_path="home",
        default=True,
    )
    play_address = st.Page(
        partial(st.switch_page, play), title=_("Play"), url_path="play", visibility="hidden"
    )
    table = st.Page("pages/table.py", title=_("Table view"), icon=":material/tv:")
    history = st.Page("pages/history.py", title=_("History"), icon=":material/history:")
    stats = st.Page("pages/stats.py", title=_("Stats"), icon=":material/insights:")
    group = st.Page("pages/group.py", title=_("Group"), icon=":material/group:")
    account = st.Page("pages/account.py", title=_("Account"), icon=":material/person:")
    # fmt: off
    return [
        play, table, history, stats, play_address,
        group, account,
        public["calculator"], public["shared_game"],
        public["rules"], public["privacy"],
    ]
    # fmt: on


# The pages of the page bar, by address, with their short names (translate with ``_``).
# A comment, not a string: Streamlit would show a bare string of the script on the page.
TABLE_LABELS = {
    "": N_("Play"),
    "table": N_("Table"),
    "history": N_("History"),
    "stats": N_("Stats"),
}


def page_bar(pages: list[st.Page], page) -> None:
    """The pages used at the table, one tap away at the top of each of them.

    Streamlit's own top navigation folds into the hidden sidebar on a phone, where a page
    change takes two taps; this row of links stays in view at any width.
    """
    table_pages = [p for p in pages if p.url_path in TABLE_LABELS]
    if page.url_path not in TABLE_LABELS:
        return
    with st.container(horizontal=True, gap="small", key="page_bar"):
        for target in table_pages:
            st.page_link(target, label=_(TABLE_LABELS[target.url_path]), icon=target.icon)


def sidebar_for_signed_in() -> None:
    """Who is signed in, the group switcher and the sign-out button."""
    account = require_account()
    with st.sidebar:
        st.caption(_("Signed in as"))
        st.text(account.display_name)
        group_list = call(groups.list_groups)  # always fresh; the page reuses it
        hand_groups_to_page(group_list)
        group = active_group(group_list)
        if group is not None and len(group_list) > 1:
            ids = [g.id for g in group_list]
            names = distinct_labels({g.id: g.name for g in group_list})
            # No widget key: the widget is rebuilt whenever the active group changes
            # elsewhere (a page that creates or joins a group), so it always shows it.
            choice = st.selectbox(
                _("Active group"), ids, index=ids.index(group.id), format_func=names.__getitem__
            )
            if choice != group.id:
                set_active_group(choice)
                st.rerun()
        elif group is not None:
            st.caption(_("Group"))
            st.text(group.name)
        if st.button(_("Sign out"), key="sidebar_sign_out", icon=":material/logout:"):
            end_session()
            st.rerun()


def run() -> None:
    """One run of the app: check the session, pick the pages, draw the chosen one."""
    use_language(chosen_language())  # the session's choice or the browser's, until sign-in
    problem = settings_problem()
    if problem is not None:
        st.error(problem)
        st.stop()
    resources().clean_up.run_if_due()  # once a day: a comparison of two times otherwise
    with guarded():
        resume_from_cookie()
    with guarded():
        use_language(preferred_language())  # every text from here on is in this language
    public = public_pages()

    resetting = reset_link_opened()  # a password-reset link: its form alone
    invite_link_opened()  # an invite link: its code waits in the tab until sign-in
    if resetting:
        page = st.navigation([public["reset_password"]], position="hidden")
    elif current_account() is None:
        page = st.navigation(signed_out_pages(public))
    else:
        pages = signed_in_pages(public)
        page = st.navigation(pages)

    if current_account() is not None and not resetting:
        with guarded():
            join_from_link()  # before the sidebar, so the group joined is in its list
        with guarded(st.sidebar):
            sidebar_for_signed_in()
        page_bar(pages, page)
    elif (notice := signed_out_notice()) is not None and not resetting:
        st.info(_(notice), icon=":material/logout:")
    if current_account() is None and invite_waiting() and not resetting:
        st.info(_(WAITING), icon=":material/group_add:")
    # What comes and goes above the page (the cookie's ticket, a notice shown once) stands
    # in a container that is always drawn: Streamlit draws an element afresh when what
    # stands before it changes, and the Play page's round entry would lose what was typed
    # in the run after such a notice.
    passing = st.container()
    with passing:
        flush_cookie()
    # The head script stands as a placeholder until Streamlit has the code that draws it:
    # last in the sidebar (folded on a phone), the page does not move up when it goes.
    # The reset form alone has no sidebar, and no page under the script to move.
    with guarded(), st.container() if resetting else st.sidebar:
        page_head(my_preferences().theme if current_account() is not None else None)
    apply_pending_resets()
    with guarded():
        with passing:
            show_lost_group()
            show_invite_outcome()
        page.run()


try:
    run()
finally:
    end_of_run()  # the next run, a callback or a fragment checks the session again
    read_again_next_run()  # and reads the preferences again
