"""The live component's own logic (dutch_app/ui/live_push.js), run in Node.js the way
Streamlit's browser code calls it, against a long poll the check answers by hand.

The browser journeys in tests/e2e/test_live_table.py show the whole path works; these
pin down the cases a browser run meets only by chance: a redraw overtaken by another,
a trigger whose rerun never came.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

CHECK = Path(__file__).with_name("live_push_check.mjs")
#: A change shows on every open page within 3 s; the watcher may take 1 s to see it.
PROMISE_MS = 3_000
WATCHER_MS = 1_000


def run(case: str) -> dict:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI") == "true":
            pytest.fail("Node.js is missing (make test installs it with the Firebase CLI)")
        pytest.skip("Node.js is not installed")
    done = subprocess.run(
        [node, str(CHECK), case], capture_output=True, text=True, timeout=30, check=False
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_redraw_overtaken_by_another_leaves_the_page_following():
    report = run("overtaken_redraw")
    waiting = [r for r in report["requests"] if not r["aborted"]]
    assert len(waiting) == 1, report  # exactly one long poll stays open
    assert [t["name"] for t in report["triggers"]] == ["changed"], report
    # the rerun goes through the latest redraw's hooks
    assert report["triggers"][0]["by"] == "latest"
    assert report["triggers"][0]["value"]["version"] == 6


def test_an_element_taken_off_the_page_stops_asking():
    report = run("removed")
    assert report["requests"] == [{"since": 5, "aborted": True}]
    assert report["triggers"] == []


def test_a_rerun_that_never_came_is_asked_for_again_within_the_promise():
    report = run("lost_rerun")
    changed = [t for t in report["triggers"] if t["name"] == "changed"]
    assert len(changed) == 2, report
    assert [t["value"]["asked"] for t in changed] == [1, 2]  # a new value, so it fires again
    assert report["requests"][1]["since"] == 5
    # the watcher's second, the lost rerun, the second one's trip: still within the promise
    assert report["measured"]["askedAgainMs"] + WATCHER_MS + 500 <= PROMISE_MS, report


def test_a_redraw_at_the_new_version_waits_from_there():
    report = run("redrawn_at_new_version")
    assert report["requests"][0] == {"since": 5, "aborted": False}
    assert report["requests"][1:] == [{"since": 6, "aborted": False}], report
    assert [t["name"] for t in report["triggers"]] == ["changed"]


def test_a_refused_wait_tells_the_page_once_and_stops():
    report = run("refused")
    assert [t["name"] for t in report["triggers"]] == ["offline"]
    assert report["triggers"][0]["value"] == 404
    assert len(report["requests"]) == 1


def test_a_page_drawn_before_its_session_cookie_was_stored_asks_again_and_follows():
    report = run("signed_in_late")
    assert len(report["requests"]) == 2, report  # refused, then answered
    assert [t["name"] for t in report["triggers"]] == ["changed"], report
    assert report["triggers"][0]["value"]["version"] == 6


def test_a_page_that_stays_without_a_session_tells_the_page_after_three_tries():
    report = run("never_signed_in")
    assert len(report["requests"]) == 3, report
    assert [t["name"] for t in report["triggers"]] == ["offline"], report
    assert report["triggers"][0]["value"] == 401
