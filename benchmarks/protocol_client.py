"""A browser-less Streamlit client that speaks the app's own websocket protocol.

It does what a browser tab does, without drawing anything: opens
``/_stcore/stream`` with the session cookie, asks for script runs
(``BackMsg.rerun_script`` with the widgets' states), keeps the elements each run
sends, answers the server's requests to rerun a fragment on a timer
(``ForwardMsg.auto_rerun``, how ``st.fragment(run_every=...)`` works), and lets
a caller fill widgets by their keys and press buttons. The load test drives many
of these at once against one server.

The Play page's round entry is not made of widgets but is one element drawn in the
browser (``dutch_app/ui/play_entry.js``): what is typed stays in the browser, and Save
posts the whole entry to the app's round route, then tells the page with the element's
``stored`` event, whose run draws the standings. The client does the same with a round
(:meth:`StreamlitClient.save_round`), and reads the standings the page draws
(:meth:`StreamlitClient.standings`) from the table's data.

It also does what the page's live component (``dutch_app/ui/live_push.js``) does in
a browser: while the page shows one, it holds a request open to the live route
(``GET /_dutch/live?game=…&since=…`` with the session cookie), asks again when the
answer is the version it has, and when the version moved on, reruns the component's
fragment with the component's ``changed`` event, as the browser would.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
import pyarrow as pa
import websockets
from streamlit.components.v2.bidi_component.main import _make_trigger_id
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.Element_pb2 import Element
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

LIVE_COMPONENT = "dutch_live"  # the end of the live component's registered name
ENTRY_COMPONENT = "dutch_round_entry"  # the end of the Play entry's registered name
STANDINGS = ("Rank", "Player", "Total")  # the standings table's columns (in English)
LIVE_AGAIN_S = 1.2  # after asking for a rerun, the component waits this long (AGAIN_MS)
LIVE_TIMEOUT_S = 70.0  # longer than the route's longest wait (40 s)

WIDGETS = {"text_input", "text_area", "selectbox", "radio", "button", "button_group", "checkbox"}


@dataclass
class Run:
    """What one script run (or fragment run) sent: its elements by delta path."""

    fragment_id: str
    elements: dict[tuple[int, ...], Element] = field(default_factory=dict)
    fragments: set[str] = field(default_factory=set)  # the fragments that drew in it
    finished: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(frozen=True)
class EntryElement:
    """The Play page's round entry as last drawn: the element's id, the fragment that drew
    it, and its data (the entry's number, the round it is for, the players, the choices)."""

    component_id: str
    fragment_id: str
    data: dict[str, Any]

    def option(self, name: str, label: str) -> str:
        """The value the element sends for the choice shown as ``label`` among its
        ``callers`` or ``calls`` (a player's name, "dutch")."""
        for value, shown in self.data[name]:
            if label in (value, shown):
                return value
        raise LookupError(f"no {label!r} among the entry's {name}")


def _event(component_id: str, event: str, value: object) -> WidgetState:
    """A component's event as the browser sends it: a trigger value of the component."""
    sent = [{"event": event, "value": value}]
    return WidgetState(
        id=_make_trigger_id(component_id, "events"), json_trigger_value=json.dumps(sent)
    )


def _frame_rows(element: Element) -> tuple[list[str], list[tuple]]:
    """The columns and rows of a data frame element (none when its data is not inline)."""
    data = element.dataframe.arrow_data.data
    if not data:
        return [], []
    table = pa.ipc.open_stream(data).read_all()
    columns = [name for name in table.column_names if not name.startswith("__index_level_")]
    values = [table.column(name).to_pylist() for name in columns]
    return columns, list(zip(*values, strict=True))


def _widget_id(element: Element) -> str | None:
    kind = element.WhichOneof("type")
    return getattr(element, kind).id if kind in WIDGETS else None


def _default_state(element: Element) -> WidgetState | None:
    """The state a browser would send for a widget nobody touched."""
    kind = element.WhichOneof("type")
    proto = getattr(element, kind)
    state = WidgetState(id=proto.id)
    if kind in ("text_input", "text_area"):
        state.string_value = proto.value if proto.set_value else proto.default
    elif kind in ("selectbox", "radio"):
        if proto.set_value and proto.raw_value:
            state.string_value = proto.raw_value
        elif proto.HasField("default") and 0 <= proto.default < len(proto.options):
            state.string_value = proto.options[proto.default]
        else:
            return None
    elif kind == "checkbox":
        state.bool_value = proto.value if proto.set_value else proto.default
    elif kind == "button_group":
        values = (
            proto.raw_values
            if proto.set_value
            else [proto.options[i].content for i in proto.default]
        )
        state.string_array_value.data.extend(values)
    else:  # buttons are triggers: only pressed ones are sent
        return None
    return state


class StreamlitClient:
    """One tab of the app, signed in by its session cookie."""

    def __init__(self, base_url: str, cookies: Mapping[str, str]) -> None:
        self._url = base_url.replace("http://", "ws://", 1) + "/_stcore/stream"
        self._cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
        self._socket: Any = None
        self._reader: asyncio.Task | None = None
        self._timers: dict[str, asyncio.Task] = {}
        self._states: dict[str, WidgetState] = {}
        self._touched: dict[str, WidgetState] = {}
        self.page_script_hash = ""
        self.elements: dict[tuple[int, ...], Element] = {}
        self._drawn_by: dict[tuple[int, ...], str] = {}  # element path -> its fragment's id
        self._widget_fragment: dict[str, str] = {}  # widget id -> the fragment that drew it
        self._run: Run | None = None
        self.fragment_runs = 0
        self.drawn = asyncio.Event()  # set whenever an element arrives
        self.entry: EntryElement | None = None
        self._entry_sent = 0  # the entries the round entry sent (the element counts them)
        self._standings: list[tuple] = []
        self._http = httpx.AsyncClient(
            base_url=base_url, cookies=dict(cookies), timeout=LIVE_TIMEOUT_S
        )
        self._live_shown: tuple[str, int] | None = None
        self._live_task: asyncio.Task | None = None
        self.live_asked = 0  # requests sent to the live route
        self.live_requests = 0  # answers of the live route
        self.live_reruns = 0  # fragment reruns the live route's answers asked for
        self.live_failures: list[str] = []

    async def open(self) -> None:
        """Connect and run the landing page once."""
        self._socket = await websockets.connect(
            self._url,
            subprotocols=["streamlit"],
            additional_headers={"Cookie": self._cookie},
            max_size=64 * 2**20,
        )
        self._reader = asyncio.create_task(self._read())
        await self.rerun()

    async def close(self) -> None:
        """Stop the timers and the socket."""
        for timer in self._timers.values():
            timer.cancel()
        if self._live_task is not None:
            self._live_task.cancel()
        if self._reader is not None:
            self._reader.cancel()
        if self._socket is not None:
            await self._socket.close()
        await self._http.aclose()

    # --- reading ---------------------------------------------------------------------------

    async def _read(self) -> None:
        async for raw in self._socket:
            message = ForwardMsg()
            message.ParseFromString(raw)
            self._take(message)

    def _take(self, message: ForwardMsg) -> None:
        kind = message.WhichOneof("type")
        if kind == "new_session":
            self.page_script_hash = message.new_session.page_script_hash
        elif kind == "navigation" and message.navigation.page_script_hash:
            # The page on show (st.navigation), which the browser names in every run it
            # asks for: a run of another page's hash starts that page afresh, its
            # elements' values gone (a component's callback could not read its own).
            self.page_script_hash = message.navigation.page_script_hash
        elif kind == "delta" and message.delta.WhichOneof("type") == "new_element":
            path = tuple(message.metadata.delta_path)
            element = message.delta.new_element
            self.elements[path] = element
            self._drawn_by[path] = message.delta.fragment_id
            if self._run is not None:
                self._run.elements[path] = element
                self._run.fragments.add(message.delta.fragment_id)
            if element.WhichOneof("type") == "bidi_component":
                self._live_element(element, message.delta.fragment_id)
                self._entry_element(element, message.delta.fragment_id)
            elif element.WhichOneof("type") == "dataframe":
                columns, rows = _frame_rows(element)
                if tuple(columns) == STANDINGS:
                    self._standings = rows
            widget_id = _widget_id(element)
            if widget_id is not None:
                self._widget_fragment[widget_id] = message.delta.fragment_id
            if widget_id is not None and widget_id not in self._touched:
                state = _default_state(element)
                if state is not None:
                    self._states[widget_id] = state
            self.drawn.set()
        elif kind == "script_finished" and self._run is not None:
            # A run cut short by st.rerun() is followed by the run that counts.
            if message.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
                if self._run.fragment_id:
                    self._drop_stale(self._run)
                self._run.finished.set()
        elif kind == "auto_rerun":
            interval, fragment = message.auto_rerun.interval, message.auto_rerun.fragment_id
            if fragment not in self._timers:
                self._timers[fragment] = asyncio.create_task(self._every(interval, fragment))

    def _live_element(self, element: Element, fragment_id: str) -> None:
        """A live component drawn: follow the version it was drawn at (a component drawn
        again with the same data keeps its request, as in the browser)."""
        component = element.bidi_component
        if not component.component_name.endswith(LIVE_COMPONENT):
            return
        data = json.loads(component.json)
        shown = (str(data["url"]), int(data["since"]))
        if shown == self._live_shown and self._live_task is not None:
            return
        if self._live_task is not None:
            self._live_task.cancel()
        self._live_shown = shown
        self._live_task = asyncio.create_task(self._follow(*shown, component.id, fragment_id))

    def _entry_element(self, element: Element, fragment_id: str) -> None:
        """The round entry drawn: keep its data."""
        component = element.bidi_component
        if not component.component_name.endswith(ENTRY_COMPONENT):
            return
        self.entry = EntryElement(component.id, fragment_id, json.loads(component.json))

    async def _follow(self, url: str, since: int, component_id: str, fragment_id: str) -> None:
        asked = 0
        while True:
            self.live_asked += 1
            try:
                answer = await self._http.get(f"{url}&since={since}")
            except httpx.HTTPError as error:
                self.live_failures.append(f"{type(error).__name__}: {error}")
                return
            self.live_requests += 1
            if answer.status_code != 200:
                self.live_failures.append(f"HTTP {answer.status_code}")
                return
            version = answer.json()["version"]
            if version == since:
                continue  # waited in vain: ask again
            asked += 1
            self.live_reruns += 1
            changed = _event(component_id, "changed", {"version": version, "asked": asked})
            await self._send_rerun(fragment_id=fragment_id, triggers=[changed], auto=False)
            await asyncio.sleep(LIVE_AGAIN_S)  # the rerun draws the component anew

    async def _every(self, interval: float, fragment_id: str) -> None:
        while True:
            await asyncio.sleep(interval)
            self.fragment_runs += 1
            await self._send_rerun(fragment_id=fragment_id)

    # --- asking for runs -------------------------------------------------------------------

    async def _send_rerun(
        self,
        fragment_id: str = "",
        pressed: str | None = None,
        triggers: list[WidgetState] | None = None,
        auto: bool = True,
    ) -> None:
        message = BackMsg()
        state = message.rerun_script
        state.page_script_hash = self.page_script_hash
        state.fragment_id = fragment_id
        state.is_auto_rerun = bool(fragment_id) and auto
        widgets = [*self._states.values(), *(triggers or ())]
        if pressed is not None:
            widgets.append(WidgetState(id=pressed, trigger_value=True))
        state.widget_states.widgets.extend(widgets)
        await self._socket.send(message.SerializeToString())

    async def rerun(self, pressed: str | None = None, timeout: float = 60) -> Run:
        """Run the page (with a button pressed, if named) and wait until the run finishes.

        A button drawn by a fragment reruns that fragment only, as in the browser: the
        rest of the page stays, and what the fragment drew before and not again goes.
        """
        fragment = self._widget_fragment.get(pressed, "") if pressed is not None else ""
        self._run = run = Run(fragment)
        if not fragment:
            self.elements, self._drawn_by = {}, {}
        await self._send_rerun(fragment_id=fragment, pressed=pressed, auto=False)
        await asyncio.wait_for(run.finished.wait(), timeout)
        return run

    def _drop_stale(self, run: Run) -> None:
        """After a fragment run: the elements its fragments drew before and not in it go."""
        fragments = run.fragments | {run.fragment_id}
        for path in [p for p, f in self._drawn_by.items() if f in fragments]:
            if path not in run.elements:
                self.elements.pop(path, None)
                del self._drawn_by[path]

    # --- widgets ---------------------------------------------------------------------------

    def widget(self, key: str) -> Element:
        """The newest element of the widget whose user key is ``key``, or ``key`` with the
        number of the entry on the form (``history_edit_hand_0-3``; see
        ``dutch_app/ui/entry_keys.py``)."""
        named = re.compile(rf"-{re.escape(key)}(-\d+)?$")
        found = [e for e in self.elements.values() if named.search(_widget_id(e) or "")]
        if not found:
            raise LookupError(f"no widget with key {key!r} on the page")
        return found[-1]

    def fill(self, key: str, text: str) -> None:
        """Type ``text`` into a text field, or choose the option ``text`` of a select."""
        element = self.widget(key)
        state = WidgetState(id=_widget_id(element), string_value=text)
        self._touched[state.id] = self._states[state.id] = state

    def choose(self, key: str, label: str) -> None:
        """Tap the option shown as ``label`` of the pills or segmented control ``key``."""
        element = self.widget(key)
        state = WidgetState(id=_widget_id(element))
        state.string_array_value.data.append(label)
        self._touched[state.id] = self._states[state.id] = state

    def button_id(self, label: str) -> str:
        """The id of the button (or form submit button) labelled ``label``."""
        for element in reversed(list(self.elements.values())):
            if element.WhichOneof("type") == "button" and element.button.label == label:
                return element.button.id
        raise LookupError(f"no button {label!r} on the page")

    async def save_round(
        self,
        hands: list[str],
        caller: str,
        call: str | None = None,
        penalty: str = "",
        timeout: float = 60,
    ) -> Run:
        """Tap Save on the Play page's round entry holding this round, as the element does,
        and wait until the run it asks for finishes (``caller`` and ``call`` as shown:
        "Ann", "Dutch"): the entry goes to the app's round route, and a round stored there
        is told to the page with the ``stored`` event, whose run draws the game (the
        standings follow, :meth:`standings`). Anything but a stored round is an error."""
        entry = self.entry
        if entry is None:
            raise LookupError("no round entry on the page")
        self._entry_sent += 1
        number = entry.data["number"]
        value = {
            "id": f"c{id(self):x}n{self._entry_sent}",
            "basis": number,
            "seq": self._entry_sent,
            "hands": list(hands),
            "caller": entry.option("callers", caller),
            "call": None if call is None else entry.option("calls", call),
            "penalty": penalty,
        }
        where = {"game": entry.data["game"], "round": number, "tab": entry.data["tab"]}
        answer = await self._http.post(entry.data["route"], json={**value, **where})
        outcome = answer.json() if answer.status_code == 200 else {"status": answer.status_code}
        if outcome.get("outcome") != "stored":
            raise RuntimeError(f"round {number} was not stored: {outcome}")
        told = {"id": value["id"], "number": outcome["number"]}
        self._run = run = Run(entry.fragment_id)
        stored = _event(entry.component_id, "stored", told)
        await self._send_rerun(entry.fragment_id, triggers=[stored], auto=False)
        await asyncio.wait_for(run.finished.wait(), timeout)
        return run

    def standings(self) -> list[tuple]:
        """The standings table as last drawn: (rank, player, total) rows."""
        return list(self._standings)

    async def wait_until(self, condition: Callable[[], bool], what: str, timeout: float) -> float:
        """Seconds until ``condition()`` holds, looked at whenever an element arrives
        (TimeoutError after ``timeout`` seconds, saying ``what`` did not happen)."""
        began = time.perf_counter()
        deadline = began + timeout
        while not condition():
            self.drawn.clear()
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"{what} did not happen within {timeout} s")
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.drawn.wait(), left)
        return time.perf_counter() - began

    def forget_typing(self) -> None:
        """After a form was submitted and cleared: take the fields' new values again."""
        self._touched.clear()

    def texts(self) -> list[str]:
        """Every heading, markdown, plain text and alert of the page, in page order."""
        found = []
        for _path, element in sorted(self.elements.items()):
            kind = element.WhichOneof("type")
            if kind in ("heading", "markdown"):
                found.append(getattr(element, kind).body)
            elif kind == "text":
                found.append(element.text.body)
            elif kind == "alert":
                found.append(element.alert.body)
        return found

    async def wait_for_text(self, text: str, timeout: float) -> float:
        """Seconds until some heading or text of the page contains ``text``."""
        try:
            return await self.wait_until(
                lambda: any(text in shown for shown in self.texts()), f"{text!r}", timeout
            )
        except TimeoutError as error:
            shown = " | ".join(self.texts())[-600:]
            raise TimeoutError(f"{error}; the page: {shown}") from None
