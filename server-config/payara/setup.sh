#!/usr/bin/env bash
# Sets Muster up on a running Payara Server 6 domain: file-realm users for the three roles, the WAR deployed at
# /eureka, and settings as web context parameters.
#
#   ASADMIN=/opt/payara6/bin/asadmin PEER_PASSWORD=... ADMIN_PASSWORD=... \
#     server-config/payara/setup.sh /path/to/eureka.war [asadmin options, e.g. --port 4848]
#
# Optional: CLIENT_USERS (eureka-client users, one per service: "orders:secret1,billing:secret2"; each is also
# in the group eureka-app-<NAME>, upper case, which lets it write that application when APP_OWNERSHIP=true; give
# the application after a second colon when it is named otherwise: "orders-svc:secret1:ORDERS"),
# CLIENT_PASSWORD (one shared eureka-client user named client), PEERS (the other nodes' URLs with the peer
# credentials, comma-separated), CLIENT_AUTH=true, APP_OWNERSHIP=true (each client writes only its own
# application). Re-running it is safe: existing users are kept.
#
# Lock-out: Payara's file realm has no lock-out (its only properties are file, jaas-context and assign-groups),
# so wrong passwords from anyone never lock a client or peer out, whatever user they name. Use long random
# passwords (openssl rand -base64 24): nothing slows down guessing either.
set -euo pipefail
war="${1:?usage: setup.sh path/to/eureka.war [asadmin options]}"
shift
asadmin="${ASADMIN:-asadmin}"
pwfile="$(mktemp)"
trap 'rm -f "$pwfile"' EXIT

user() {   # user NAME GROUP PASSWORD
  printf 'AS_ADMIN_USERPASSWORD=%s\n' "$3" > "$pwfile"
  local out
  # --passwordfile is an asadmin option, so it goes before the subcommand
  if ! out=$("$asadmin" "${opts[@]}" --passwordfile "$pwfile" create-file-user --groups "$2" "$1" 2>&1); then
    case "$out" in
      *"already exists"*) echo "user $1 exists already (kept)" ;;
      *) echo "$out" >&2; exit 1 ;;
    esac
  fi
}
opts=("$@")
user peer eureka-peer "${PEER_PASSWORD:?set PEER_PASSWORD}"
user admin eureka-admin "${ADMIN_PASSWORD:?set ADMIN_PASSWORD}"
if [ -n "${CLIENT_PASSWORD:-}" ]; then
  user client eureka-client "$CLIENT_PASSWORD"
fi
if [ -n "${CLIENT_USERS:-}" ]; then
  IFS=',' read -ra clients <<< "$CLIENT_USERS"
  for entry in "${clients[@]}"; do
    name="${entry%%:*}"
    rest="${entry#*:}"
    app="$name"
    if [ "${rest#*:}" != "$rest" ]; then
      app="${rest#*:}"
      rest="${rest%%:*}"
    fi
    user "$name" "eureka-client:eureka-app-${app^^}" "$rest"
  done
fi

# A fixed socket write buffer bounds Grizzly's write queue at four buffers per connection: with Payara's default
# (none), a client that never reads makes the server queue its whole answer (megabytes) in the heap.
"$asadmin" "${opts[@]}" set \
    configs.config.server-config.network-config.transports.transport.tcp.socket-write-buffer-size=262144 \
  || echo "WARNING: could not set the tcp transport's socket-write-buffer-size; slow readers will cost heap" >&2

"$asadmin" "${opts[@]}" deploy --force=true --name eureka --contextroot eureka "$war"

param() {   # param NAME VALUE
  "$asadmin" "${opts[@]}" set-web-context-param --name="$1" --value="$2" eureka
}
if [ -n "${PEERS:-}" ]; then
  param eureka.client.serviceUrl.defaultZone "$PEERS"
fi
param eureka.server.clientAuthRequired "${CLIENT_AUTH:-false}"
param eureka.server.appOwnership "${APP_OWNERSHIP:-false}"
# context parameters are read at start: restart the application once
"$asadmin" "${opts[@]}" disable eureka
"$asadmin" "${opts[@]}" enable eureka
echo "Muster deployed at /eureka"
