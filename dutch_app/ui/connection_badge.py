"""An "Offline" badge for a page followed live (the table view): shown while the browser has
no network, so nobody at the table takes a still screen for the latest standings. (The Play
page's entry shows the same badge, with the rounds waiting on the phone.)"""

from __future__ import annotations

import streamlit as st

from dutch_app.i18n import _

_JS = """
export default function ({ parentElement, data }) {
  let badge = parentElement.querySelector(".dutch-offline-badge");
  if (!badge) {
    badge = document.createElement("span");
    badge.className = "dutch-offline-badge";
    badge.setAttribute("role", "status");
    parentElement.appendChild(badge);
    const show = () => { badge.hidden = navigator.onLine !== false; };
    window.addEventListener("online", show);
    window.addEventListener("offline", show);
  }
  badge.textContent = data.text;
  badge.hidden = navigator.onLine !== false;
}
"""

_CSS = """
.dutch-offline-badge {
  display: inline-block;
  padding: 0.125rem 0.5rem;
  font-size: 0.875rem;
  font-weight: 600;
  border: 1px solid currentColor;
  border-radius: 999px;
}
.dutch-offline-badge[hidden] { display: none; }
"""

_badge = st.components.v2.component("dutch_connection", js=_JS, css=_CSS, isolate_styles=False)


def connection_badge() -> None:
    """The badge, where the page draws it (nothing shows while the browser is online)."""
    _badge(key="connection_badge", data={"text": _("Offline")})
