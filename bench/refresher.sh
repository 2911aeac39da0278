#!/usr/bin/env bash
# What the response-cache refresher (the muster-fresh thread) costs under the churn scenario of bench/compare.sh:
# one fresh Tomcat with WAR, the same warm-up, then two 30 s mixed rounds (10,000 instances in 500 apps renewing
# every 3 s, 100 delta pollers every 3 s, 100 re-registrations a second), printing for each the CPU of the
# muster-fresh thread and of the whole process (from /proc, in ms) and the load tool's server CPU per request.
#
#   bench/refresher.sh [WAR] [PORT]      # default target/eureka.war 18960; about 2 minutes
#   APPS=10 bench/refresher.sh           # the same 10,000 instances in ten applications of 1,000
#   EXTRA_OPTS="-Dx=y" bench/refresher.sh   # more JVM options for the node
#
# To compare two builds, run it once per WAR, one after the other (never at the same time on two cores).
# Only the Tomcat started here is stopped, by its PID. Loopback only.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# shellcheck source=bench/tomcat.sh
. bench/tomcat.sh
war="${1:-target/eureka.war}"
port="${2:-18960}"
apps="${APPS:-500}"   # APPS=10: the same 10,000 instances in ten applications of 1,000
HEAP="-Xms256m -Xmx1g" MUSTER_OPTS="-Deureka.server.maxClientHeapPercent=100 -Deureka.server.largeWrites.maxOpenPerClient=1000 ${EXTRA_OPTS:-}" \
  tomcat_start "$war" "$port" "$root/target/bench/refresher-tomcat"
trap 'kill "$tomcat_pid" 2>/dev/null; wait "$tomcat_pid" 2>/dev/null || true' EXIT
lt() { java bench/LoadTool.java "$@" --ids spring --url "http://127.0.0.1:$port/eureka/" --pid "$tomcat_pid" 2>/dev/null | sed -n 's/^RESULT //p'; }
mixed() { lt mixed --instances 10000 --apps "$apps" --renew-every 3 --fetchers 100 --fetch-every 3 --churn 100 --concurrency 16 "$@"; }
# CPU ticks (1/100 s) of the threads named $1, or of the whole process without an argument
ticks() {
  if [ $# -eq 0 ]; then awk '{ print $14 + $15 }' "/proc/$tomcat_pid/stat"; return; fi
  local sum=0 t
  for t in /proc/"$tomcat_pid"/task/*; do
    [ "$(cat "$t/comm" 2>/dev/null)" = "$1" ] && sum=$(( sum + $(awk '{ print $14 + $15 }' "$t/stat") ))
  done
  echo "$sum"
}
for _ in 1 2 3; do lt register --instances 10000 --apps "$apps" --concurrency 16 > /dev/null; done
lt fetch --kind delta --seconds 5 --concurrency 4 > /dev/null
mixed --seconds 20 > /dev/null
# the response cache's builds so far and their seconds, from /metrics (a reader's build counts too)
builds() {
  curl -s "http://127.0.0.1:$port/eureka/metrics" | awk '/^muster_response_cache_builds_total/ { b = $2 }
    /^muster_response_cache_build_seconds_total/ { s = $2 } END { printf "%d %.3f\n", b, s }'
}
for round in 1 2; do
  f0=$(ticks muster-fresh); p0=$(ticks); read -r b0 s0 <<< "$(builds)"
  result=$(mixed --seconds 30)
  f1=$(ticks muster-fresh); p1=$(ticks); read -r b1 s1 <<< "$(builds)"
  echo "$(basename "$war") round $round: refresher $(( (f1 - f0) * 10 )) ms, process $(( (p1 - p0) * 10 )) ms," \
    "server CPU $(echo "$result" | sed -n 's/.*"mixed_server_cpu_us_per_request":\([0-9.]*\).*/\1/p') µs per request," \
    "$((b1 - b0)) builds in $(echo "($s1 - $s0) * 1000" | bc | xargs printf '%.0f') ms"
done
