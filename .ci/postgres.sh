#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests and benchmarks: Debian's postgresql package, a data
# directory under /tmp, listening on 127.0.0.1 only, with a role and a database for joseki.
#
#   .ci/postgres.sh          install (if needed) and start the server, or reuse the running one;
#                            prints the SQLAlchemy URL on the last line of stdout
#   .ci/postgres.sh url      print the URL only
#   .ci/postgres.sh stop     stop the server (the data directory stays, for a quick restart)
#   .ci/postgres.sh destroy  stop the server and delete its data directory
#
# Settings (environment): JOSEKI_PG_PORT (54329), JOSEKI_PG_DATA (/tmp/joseki-pg-$PORT),
# JOSEKI_PG_USER / JOSEKI_PG_PASSWORD / JOSEKI_PG_DB (joseki / joseki / joseki), and
# JOSEKI_PG_DURABLE=1 to keep fsync on (by default a test server trades durability for speed:
# fsync, synchronous_commit and full_page_writes off). Runs the server as the `postgres` user when
# started as root (as CI is), else as the calling user. Progress goes to stderr.
set -euo pipefail

PORT="${JOSEKI_PG_PORT:-54329}"
DATA="${JOSEKI_PG_DATA:-/tmp/joseki-pg-$PORT}"
ROLE="${JOSEKI_PG_USER:-joseki}"
PASSWORD="${JOSEKI_PG_PASSWORD:-joseki}"
DB="${JOSEKI_PG_DB:-joseki}"
DURABLE="${JOSEKI_PG_DURABLE:-0}"
URL="postgresql+psycopg://$ROLE:$PASSWORD@127.0.0.1:$PORT/$DB"

say() { echo "postgres.sh: $*" >&2; }

if [ "${1:-}" = "url" ]; then
  echo "$URL"
  exit 0
fi

bindir() {
  local found
  found="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"
  if [ -n "$found" ] && [ -x "$found/pg_ctl" ] && [ -x "$found/initdb" ]; then
    echo "$found"
  fi
}

BIN="$(bindir)"
if [ -z "$BIN" ]; then
  if [ "$(id -u)" -ne 0 ]; then
    say "PostgreSQL is not installed and this is not root: apt-get install -y postgresql"
    exit 1
  fi
  say "installing Debian's postgresql package"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  BIN="$(bindir)"
  [ -n "$BIN" ] || { say "no PostgreSQL binaries under /usr/lib/postgresql after installing"; exit 1; }
fi

if [ "$(id -u)" -eq 0 ]; then
  OWNER=postgres
  as_owner() { runuser -u postgres -- "$@"; }
else
  OWNER="$(id -un)"
  as_owner() { "$@"; }
fi

# the superuser, over the Unix socket in the data directory (trusted; TCP needs the password)
psql_super() { as_owner "$BIN/psql" -h "$DATA" -p "$PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA "$@"; }

running() { "$BIN/pg_isready" -q -h 127.0.0.1 -p "$PORT" >/dev/null 2>&1; }

case "${1:-}" in
  stop|destroy)
    if [ -f "$DATA/PG_VERSION" ] && running; then
      as_owner "$BIN/pg_ctl" -D "$DATA" -m fast -w stop >&2
    fi
    if [ "$1" = destroy ]; then
      rm -rf "$DATA"
    fi
    exit 0
    ;;
  "") ;;
  *) say "unknown command $1 (expected nothing, url, stop or destroy)"; exit 2 ;;
esac

if running; then
  say "reusing the server on 127.0.0.1:$PORT"
else
  if [ ! -f "$DATA/PG_VERSION" ]; then
    say "initdb $DATA ($("$BIN/postgres" --version))"
    rm -rf "$DATA"
    mkdir -p "$DATA"
    chown "$OWNER" "$DATA"
    chmod 700 "$DATA"
    as_owner "$BIN/initdb" -D "$DATA" -U postgres -E UTF8 --no-locale \
      --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    {
      echo "# joseki test server (.ci/postgres.sh)"
      echo "listen_addresses = '127.0.0.1'"
      echo "port = $PORT"
      echo "unix_socket_directories = '$DATA'"
      echo "max_connections = 200"
      echo "shared_buffers = 256MB"
      echo "logging_collector = off"
      if [ "$DURABLE" != 1 ]; then
        echo "fsync = off"
        echo "synchronous_commit = off"
        echo "full_page_writes = off"
      fi
    } | as_owner tee -a "$DATA/postgresql.conf" >/dev/null
  fi
  say "starting the server on 127.0.0.1:$PORT (log: $DATA/server.log)"
  as_owner "$BIN/pg_ctl" -D "$DATA" -l "$DATA/server.log" -w -t 60 start >/dev/null
fi

if [ -z "$(psql_super -c "SELECT 1 FROM pg_roles WHERE rolname = '$ROLE'")" ]; then
  psql_super -c "CREATE ROLE \"$ROLE\" LOGIN CREATEDB PASSWORD '$PASSWORD'"
  # the test role may end any session on this throwaway server (DROP DATABASE ... WITH (FORCE) meets autovacuum)
  psql_super -c "ALTER ROLE \"$ROLE\" SUPERUSER" >/dev/null
fi
if [ -z "$(psql_super -c "SELECT 1 FROM pg_database WHERE datname = '$DB'")" ]; then
  psql_super -c "CREATE DATABASE \"$DB\" OWNER \"$ROLE\""
fi
echo "$URL"
