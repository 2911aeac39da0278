#!/usr/bin/env bash
# Replication figures: three Muster nodes (embedded Payara) on loopback, fully meshed, with peer credentials.
#   bench/cluster.sh            # about 4 minutes; writes target/bench/cluster.md and prints it
# Measures: heartbeat throughput of node 1 alone, then with two peers attached (same load); replication
# batches/s, mean batch size, queue depth and CPU while 10,000 instances renew; register-on-node-1 to
# visible-in-fetch-on-node-2 latency (p50/p99). Only the processes it starts are stopped, by PID.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
heap="${HEAP:--Xms256m -Xmx1g}"
n="${INSTANCES:-10000}"
out="$root/target/bench"
mkdir -p "$out"
# shellcheck source=bench/embedded.sh
. "$root/bench/embedded.sh"
users="peer:bench-peer:eureka-peer,admin:bench-admin:eureka-admin"
peers="http://peer:bench-peer@127.0.0.1:18941/eureka/,http://peer:bench-peer@127.0.0.1:18942/eureka/,http://peer:bench-peer@127.0.0.1:18943/eureka/"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null || true' EXIT

start() {   # start PORT PEERS
  # shellcheck disable=SC2086
  java $flags $heap -Dport="$1" -Dmuster.users="$users" -Deureka.client.serviceUrl.defaultZone="$2" \
    -Deureka.server.numberRegistrySyncRetries=0 -Deureka.server.waitTimeInMsWhenSyncEmpty=0 \
    -Dpayara.domain.xml=target/test-classes/payara-embedded/domain-1.xml \
    -cp "$payara_jar" src/test/java/io/muster/dev/RunEmbedded.java target/eureka.war > "$out/node-$1.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 240); do
    curl -sf -o /dev/null "http://127.0.0.1:$1/eureka/health/ready" && return 0
    sleep 0.5
  done
  echo "node $1 did not start" >&2; exit 1
}
lt() { java bench/LoadTool.java "$@" 2>/dev/null | sed -n 's/^RESULT //p'; }
field() { sed -n "s/.*\"$1\":\([^,}]*\).*/\1/p" | head -1; }

echo "node 1 alone..."
start 18941 ""
alone_pid=${pids[0]}
lt register --instances "$n" --apps 500 --concurrency 16 --url http://127.0.0.1:18941/eureka/ > /dev/null
lt renew --instances "$n" --apps 500 --seconds 25 --concurrency 16 --url http://127.0.0.1:18941/eureka/ > /dev/null
alone=$(lt renew --instances "$n" --apps 500 --seconds 20 --concurrency 16 --url http://127.0.0.1:18941/eureka/ --pid "$alone_pid")
kill "$alone_pid"; wait "$alone_pid" 2>/dev/null || true
pids=()

echo "three nodes..."
start 18941 "$peers"; p1=${pids[0]}
start 18942 "$peers"; p2=${pids[1]}
start 18943 "$peers"; p3=${pids[2]}
lt register --instances "$n" --apps 500 --concurrency 16 --url http://127.0.0.1:18941/eureka/ > /dev/null
lt renew --instances "$n" --apps 500 --seconds 25 --concurrency 16 --url http://127.0.0.1:18941/eureka/ > /dev/null
status_before=$(curl -s http://127.0.0.1:18941/eureka/api/status)
cpu2_before=$(awk '{print $14+$15}' "/proc/$p2/stat")
t0=$(date +%s%N)
meshed=$(lt renew --instances "$n" --apps 500 --seconds 20 --concurrency 16 --url http://127.0.0.1:18941/eureka/ --pid "$p1")
t1=$(date +%s%N)
cpu2_after=$(awk '{print $14+$15}' "/proc/$p2/stat")
status_after=$(curl -s http://127.0.0.1:18941/eureka/api/status)
queue=$(echo "$status_after" | grep -o '"queueDepth":[0-9]*' | head -1 | cut -d: -f2)
sent_before=$(echo "$status_before" | grep -o '"sent":[0-9]*' | head -1 | cut -d: -f2)
sent_after=$(echo "$status_after" | grep -o '"sent":[0-9]*' | head -1 | cut -d: -f2)
batches_before=$(echo "$status_before" | grep -o '"batches":[0-9]*' | head -1 | cut -d: -f2)
batches_after=$(echo "$status_after" | grep -o '"batches":[0-9]*' | head -1 | cut -d: -f2)
secs=$(( (t1 - t0) / 1000000000 ))
prop=$(lt propagation --trials "${TRIALS:-20}" --admin admin:bench-admin --url http://127.0.0.1:18941/eureka/ --peer http://127.0.0.1:18942/eureka/)

{
  echo "Three Muster nodes on one 2-core machine (shared with the load tool), heap \`$heap\`, $n instances."
  echo
  echo "| metric | value |"
  echo "|---|---:|"
  echo "| heartbeats/s, node alone | $(echo "$alone" | field renew_per_second) |"
  echo "| heartbeats/s, node with two peers | $(echo "$meshed" | field renew_per_second) |"
  echo "| server CPU µs per heartbeat, alone | $(echo "$alone" | field renew_server_cpu_us_per_request) |"
  echo "| server CPU µs per heartbeat, with peers (replication included) | $(echo "$meshed" | field renew_server_cpu_us_per_request) |"
  echo "| replicated tasks/s to one peer | $(( (sent_after - sent_before) / (secs > 0 ? secs : 1) )) |"
  echo "| replication batches/s to one peer | $(( (batches_after - batches_before) / (secs > 0 ? secs : 1) )) |"
  echo "| mean batch size | $(( (sent_after - sent_before) / ((batches_after - batches_before) > 0 ? (batches_after - batches_before) : 1) )) |"
  echo "| queue depth at the end | ${queue:-0} |"
  echo "| receiving peer CPU ms per second of load | $(( (cpu2_after - cpu2_before) * 10 / (secs > 0 ? secs : 1) )) |"
  echo "| change on node 1 visible in a fetch on node 1, p50 / p99 ms | $(echo "$prop" | field propagation_same_node_p50_ms) / $(echo "$prop" | field propagation_same_node_p99_ms) |"
  echo "| change on node 1 visible in a fetch on node 2, p50 / p99 ms | $(echo "$prop" | field propagation_peer_p50_ms) / $(echo "$prop" | field propagation_peer_p99_ms) |"
} > "$out/cluster.md"
cat "$out/cluster.md"
