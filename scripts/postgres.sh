#!/usr/bin/env bash
# Start the local PostgreSQL cluster if it is down, make sure the test login
# role and its database exist (safe to repeat), and print their SQLAlchemy URL.
#   export DUTCH_TEST_POSTGRES_URL="$(scripts/postgres.sh)"
set -euo pipefail

role=dutch_test
password=dutch_test
database=dutch_test

# First cluster listed by pg_lsclusters: version, name, port, status.
read -r version cluster port status _ < <(pg_lsclusters --no-header | head -n 1) || true
if [[ -z "${version:-}" ]]; then
    echo "No PostgreSQL cluster found; creating one." >&2
    version="$(ls /usr/lib/postgresql | sort -V | tail -n 1)"
    cluster=main
    pg_createcluster "$version" "$cluster" >/dev/null
    read -r version cluster port status _ < <(pg_lsclusters --no-header | head -n 1)
fi
if [[ "$status" != online* ]]; then
    echo "Starting PostgreSQL $version/$cluster on port $port." >&2
    pg_ctlcluster "$version" "$cluster" start
fi
for _ in $(seq 1 60); do
    pg_isready -q -h 127.0.0.1 -p "$port" && break
    sleep 0.5
done
pg_isready -q -h 127.0.0.1 -p "$port" || {
    echo "PostgreSQL did not accept connections on 127.0.0.1:$port." >&2
    exit 1
}

# psql as the postgres superuser (peer authentication); idempotent statements.
(cd / && runuser -u postgres -- psql -q -X -v ON_ERROR_STOP=1 -p "$port" -d postgres) >/dev/null <<SQL
SELECT format('CREATE ROLE %I', '$role')
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$role')\gexec
ALTER ROLE $role LOGIN CREATEDB PASSWORD '$password';
SELECT format('CREATE DATABASE %I OWNER %I', '$database', '$role')
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$database')\gexec
SQL

echo "postgresql+psycopg://$role:$password@127.0.0.1:$port/$database"
