"""SQL storage: the engine, the typed ORM models and the migrations."""
