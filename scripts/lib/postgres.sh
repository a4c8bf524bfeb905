# Starts a throwaway PostgreSQL cluster from Debian's binaries on a free loopback port, and
# removes it when the calling script exits. Source this file, then call start_postgres.
# Sets PG_URL (a database "guesswork_test") and PG_ADMIN_URL.
start_postgres() {
  local pg_bin pg_port
  pg_bin=$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -n 1)")
  PG_DIR=$(mktemp -d /tmp/guesswork-pg.XXXXXX)
  pg_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  chmod 755 "$PG_DIR"
  # initdb refuses to run as root: run the cluster as the postgres user then.
  if [ "$(id -u)" = 0 ]; then chown postgres "$PG_DIR"; PG_AS=(runuser -u postgres --); else PG_AS=(); fi
  PG_BIN=$pg_bin
  trap stop_postgres EXIT
  "${PG_AS[@]}" "$pg_bin/initdb" -D "$PG_DIR/data" -A trust -U postgres >/dev/null
  "${PG_AS[@]}" "$pg_bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
    -o "-p $pg_port -k $PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" \
    start >/dev/null
  "$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres guesswork_test
  PG_URL="postgres://postgres@127.0.0.1:$pg_port/guesswork_test"
  PG_ADMIN_URL="postgres://postgres@127.0.0.1:$pg_port/postgres"
  echo "PostgreSQL on 127.0.0.1:$pg_port ($PG_DIR)"
}

stop_postgres() {
  [ -n "${PG_DIR:-}" ] || return 0
  "${PG_AS[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
}
