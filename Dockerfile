# The Dutch Scorer app server: one `streamlit run serve.py`, configured by environment
# variables or a mounted secrets file (docs/hosting.md, "A container per server").
#
#   docker build -t dutch-scorer .
#   docker run -p 8501:8501 -e DUTCH_DATABASE_URL=... -e DUTCH_SECRET_KEY=... dutch-scorer
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# The picture of a game's result is drawn on the server (dutch_app/share_image.py) and
# needs a font; the slim image has none.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

# The pinned runtime packages only (no test tools), in a layer of their own so that a
# change to the code does not reinstall them.
COPY requirements.txt .
RUN pip install --no-input -r requirements.txt

COPY app.py serve.py alembic.ini ./
COPY .streamlit/config.toml .streamlit/config.toml
COPY pages pages
COPY dutch_core dutch_core
COPY dutch_app dutch_app
# The Rules and Privacy pages read their English text from docs/ (translations are in
# dutch_app/locale/); the message catalogues are compiled here, as `make run` does.
COPY docs/rules.md docs/privacy.md docs/
RUN python -m dutch_app.catalogues compile

# Nothing runs as root; data/ (the SQLite file and local key, for a one-machine set-up)
# belongs to the app's own user and nobody else.
RUN useradd --system --uid 10001 --home-dir /app dutch \
    && mkdir -p data && chown dutch:dutch data && chmod 700 data
USER dutch

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s CMD python -c "import urllib.request as u; u.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4)"
CMD ["python", "-m", "streamlit", "run", "serve.py", "--server.port=8501", "--server.address=0.0.0.0", "--server.headless=true", "--browser.gatherUsageStats=false"]
