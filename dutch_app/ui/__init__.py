"""Shared Streamlit pieces: the error guard, session state, cached reads and forms."""
