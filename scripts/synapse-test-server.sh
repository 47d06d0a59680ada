#!/usr/bin/env bash
# Start a throwaway Synapse on 127.0.0.1:$SYN_PORT (SQLite, open registration,
# no rate limits) and register test users (password pw-<name>).
# Stop it with: kill "$(cat "$SYN_DIR/synapse.pid")"
# The Matrix whole-system test (tests/tests/system/matrix.rs) runs this itself.
# SYN_VENV: where Synapse is installed (reused between runs; installing
# takes about 40 s, starting about 3 s). SYN_DIR: this server's data.
set -euo pipefail
D=${SYN_DIR:-${TMPDIR:-/tmp}/synapse-ci}; PORT=${SYN_PORT:-8008}; URL=http://127.0.0.1:$PORT
V=${SYN_VENV:-$D/venv}
t() { echo "[synapse] $1: $(( $(date +%s%N) / 1000000 - T0 )) ms"; }; T0=$(( $(date +%s%N) / 1000000 ))
mkdir -p "$D"
if ! "$V/bin/python" -c 'import synapse' 2>/dev/null; then
  mkdir -p "$(dirname "$V")"
  # a lock, so parallel runs do not install into one venv at once
  exec 9>"$V.lock"; flock 9
  if ! "$V/bin/python" -c 'import synapse' 2>/dev/null; then
    rm -rf "$V"; python3 -m venv "$V"
    "$V/bin/pip" install -q --disable-pip-version-check 'matrix-synapse==1.163.2'
  fi
  flock -u 9
fi; t "install"
rm -rf "$D/data"; mkdir -p "$D/data"
cat > "$D/data/homeserver.yaml" <<EOF
server_name: localhost
public_baseurl: $URL/
listeners:
  - {port: $PORT, bind_addresses: ['127.0.0.1'], type: http, tls: false,
     resources: [{names: [client], compress: false}]}
database: {name: sqlite3, args: {database: $D/data/homeserver.db}}
media_store_path: $D/data/media
signing_key_path: $D/data/signing.key
report_stats: false
macaroon_secret_key: ci-macaroon
form_secret: ci-form
registration_shared_secret: ci-shared-secret
enable_registration: true
enable_registration_without_verification: true
bcrypt_rounds: 4
trusted_key_servers: []
suppress_key_server_warning: true
presence: {enabled: false}
rc_message: &rl {per_second: 10000, burst_count: 10000}
rc_registration: *rl
rc_login: {address: *rl, account: *rl, failed_attempts: *rl}
rc_joins: {local: *rl, remote: *rl}
rc_joins_per_room: *rl
rc_invites: {per_room: *rl, per_user: *rl, per_issuer: *rl}
rc_room_creation: *rl
rc_3pid_validation: *rl
rc_admin_redaction: *rl
rc_key_requests: *rl
rc_delayed_event_mgmt: *rl
rc_reports: *rl
rc_user_directory: *rl
rc_profile: *rl
rc_media_create: *rl
rc_presence: {per_user: *rl}
EOF
echo "ed25519 a_ci $(head -c32 /dev/urandom | base64 | tr -d =)" > "$D/data/signing.key"
"$V/bin/python" -m synapse.app.homeserver -c "$D/data/homeserver.yaml" \
  > "$D/data/synapse.log" 2>&1 < /dev/null & echo $! > "$D/synapse.pid"
for _ in $(seq 300); do curl -sf "$URL/_matrix/client/versions" >/dev/null && break; sleep 0.1; done
curl -sf "$URL/_matrix/client/versions" >/dev/null || { tail -50 "$D/data/synapse.log"; exit 1; }; t "started"
for u in ${SYN_USERS:-bot alice bob carol dave}; do
  "$V/bin/register_new_matrix_user" -c "$D/data/homeserver.yaml" -u "$u" -p "pw-$u" \
    "$([ "$u" = bot ] && echo --admin || echo --no-admin)" "$URL" >/dev/null
done; t "registered users (password pw-<name>)"
