#!/usr/bin/env bash
# A three-node cluster holding N instances (issue 28, part 5): three Muster WARs on three real Tomcats on this
# machine, fully meshed with the peer user of server-config, at default settings apart from the per-address shares
# (every request comes from this one machine). Every node holds every instance, as in any Eureka cluster, so the
# per-node heap is the single-node figure plus what replication adds.
#
#   bench/three-nodes.sh                                   # 1,000,000 instances, 4 GB per node; target/bench/three-nodes.md
#   INSTANCES=300000 HEAP="-Xms1500m -Xmx1500m" bench/three-nodes.sh   # a smaller run
#
# Measured:
#   registration of N/3 instances on each node at once (clients spread over the nodes), until every node serves all N;
#   heap after GC and RSS of each node;
#   steady churn on the whole cluster for SECONDS_CHURN (default 60), once the burst has left the delta window: on
#   each node, heartbeats of CHURN_INSTANCES/3 (default 30,000) of its instances every 30 s, CHURN_INSTANCES/3000
#   re-registrations a second (UP or DOWN) and 30 delta pollers every 30 s: what the two shared cores sustain beside
#   three million-instance nodes and the load tools;
#   meanwhile, replication lag: register, status change and cancel on node 1, polled on node 2 through the instance's
#   own URL (`LoadTool propagation --watch instance`), and each node's own lag window (enqueue to the peer's
#   acknowledgement, p50/p99 of the last minute, from /api/status);
#   CPU of each node during the churn.
#
# Only the processes this script starts are stopped, by their PIDs. Loopback only.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
# shellcheck source=bench/tomcat.sh
. bench/tomcat.sh
n="${INSTANCES:-1000000}"
apps="${APPS:-$((n / 20))}"
heap="${HEAP:--Xms4g -Xmx4g}"
seconds="${SECONDS_CHURN:-60}"
churn_n="${CHURN_INSTANCES:-90000}"
base_port="${BASE_PORT:-18961}"   # not PORT: the nodes would take it for their own port
ports=("$base_port" $((base_port + 1)) $((base_port + 2)))
out="$root/target/bench"
report="$out/three-nodes.md"
mkdir -p "$out"
[ -f target/eureka.war ] || mvn -q -B -DskipTests package
peer_urls=""
for p in "${ports[@]}"; do peer_urls="$peer_urls${peer_urls:+,}http://peer:CHANGE-ME-peer@127.0.0.1:$p/eureka/"; done
# maxInstances: the default cap is exactly a million, and the lag probe registers instances of its own on top
opts="-Deureka.server.maxClientHeapPercent=100 -Deureka.server.largeWrites.maxOpenPerClient=1000 -Deureka.server.maxInstances=$((n + 100000)) -Deureka.client.serviceUrl.defaultZone=$peer_urls"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT

url() { echo "http://127.0.0.1:${ports[$1]}/eureka/"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
listed() {   # instances UP in the full registry node $1 serves (from the apps__hashcode at the start of the gzip body)
  curl -s -H 'Accept: application/json' -H 'Accept-Encoding: gzip' "$(url "$1")apps/" | gunzip -c 2> /dev/null \
    | head -c 300 | sed -n 's/.*"apps__hashcode":"[^"]*UP_\([0-9]*\)_.*/\1/p'
}
row() { echo "| $1 | $2 |" >> "$report"; echo "$1: $2"; }

{ echo "# $n instances on three nodes, Tomcat, heap $heap per node ($(date -u +%F))"; echo
  echo "| step | figure |"; echo "|---|---|"; } > "$report"

echo "starting three nodes ..."
for i in 0 1 2; do
  (HEAP="$heap" MUSTER_OPTS="$opts" TOMCAT_WAIT_POLLS=1200 tomcat_start target/eureka.war "${ports[$i]}" \
    "$out/three-nodes-$((i + 1))" > /dev/null) &
done
wait
for i in 0 1 2; do
  pids+=("$(pgrep -f "catalina.base=$out/three-nodes-$((i + 1))" | head -1)")
done
idle=()
for i in 0 1 2; do idle+=("$(heap_mb "${pids[$i]}")"); done
echo "nodes ${pids[*]}; registering $n instances, a third on each node ..."
third=$((n / 3))
t0=$SECONDS
regs=()
for i in 0 1 2; do
  count=$third
  [ "$i" = 2 ] && count=$((n - 2 * third))
  java bench/LoadTool.java register --instances "$count" --from $((i * third)) --apps "$apps" --concurrency 8 \
    --ids spring --lease 1800 --url "$(url "$i")" --pid "${pids[$i]}" > "$out/three-nodes-register-$i.txt" &
  regs+=($!)
done
wait "${regs[@]}"
registered=$((SECONDS - t0))
t_sent=$SECONDS
rate=0
for i in 0 1 2; do
  r=$(result < "$out/three-nodes-register-$i.txt")
  rate=$(python3 -c "print($rate + float('$(field "$r" register_per_second)'))")
  errors=$(field "$r" register_errors)
  row "registration on node $((i + 1)) ($([ "$i" = 2 ] && echo $((n - 2 * third)) || echo $third))" "$(field "$r" register_per_second)/s, p99 $(field "$r" register_p99_ms) ms, $(field "$r" register_server_cpu_us_per_request) µs of that node's CPU each (its share of replication included), $errors errors"
done
row "registration, cluster" "$(printf '%.0f' "$rate")/s together, all sent in ${registered} s"
for i in 0 1 2; do
  while [ "$(listed "$i" || echo 0)" -lt "$n" ] 2> /dev/null; do
    [ $((SECONDS - t0)) -lt 1800 ] || { echo "node $((i + 1)) does not list all $n" >&2; exit 1; }
    sleep 2
  done
done
row "every node serves all $n, after the start of registration" "$((SECONDS - t0)) s"
sleep 5
for i in 0 1 2; do
  used=$(heap_mb "${pids[$i]}")
  row "node $((i + 1)): heap after GC, RSS" "${used} MB ($(( (used - idle[i]) * 1024 * 1024 / n )) bytes per instance), RSS $(rss_mb "${pids[$i]}") MB"
done

# steady churn, not the burst: the delta window (3 minutes) still holds the registrations until then
settle=$((200 - (SECONDS - t_sent)))
[ "$settle" -gt 0 ] && { echo "waiting $settle s for the registration burst to leave the delta window ..."; sleep "$settle"; }
echo "churn on all three nodes for $seconds s, replication lag measured meanwhile ..."
per_node=$((churn_n / 3))
cpu0=()
for i in 0 1 2; do cpu0+=("$(cpu_ticks "${pids[$i]}")"); done
loads=()
for i in 0 1 2; do
  # the same ids as registered on that node (from its third), so heartbeats find their instances
  java bench/LoadTool.java mixed --label churn --instances "$per_node" --apps "$apps" --renew-every 30 \
    --fetchers 30 --fetch-every 30 --churn $((per_node / 1000)) --seconds "$seconds" --concurrency 8 --ids spring \
    --from $((i * third)) --no-setup --url "$(url "$i")" > "$out/three-nodes-churn-$i.txt" 2>&1 &
  loads+=($!)
done
sleep 5
prop=$(java bench/LoadTool.java propagation --watch instance --trials "${TRIALS:-20}" --max-wait 10 \
  --admin admin:CHANGE-ME-admin --url "$(url 0)" --peer "$(url 1)" | result || true)
wait "${loads[@]}"
for i in 0 1 2; do
  r=$(result < "$out/three-nodes-churn-$i.txt")
  cpu=$(( ($(cpu_ticks "${pids[$i]}") - cpu0[i]) * 10 ))
  row "churn on node $((i + 1))" "heartbeats $(field "$r" churn_renew_achieved_per_second) of $(field "$r" churn_renew_offered_per_second)/s (p99 $(field "$r" churn_renew_p99_ms) ms), churn p99 $(field "$r" churn_churn_p99_ms) ms, delta p99 $(field "$r" churn_delta_p99_ms) ms; node CPU $((cpu / seconds / 10)) % of one core"
done
row "replication lag, node 1 to node 2, change to visible at the instance's URL on the peer ($(( ${TRIALS:-20} * 3 )) changes)" "p50 $(field "$prop" propagation_peer_p50_ms) ms, p99 $(field "$prop" propagation_peer_p99_ms) ms, max $(field "$prop" propagation_peer_max_ms) ms"
for i in 0 1 2; do
  lags=$(curl -s -u admin:CHANGE-ME-admin "$(url "$i")api/status" | python3 -c '
import json, sys
s = json.load(sys.stdin)
print("; ".join("%s: p50 %.0f ms, p99 %.0f ms, %d sent" % (p["url"].split("@")[-1], 1000 * (p.get("lagP50Seconds") or 0),
    1000 * (p.get("lagP99Seconds") or 0), p.get("sent") or 0) for p in s.get("peers", [])))')
  row "node $((i + 1)): replication lag to each peer, last minute (its own window)" "$lags"
done
echo "report: $report"
