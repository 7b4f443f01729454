#!/usr/bin/env bash
# Start the local PostgreSQL cluster if it is down, make sure the test login
# role and its database exist (safe to repeat), and print their SQLAlchemy URL.
#   export DUTCH_TEST_POSTGRES_URL="$(scripts/postgres.sh)"
# DUTCH_PG_CLUSTER=VERSION/NAME picks a cluster when the machine has several.
set -euo pipefail

# Only the URL goes to standard output (callers capture it); everything the
# server tools print, such as pg_ctlcluster's "Removed stale pid file.", goes
# to standard error.
exec 3>&1 1>&2

role=dutch_test
password=dutch_test
database=dutch_test

# The cluster to use: DUTCH_PG_CLUSTER (e.g. 15/main), else one named main, else the first.
find_cluster() {
    if [[ -n "${DUTCH_PG_CLUSTER:-}" ]]; then
        pg_lsclusters --no-header | awk -v want="$DUTCH_PG_CLUSTER" '$1 "/" $2 == want'
    else
        pg_lsclusters --no-header | sort -k2,2 -k1,1Vr \
            | awk '{ if ($2 == "main") { print; found = 1; exit } else if (!first) first = $0 }
                   END { if (!found && first) print first }'
    fi
}
read -r version cluster port status _ < <(find_cluster) || true
if [[ -z "${version:-}" ]]; then
    if [[ -n "${DUTCH_PG_CLUSTER:-}" ]]; then
        echo "No PostgreSQL cluster $DUTCH_PG_CLUSTER." >&2
        exit 1
    fi
    echo "No PostgreSQL cluster found; creating one." >&2
    version="$(ls /usr/lib/postgresql | sort -V | tail -n 1)"
    pg_createcluster "$version" main >/dev/null 3>&-
    read -r version cluster port status _ < <(find_cluster)
fi
if [[ "$status" != online* ]]; then
    echo "Starting PostgreSQL $version/$cluster on port $port." >&2
    pg_ctlcluster "$version" "$cluster" start 3>&-
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
-- The test role's commits do not wait for the disk: what the tests check (what is stored,
-- what a reader sees, who waits for whose lock) is the same, and only a crash of the server
-- itself could lose the last of them. The other roles of the cluster are left as they are.
ALTER ROLE $role SET synchronous_commit = off;
SELECT format('CREATE DATABASE %I OWNER %I', '$database', '$role')
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = '$database')\gexec
SQL

echo "postgresql+psycopg://$role:$password@127.0.0.1:$port/$database" >&3
