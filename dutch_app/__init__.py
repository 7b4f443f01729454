"""The shell around the scoring core: storage, services, accounts, charts, CSV and UI helpers."""
