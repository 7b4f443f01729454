"""Dutch Scorer's web server: start it with ``streamlit run serve.py``.

``app.py`` is the Streamlit script (the router); this file wraps it in Streamlit's web
server with the app's own routes (the session cookie, and the live route open pages
wait on for a change of their game, the one the Play page stores a round through) and
security headers. Starting
``streamlit run app.py`` instead would serve the pages without them: nobody would stay
signed in across a reload, and the app would say so.
"""

import streamlit as st
from streamlit import config

from dutch_app import web
from dutch_app.ui.context import resources

live = web.LiveRoute(resources)
round_route = web.RoundRoute(resources)
app = st.App(
    "app.py",
    routes=web.routes(config.get_option("server.baseUrlPath"), live, round_route),
    middleware=web.middleware(),
    lifespan=web.lifespan(live),
)
