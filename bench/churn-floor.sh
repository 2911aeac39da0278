#!/usr/bin/env bash
# What the churn mix costs a web application that does nothing (bench/canned), and how much of that is the delta's
# bytes: one fresh Tomcat with Muster's WAR and two copies of bench/canned, one serving the gzip delta Muster served
# after a 30 s churn round (about 550 KB at 10,000 instances), the other an empty delta (85 bytes). Then the churn
# mix of bench/compare.sh (10,000 instances renewing every 3 s, 100 delta pollers every 3 s, 100 re-registrations a
# second, 30 s) on each, alternating, ROUNDS times; prints server CPU per request for each round.
#
#   bench/churn-floor.sh [WAR] [PORT]     # default target/eureka.war 18970; about 6 minutes
#
# Only the Tomcat started here is stopped, by its PID. Loopback only.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# shellcheck source=bench/tomcat.sh
. bench/tomcat.sh
war="${1:-target/eureka.war}"
port="${2:-18970}"
CANNED=1 HEAP="-Xms256m -Xmx1g" tomcat_start "$war" "$port" "$root/target/bench/churn-floor-tomcat"
trap 'kill "$tomcat_pid" 2>/dev/null; wait "$tomcat_pid" 2>/dev/null || true' EXIT
apps="$tomcat_base/webapps"
cp -r "$apps/canned" "$apps/canned-empty"   # deployed by Tomcat's autoDeploy; reads its delta at its first fetch
printf '{"applications":{"versions__delta":"1","apps__hashcode":"UP_1_","application":[]}}' \
  | gzip > "$apps/canned-empty/WEB-INF/delta.json.gz"
lt() { java bench/LoadTool.java "$@" --ids spring --pid "$tomcat_pid" 2>/dev/null | sed -n 's/^RESULT //p'; }
cpu() { sed -n "s/.*\"$1_server_cpu_us_per_request\":\([0-9.]*\).*/\1/p"; }
churn=(--instances 10000 --apps 500 --renew-every 3 --fetchers 100 --fetch-every 3 --churn 100 --seconds 30 --concurrency 16)
for _ in 1 2 3 4 5 6; do lt register --instances 10000 --apps 500 --concurrency 16 --url "http://127.0.0.1:$port/eureka/" > /dev/null; done
echo "Muster, first churn round (warm-up): $(lt mixed "${churn[@]}" --url "http://127.0.0.1:$port/eureka/" | cpu mixed) µs per request"
curl -sf -H 'Accept: application/json' -H 'Accept-Encoding: gzip' "http://127.0.0.1:$port/eureka/apps/delta" \
  -o "$apps/canned/WEB-INF/delta.json.gz"
for _ in $(seq 1 60); do   # Tomcat's autoDeploy looks for new applications every 10 s
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/canned-empty/apps/delta")" = 200 ] && break
  sleep 1
done
echo "deltas: Muster's $(stat -c %s "$apps/canned/WEB-INF/delta.json.gz") bytes, empty $(stat -c %s "$apps/canned-empty/WEB-INF/delta.json.gz") bytes"
for round in $(seq "${ROUNDS:-3}"); do
  for app in canned canned-empty; do
    echo "$app round $round: $(lt mixed "${churn[@]}" --no-setup --label floor --url "http://127.0.0.1:$port/$app/" | cpu floor) µs per request"
  done
done
