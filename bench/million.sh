#!/usr/bin/env bash
# A million instances on one node (issue 28): Muster's WAR on a real Tomcat 10.1 with a 4 GB heap, at default settings
# apart from the per-address shares (every request comes from this one machine), measured step by step:
#   registration of N instances (Spring Cloud bodies, N/20 apps), the wait until the full registry served lists them
#   all, heap after a full GC, heartbeats (flat out, and paced at RATE a second), gzip full and delta fetches, a second
#   node's start-up sync of all N from the first, and the first node's snapshot: a clean stop (SIGTERM writes it) and
#   a restart that restores it.
#
#   bench/million.sh                          # about 12 minutes; target/bench/million.md
#   INSTANCES=200000 bench/million.sh         # a smaller run (HEAP="-Xms1g -Xmx1g" for the default heap)
#
# Only the processes this script starts are stopped, by their PIDs. Loopback only.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# shellcheck source=bench/tomcat.sh
. bench/tomcat.sh
n="${INSTANCES:-1000000}"
apps="${APPS:-$((n / 20))}"
port="${BASE_PORT:-18951}"   # not PORT: the nodes would take it for their own port
port2=$((port + 1))
heap="${HEAP:--Xms4g -Xmx4g}"
rate="${RATE:-5000}"
opts="-Deureka.server.maxClientHeapPercent=100 -Deureka.server.largeWrites.maxOpenPerClient=1000"
out="$root/target/bench"
base="$out/million-1"
base2="$out/million-2"
report="$out/million.md"
url="http://127.0.0.1:$port/eureka/"
mkdir -p "$out"
[ -f target/eureka.war ] || mvn -q -B -DskipTests package
pid=""
pid2=""
trap 'kill $pid $pid2 2>/dev/null || true' EXIT

hashcode() {   # the apps__hashcode of the full registry a node serves (read from the start of the gzip body)
  curl -s -H 'Accept: application/json' -H 'Accept-Encoding: gzip' "$1apps/" | gunzip -c 2> /dev/null | head -c 300 \
    | sed -n 's/.*"apps__hashcode":"\([^"]*\)".*/\1/p'
}
wait_listed() {   # seconds until the node at URL $1 serves a full registry of all n instances (bounded: 600 s)
  local t0=$SECONDS
  # at least n UP (a node with peers also lists itself)
  while [ "$(hashcode "$1" | sed -n 's/.*UP_\([0-9]*\)_.*/\1/p')" -lt "$n" ] 2> /dev/null \
      || [ -z "$(hashcode "$1" | sed -n 's/.*UP_\([0-9]*\)_.*/\1/p')" ]; do
    [ $((SECONDS - t0)) -lt 600 ] || { echo "not all $n listed by $1 within 600 s" >&2; return 1; }
    sleep 1
  done
  echo $((SECONDS - t0))
}
ready_in() {   # seconds (0.1 s resolution) until $1health/ready answers 200
  local t0 i
  t0=$(date +%s.%N)
  for i in $(seq 1 3000); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$1health/ready")" = 200 ] && break
    sleep 0.1
  done
  echo "$(date +%s.%N) - $t0" | bc | xargs printf '%.1f'
}

{ echo "# $n instances on one node, Tomcat, heap $heap ($(date -u +%F))"; echo; echo "| step | figure |"
  echo "|---|---|"; } > "$report"
HEAP="$heap" MUSTER_OPTS="$opts" tomcat_start target/eureka.war "$port" "$base"
pid=$tomcat_pid
idle=$(heap_mb "$pid")
echo "registering $n instances in $apps apps ..."
# leases of 30 minutes: the heartbeats below reach only part of the instances, and the restore counts live leases
reg=$(java bench/LoadTool.java register --instances "$n" --apps "$apps" --concurrency 16 --ids spring --url "$url" \
  --lease 1800 --pid "$pid" | result)
row() { echo "| $1 | $2 |" >> "$report"; echo "$1: $2"; }
row registration "$(field "$reg" register_per_second)/s, p50 $(field "$reg" register_p50_ms) ms, p99 $(field "$reg" register_p99_ms) ms, $(field "$reg" register_server_cpu_us_per_request) µs server CPU each, $(field "$reg" register_errors) errors"
listed=$(wait_listed "$url")
row "full registry served with all $n, after the last registration" "${listed} s"
sleep 5
used=$(heap_mb "$pid")
per=$(( (used - idle) * 1024 * 1024 / n ))
row "heap after GC: idle / with $n" "${idle} MB / ${used} MB: **${per} bytes per instance**"
echo "renewing ..."
renew=$(java bench/LoadTool.java renew --instances "$n" --apps "$apps" --concurrency 16 --ids spring --seconds 20 \
  --url "$url" --pid "$pid" | result)
row "heartbeats flat out (16 connections)" "$(field "$renew" renew_per_second)/s, p50 $(field "$renew" renew_p50_ms) ms, p99 $(field "$renew" renew_p99_ms) ms, $(field "$renew" renew_server_cpu_us_per_request) µs CPU each"
paced=$(java bench/LoadTool.java renew --instances "$n" --apps "$apps" --concurrency 16 --ids spring --seconds 20 \
  --rate "$rate" --label renew_paced --url "$url" --pid "$pid" | result)
row "heartbeats at $rate/s" "p50 $(field "$paced" renew_paced_p50_ms) ms, p99 $(field "$paced" renew_paced_p99_ms) ms, $(field "$paced" renew_paced_server_cpu_us_per_request) µs CPU each"
echo "fetching ..."
full=$(java bench/LoadTool.java fetch --kind gzip --concurrency 2 --seconds 15 --url "$url" --pid "$pid" | result)
row "gzip full fetch (2 clients)" "$(field "$full" fetch_gzip_per_second)/s, p99 $(field "$full" fetch_gzip_p99_ms) ms, $(field "$full" fetch_gzip_bytes_per_response) bytes, $(field "$full" fetch_gzip_server_cpu_us_per_request) µs CPU each"
delta=$(java bench/LoadTool.java fetch --kind delta --concurrency 2 --seconds 15 --url "$url" --pid "$pid" | result)
row "gzip delta fetch (2 clients)" "$(field "$delta" fetch_delta_per_second)/s, p99 $(field "$delta" fetch_delta_p99_ms) ms, $(field "$delta" fetch_delta_bytes_per_response) bytes, $(field "$delta" fetch_delta_server_cpu_us_per_request) µs CPU each"

echo "a second node syncs from the first ..."
t_sync0=$SECONDS
HEAP="$heap" MUSTER_OPTS="$opts -Deureka.client.serviceUrl.defaultZone=http://peer:CHANGE-ME-peer@127.0.0.1:$port/eureka/" \
  TOMCAT_WAIT_POLLS=1200 tomcat_start target/eureka.war "$port2" "$base2" > /dev/null &
sleep 2
wait_listed "http://127.0.0.1:$port2/eureka/" > /dev/null
synced=$((SECONDS - t_sync0))
pid2=$(pgrep -f "catalina.base=$base2" | head -1 || true)
used2=$([ -n "$pid2" ] && heap_mb "$pid2" || echo "?")
row "a second node started with the first as its peer: serving all $n" "${synced} s after its start; heap after GC ${used2} MB"
[ -n "$pid2" ] && kill "$pid2"

echo "snapshot: clean stop and restart of the first node ..."
snap="$(ls "$base"/work/muster/registry-*.snapshot 2> /dev/null | head -1)"
t0=$(date +%s.%N)
kill -TERM "$pid"
while kill -0 "$pid" 2> /dev/null; do sleep 0.1; done
stopped=$(echo "$(date +%s.%N) - $t0" | bc | xargs printf '%.1f')
snap_mb=$([ -n "$snap" ] && du -m "$snap" | cut -f1 || echo "?")
row "clean stop of the first node (SIGTERM, the snapshot written)" "${stopped} s; snapshot ${snap_mb} MB"
home="$(tomcat_home)"
CATALINA_HOME="$home" CATALINA_BASE="$base" CATALINA_PID="" JAVA_OPTS="" CATALINA_OPTS="$heap $opts" \
  "$home/bin/catalina.sh" run > "$base/logs/console-restart.log" 2>&1 &
pid=$!
t_restart0=$SECONDS
ready=$(ready_in "$url")
restored=$(grep -h "restored .* instances from the registry snapshot" "$base"/logs/*.log | tail -1 | sed 's/.*Muster: //')
row "restore, as logged" "$restored"
wait_listed "$url" > /dev/null
relisted=$((SECONDS - t_restart0))
row "restart: ready / full registry with all $n" "${ready} s / ${relisted} s after the start"

echo "report: $report"
