"""Group: who is in it, the invite code, the group's players (add, rename, merge, link),
other groups to create or join, and leaving."""

import streamlit as st

from dutch_app.i18n import N_, _, date_field_format, format_date
from dutch_app.services import demo, groups, members, players, seasons, setup
from dutch_app.services.views import Role
from dutch_app.ui.cache import roster
from dutch_app.ui.client import client_address
from dutch_app.ui.context import (
    active_group,
    call,
    forget_active_group,
    my_groups,
    require_account,
    set_active_group,
)
from dutch_app.ui.flash import flash, forget_flash, show_flash
from dutch_app.ui.group_view import (
    leave_note,
    member_names,
    members_frame,
    merge_note,
    offer_text,
    players_frame,
    removable_members,
    remove_note,
)
from dutch_app.ui.guard import guarded
from dutch_app.ui.invite_link import show_invite
from dutch_app.ui.next_game import line_up, open_new_game
from dutch_app.ui.routing import ensure_routed
from dutch_app.ui.seasons import group_seasons
from dutch_app.ui.text import distinct_labels, md
from dutch_app.ui.widgets import confirmed, labelled_choice, labelled_selectbox, reset_on_next_run
from dutch_core import SeasonKind

ensure_routed()


def switch_to(group, message: str, toast: bool) -> None:
    """Make ``group`` the active one and say so: at the top, or in a toast when the person
    did it from further down the page; the next step (a first game) waits at the top."""
    set_active_group(group.id)
    st.session_state[NEXT_STEP_KEY] = group.id
    flash(message, "group_top", toast=toast)


NEXT_STEP_KEY = "group_next_step"  # the group just made or joined: its first game is offered


def first_game(defaults, roster) -> None:
    """One tap to the Play page's set-up of a game, with the group's members chosen (a
    fourth player can still be added and the rules changed there)."""
    names = {player.id: player.name for player in roster}
    seated = [names[pid] for pid in defaults.player_ids if pid in names]
    with st.container(border=True):
        if len(seated) >= 2:
            st.markdown(
                _("**Ready to play?** {players} are the group's players.").format(
                    players=md(line_up(seated))
                )
            )
            label = _("Set up a game with {players}").format(players=md(line_up(seated)))
        else:
            st.markdown(
                _(
                    "**Ready to play?** Invite the others with the code below, or add them by "
                    "name when you set up the game."
                )
            )
            label = _("Set up the first game")
        if st.button(label, key="group_set_up_game", type="primary", icon=":material/add:"):
            open_new_game()


def my_player(group, offer) -> None:
    """A member without a player here: is the guest of their name them, or a new player?"""
    if offer is None:
        return
    show_flash("group_my_player")
    with st.container(border=True):
        if offer.match is None:
            st.markdown(_("You are not one of this group's players yet."))
            add_me = st.button(
                _("Add me as {name}").format(name=md(offer.new_name)),
                key="group_add_me",
                type="primary",
            )
        else:
            st.markdown(offer_text(offer))
            yes, no = st.columns(2)
            if yes.button(
                _("Yes, I am {name}").format(name=md(offer.match.name)),
                key="group_claim_player",
                type="primary",
            ):
                with guarded():
                    call(members.claim_player, offer.match.id)
                    flash(
                        _("You play as {name} in this group.").format(name=md(offer.match.name)),
                        "group_top",
                    )
            add_me = no.button(
                _("No, add me as {name}").format(name=md(offer.new_name)), key="group_add_me"
            )
        if add_me:
            with guarded():
                added = call(members.add_my_player, group.id)
                flash(
                    _("You play as {name} in this group.").format(name=md(added.name)), "group_top"
                )


def demo_notice(group) -> None:
    """A demo group says so, and its owner can remove it in one step."""
    if not group.is_demo:
        return
    with st.container(border=True):
        st.markdown(
            ":material/science: "
            + _(
                "**This is a demo group.** Its players and games are made up, "
                "to look around in; nothing here counts."
            )
        )
        if group.role is Role.OWNER and st.button(
            _("Remove the demo group"), key="group_remove_demo", icon=":material/delete:"
        ):
            with guarded():
                name = call(demo.remove_demo_group, group.id)
                forget_active_group()
                flash(
                    _("{name} was removed with all its games.").format(name=md(name)),
                    "group_top",
                )


def load_demo(toast: bool) -> None:
    """A demo group to look around in, for anyone (in a group already or not); ``toast``:
    the button is far down the page, so a toast says it is ready."""
    if st.button(_("Load a demo group"), key="group_load_demo", icon=":material/casino:"):
        with guarded():
            made = call(demo.load_demo_group)
            set_active_group(made.id)
            flash(
                _(
                    "The demo group is ready and is now your active group; remove it from this "
                    "page when you are done."
                ),
                "group_top",
                toast=toast,
            )


def create_group(toast: bool) -> None:
    """A form naming a new group, owned by the person (``toast``: see :func:`switch_to`)."""
    with st.form("group_create_form"):
        name = st.text_input(_("Name of the new group"), key="group_create_name", max_chars=80)
        submitted = st.form_submit_button(_("Create the group"), icon=":material/add:")
    if submitted:
        with guarded():
            group = call(groups.create_group, name)
            switch_to(
                group,
                _("You created {group}; it is now your active group.").format(group=md(group.name)),
                toast,
            )


def join_group(toast: bool) -> None:
    """A form taking an invite code (``toast``: see :func:`switch_to`)."""
    with st.form("group_join_form"):
        code = st.text_input(
            _("Invite code"), key="group_join_code", placeholder=_("e.g. K7QX M2PD"), max_chars=40
        )
        submitted = st.form_submit_button(_("Join the group"), icon=":material/login:")
    if submitted:
        with guarded():
            group = call(groups.join_group, code, client=client_address())
            switch_to(
                group,
                _("You are a member of {group}; it is now your active group.").format(
                    group=md(group.name)
                ),
                toast,
            )


def no_group_yet() -> None:
    """A first visit: create a group, join one, or look around in a demo group."""
    st.info(
        _(
            "You are not in a group yet. A group is the people you play with: its members share "
            "the games, the history and the statistics."
        )
    )
    st.subheader(_("Create a group"))
    create_group(toast=False)
    st.subheader(_("Join a group"))
    st.caption(_("Ask the group's owner for its invite code."))
    join_group(toast=False)
    st.subheader(_("Just looking?"))
    st.caption(_("A demo group comes with past games to explore; you can remove it any time."))
    load_demo(toast=False)


def invite_code(group) -> None:
    """The owner sees the code and can replace it; others learn whom to ask."""
    st.markdown(_("#### Invite code"))
    show_flash("group_invite")
    if group.role is not Role.OWNER:
        st.caption(_("Only the group's owner can see and change the invite code: ask them for it."))
        return
    show_invite(group)
    st.caption(
        _(
            "Anyone with this link or code can join. A new code stops the old one, and the old "
            "link, from working."
        )
    )
    if st.button(_("Make a new code"), key="group_rotate_code", icon=":material/autorenew:"):
        with guarded():
            call(groups.rotate_invite_code, group.id)
            flash(
                _("The group has a new invite code and link; the old ones no longer work."),
                "group_invite",
            )


def rename_group(group) -> None:
    """The owner can rename the group."""
    if group.role is not Role.OWNER:
        return
    if st.session_state.get("group_rename_for") != group.id:  # another group became active
        st.session_state["group_rename_name"] = group.name
        st.session_state["group_rename_for"] = group.id
    with st.form("group_rename_form"):
        name = st.text_input(_("Group name"), key="group_rename_name", max_chars=80)
        submitted = st.form_submit_button(_("Rename the group"))
    if submitted:
        with guarded():
            renamed = call(groups.rename_group, group.id, name)
            flash(_("The group is now called {name}.").format(name=md(renamed.name)), "group_top")


SEASON_KINDS = {
    SeasonKind.QUARTER: N_("Calendar quarters"),
    SeasonKind.MONTH: N_("Months"),
    SeasonKind.YEAR: N_("Years"),
    SeasonKind.NAMED: N_("Named seasons"),
}


def seasons_section(group) -> None:
    """The owner chooses how Stats and History cut the games into seasons, and names
    seasons with their start dates."""
    if group.role is not Role.OWNER:
        return
    with st.expander(_("Seasons")):
        show_flash("group_seasons")
        kinds = group_seasons(group)
        kind = labelled_choice(
            st.selectbox,
            _("Seasons are"),
            SEASON_KINDS,
            kinds.kind,
            key="group_season_kind",
            help=_('How Stats and History count "this season" and "last season".'),
        )
        if kind != kinds.kind:
            with guarded():
                call(seasons.set_season_kind, group.id, kind)
                flash(
                    _("Seasons are now: {kind}.").format(kind=_(SEASON_KINDS[kind])),
                    "group_seasons",
                )
        st.caption(
            _(
                "A named season runs from its start date to the next one's; games before the "
                "first named season are in none."
            )
        )
        for named in kinds.named:
            name_column, remove_column = st.columns([4, 1], vertical_alignment="center")
            name_column.markdown(f"{md(named.name)} · {format_date(named.starts_on)}")
            if remove_column.button(
                _("Remove"), key=f"group_season_remove_{named.id}", icon=":material/delete:"
            ):
                with guarded():
                    call(seasons.remove_named_season, group.id, named.id)
                    flash(
                        _("The season {name} was removed.").format(name=md(named.name)),
                        "group_seasons",
                    )
        with st.form("group_season_form"):
            name = st.text_input(_("Season name"), key="group_season_name", max_chars=40)
            starts_on = st.date_input(
                _("Starts on"), key="group_season_start", format=date_field_format()
            )
            submitted = st.form_submit_button(
                _("Add the season"), key="group_season_add", icon=":material/add:"
            )
        if submitted:
            with guarded():
                call(seasons.add_named_season, group.id, name, starts_on)
                reset_on_next_run(group_season_name="")
                flash(_("Season {name} added.").format(name=md(name.strip())), "group_seasons")


def add_player(group) -> None:
    """A form adding a player by name."""
    with st.form("group_add_player_form"):
        name = st.text_input(_("New player's name"), key="group_add_player_name", max_chars=60)
        submitted = st.form_submit_button(_("Add the player"), icon=":material/person_add:")
    if submitted:
        with guarded():
            added = call(players.add_player, group.id, name)
            reset_on_next_run(group_add_player_name="")
            flash(
                _("{name} was added to the players.").format(name=md(added.name)), "group_players"
            )


def rename_player(roster) -> None:
    """A form giving a player a new name."""
    names = {player.id: player.name for player in roster}
    with st.form("group_rename_player_form"):
        player_id = labelled_selectbox(_("Player"), list(names), names, key="group_rename_player")
        name = st.text_input(_("New name"), key="group_rename_player_name", max_chars=60)
        submitted = st.form_submit_button(_("Rename the player"))
    if submitted:
        with guarded():
            renamed = call(players.rename_player, player_id, name)
            flash(
                _("{name} is now called {new} in every game.").format(
                    name=md(names[player_id]), new=md(renamed.name)
                ),
                "group_players",
            )


def merge_players(group, roster) -> None:
    """Move one player's history to another, after a confirmation."""
    by_id = {player.id: player for player in roster}
    ids = list(by_id)
    names = {pid: player.name for pid, player in by_id.items()}
    source_id = labelled_selectbox(_("Merge this player…"), ids, names, key="group_merge_source")
    target_id = labelled_selectbox(
        _("…into this player"),
        ids,
        names,
        index=1 if len(ids) > 1 else 0,
        key="group_merge_target",
    )
    source, target = by_id[source_id], by_id[target_id]
    st.caption(merge_note(source, target))
    if confirmed(
        _("Yes, merge {source} into {target}").format(
            source=md(source.name), target=md(target.name)
        ),
        _("Merge the players"),
        _("Tick the box above to confirm; nothing was merged."),
        key="group_merge",
        icon=":material/merge:",
    ):
        with guarded():
            call(players.merge_players, group.id, source.id, target.id)
            reset_on_next_run(group_merge_confirm=False)
            flash(
                _("{source}'s games now belong to {target}.").format(
                    source=md(source.name), target=md(target.name)
                ),
                "group_players",
            )


def link_player(group, roster) -> None:
    """Link a player to a member's account (or unlink it)."""
    names = {player.id: player.name for player in roster}
    members = distinct_labels(member_names(group))
    player_id = labelled_selectbox(_("Player"), list(names), names, key="group_link_player")
    user_id = labelled_selectbox(
        _("is this member"),
        [None, *members],
        {None: _("Nobody (remove the link)"), **members},
        key="group_link_member",
    )
    if st.button(_("Save the link"), key="group_link", icon=":material/link:"):
        with guarded():
            call(players.link_player, player_id, user_id)
            who = _("nobody") if user_id is None else md(members[user_id])
            flash(
                _("{name} is now linked to {who}.").format(name=md(names[player_id]), who=who),
                "group_players",
            )


def players_section(group) -> None:
    """The group's players and what can be done with them."""
    st.subheader(_("Players"))
    show_flash("group_players")
    roster = call(players.list_players, group.id)
    if roster:
        st.dataframe(players_frame(roster, group), hide_index=True, width="stretch")
    else:
        st.caption(
            _("No players yet: add the people you play with, or add them when you start a game.")
        )
    add_player(group)
    if not roster:
        return
    with st.expander(_("Rename a player")):
        rename_player(roster)
    if len(roster) > 1:
        with st.expander(_("Merge two players")):
            merge_players(group, roster)
    with st.expander(_("Link a player to a member's account")):
        st.caption(_("A linked player counts as that member, e.g. in their own statistics."))
        link_player(group, roster)


def remove_member(group, me: int) -> None:
    """The owner takes a member out of the group, after a confirmation."""
    if group.role is not Role.OWNER:
        return
    show_flash("group_members")
    with st.expander(_("Remove a member")):
        others = distinct_labels(removable_members(group, me))
        if not others:
            st.caption(_("You are the only member: nobody else to remove."))
            return
        member_id = labelled_selectbox(_("Member"), list(others), others, key="group_remove_member")
        if member_id is None:
            return
        st.markdown(remove_note(group, others[member_id]))
        if confirmed(
            _("Yes, remove {name} from {group}").format(
                name=md(others[member_id]), group=md(group.name)
            ),
            _("Remove the member"),
            _("Tick the box above to confirm; nobody was removed."),
            key="group_remove",
            icon=":material/person_remove:",
        ):
            with guarded():
                call(groups.remove_member, group.id, member_id)
                reset_on_next_run(group_remove_confirm=False)
                flash(
                    _(
                        "{name} is no longer a member of {group}. The group has a new invite code."
                    ).format(name=md(others[member_id]), group=md(group.name)),
                    "group_members",
                )


def leave_group(group, me: int) -> None:
    """Leave the group, after a confirmation."""
    with st.expander(_("Leave this group")):
        st.markdown(leave_note(group, me))
        if confirmed(
            _("Yes, I want to leave {group}").format(group=md(group.name)),
            _("Leave the group"),
            _("Tick the box above to confirm; you are still a member."),
            key="group_leave",
            icon=":material/logout:",
        ):
            with guarded():
                call(groups.leave_group, group.id)
                forget_active_group()
                reset_on_next_run(group_leave_confirm=False)
                flash(_("You left {group}.").format(group=md(group.name)), "group_top", toast=True)


st.title(_("Group"))
me = require_account().user_id
show_flash("group_top")
group = active_group(my_groups())
if group is None:
    no_group_yet()
    st.stop()

st.subheader(md(group.name))
demo_notice(group)
with guarded():
    my_player(group, call(members.my_player_offer, group.id))
    if not group.is_demo:
        defaults = call(setup.game_defaults, group.id)
        if st.session_state.get(NEXT_STEP_KEY) == group.id or defaults.rules is None:
            first_game(defaults, roster(group))
st.dataframe(members_frame(group, me), hide_index=True, width="stretch")
remove_member(group, me)
invite_code(group)
rename_group(group)
with guarded():
    players_section(group)
seasons_section(group)

st.subheader(_("Other groups"))
with st.expander(_("Create another group")):
    create_group(toast=True)
with st.expander(_("Join a group with an invite code")):
    join_group(toast=True)
with st.expander(_("Look around in a demo group")):
    st.caption(_("Made-up players and games to explore, marked as a demo; remove it in one step."))
    load_demo(toast=True)
leave_group(group, me)
forget_flash()
