#!/usr/bin/env bash
# A first fault of the chaos run (issue 16): three Muster nodes on real Tomcat at default settings (each lists all
# three URLs with the eureka-peer credentials of server-config/tomcat/tomcat-users-fragment.xml), a burst of
# registrations spread over nodes 1 and 3 with node 2 killed by SIGKILL halfway, cancellations on node 3 while
# node 2 is down, node 2 started again; then the checks: every acknowledged registration present on every node,
# every acknowledged cancellation absent everywhere (nothing resurrected), and the same apps hash on all nodes,
# with the time that took.
#
#   bench/chaos-tomcat.sh              # BURST=300 CANCELS=30 TIMEOUT=120 (seconds to converge)
#
# Loopback only (ports 18951-18953); stops only the Tomcats it started, by their PIDs. Needs target/eureka.war and
# the servers the build unpacks (mvn verify).
set -u
cd "$(dirname "$0")/.."
. bench/tomcat.sh
burst="${BURST:-300}"; cancels="${CANCELS:-30}"; timeout="${TIMEOUT:-120}"
out="$PWD/target/bench/chaos"; rm -rf "$out"; mkdir -p "$out"
creds="peer:CHANGE-ME-peer@"
urls="http://${creds}127.0.0.1:18951/eureka/,http://${creds}127.0.0.1:18952/eureka/,http://${creds}127.0.0.1:18953/eureka/"
opts="-Xms128m -Xmx512m -Deureka.client.serviceUrl.defaultZone=$urls"
declare -A pid
start_node() {   # start_node N BASE: starts node N in the background; its PID is written to $out/node-N.pid
  ( HEAP="$opts" tomcat_start target/eureka.war "1895$1" "$2" && echo "$tomcat_pid" > "$out/node-$1.pid" ) &
}
stop_all() { for n in 1 2 3; do [ -f "$out/node-$n.pid" ] && kill "$(cat "$out/node-$n.pid")" 2>/dev/null; done; }
trap stop_all EXIT

for n in 1 2 3; do start_node "$n" "$out/node$n"; done
wait
for n in 1 2 3; do [ -f "$out/node-$n.pid" ] || { echo "node $n did not start (see $out/node$n/logs)"; exit 1; }; done
echo "three nodes up"

body() { printf '{"instance":{"instanceId":"%s","hostName":"h-%s","app":"CHAOS","ipAddr":"10.0.0.1","status":"UP","port":{"$":8080,"@enabled":"true"},"dataCenterInfo":{"@class":"com.netflix.appinfo.InstanceInfo$DefaultDataCenterInfo","name":"MyOwn"},"leaseInfo":{"durationInSecs":600},"vipAddress":"chaos"}}' "$1" "$1"; }
: > "$out/acked"; : > "$out/cancelled"
for k in $(seq 1 "$burst"); do
  node=$(( k % 2 == 0 ? 1 : 3 ))
  code=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' -d "$(body "c-$k")" \
    "http://127.0.0.1:1895$node/eureka/apps/CHAOS")
  [ "$code" = 204 ] && echo "c-$k" >> "$out/acked"
  if [ "$k" = $(( burst / 2 )) ]; then kill -9 "$(cat "$out/node-2.pid")"; rm -f "$out/node-2.pid"; echo "node 2 killed (SIGKILL) after c-$k"; fi
done
for k in $(seq 1 2 $(( cancels * 2 ))); do
  code=$(curl -s -o /dev/null -w '%{http_code}' -X DELETE "http://127.0.0.1:18953/eureka/apps/CHAOS/c-$k")
  [ "$code" = 200 ] && echo "c-$k" >> "$out/cancelled"
done
echo "$(wc -l < "$out/acked") registrations and $(wc -l < "$out/cancelled") cancellations acknowledged"
t0=$(date +%s)
start_node 2 "$out/node2-restarted"; wait
[ -f "$out/node-2.pid" ] || { echo "node 2 did not start again"; exit 1; }
echo "node 2 started again after $(( $(date +%s) - t0 )) s"

ids() { curl -s -H 'Accept: application/json' "http://127.0.0.1:$1/eureka/apps/CHAOS" | grep -o '"instanceId":"c-[0-9]*"' | sed 's/.*"\(c-[0-9]*\)"/\1/' | sort -u; }
hash() { curl -s -H 'Accept: application/json' "http://127.0.0.1:$1/eureka/apps/" | grep -o '"apps__hashcode":"[^"]*"'; }
sort -u "$out/acked" | grep -vxF -f "$out/cancelled" > "$out/expected"
converged=""
while [ $(( $(date +%s) - t0 )) -le "$timeout" ]; do
  ok=1
  for p in 18951 18952 18953; do ids "$p" > "$out/seen-$p"; cmp -s "$out/seen-$p" "$out/expected" || ok=0; done
  [ "$(hash 18951)" = "$(hash 18952)" ] && [ "$(hash 18952)" = "$(hash 18953)" ] || ok=0
  [ $ok = 1 ] && { converged=$(( $(date +%s) - t0 )); break; }
  sleep 1
done
for p in 18951 18952 18953; do
  lost=$(comm -23 "$out/expected" "$out/seen-$p" | wc -l); back=$(comm -13 "$out/expected" "$out/seen-$p" | wc -l)
  echo "node $p: $(wc -l < "$out/seen-$p") instances, lost $lost, resurrected or unknown $back, $(hash "$p")"
done
if [ -n "$converged" ]; then echo "RESULT converged ${converged} s after node 2 was started again; writes lost 0"; exit 0; fi
echo "RESULT not converged within $timeout s"; exit 1
