#!/usr/bin/env bash
# Issue 28 part 2: 100,000 instances on a 1 GB heap, heartbeat p99 (docs/benchmark.md). A fresh Tomcat per run
# (bench/tomcat.sh, -Xms256m -Xmx1g, the per-address shares lifted as compare.sh does), the registration burst, then
# right after it 60 s of the `big` mixed load: heartbeats every 30 s (3,333/s), 200 delta pollers every 30 s,
# 33 re-registrations/s.
#   bench/big-100k.sh                        # 3 runs of target/eureka.war, about 2.5 minutes each
#   WAR=other.war RUNS=1 CLIENT=jdk bench/big-100k.sh   # CLIENT=jdk: the load over java.net.http, as before 2026-12-07
# One line per run, with the load generator's own CPU per request in the measured minute (it shares the two cores). GC logs go to /tmp/gc-big-N.log. Only the Tomcat started here is stopped, by its PID.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/tomcat.sh
port=18941
for run in $(seq 1 ${RUNS:-3}); do
  HEAP="-Xms256m -Xmx1g -Xlog:gc:file=/tmp/gc-big-$run.log:uptime" MUSTER_OPTS="-Deureka.server.maxClientHeapPercent=100 -Deureka.server.largeWrites.maxOpenPerClient=1000" \
    tomcat_start "${WAR:-target/eureka.war}" "$port" "$PWD/target/bench/big-tomcat" > /dev/null
  url="http://127.0.0.1:$port/eureka/"
  java bench/LoadTool.java register --instances 100000 --apps 5000 --concurrency 16 --ids spring --url "$url" --pid "$tomcat_pid" > /dev/null 2>&1
  res=$(java bench/LoadTool.java mixed --label big --instances 100000 \
    --apps 5000 --renew-every 30 --fetchers 200 --fetch-every 30 --churn 33 --seconds 60 --concurrency 32 --ids spring \
    --client "${CLIENT:-raw}" --url "$url" --pid "$tomcat_pid" 2>/dev/null | sed -n "s/^RESULT //p")
  echo "run $run: $(echo "$res" | grep -oE '"big_(renew_achieved_per_second|renew_offered_per_second|renew_p50_ms|renew_p99_ms|renew_max_ms|delta_p99_ms|churn_p99_ms|server_cpu_us_per_request|delta_errors_or_timeouts|generator_cpu_us_per_request|errors)":[0-9.]*' | tr '\n' ' ') OOME $(grep -rh OutOfMemoryError target/bench/big-tomcat/logs 2>/dev/null | wc -l)"
  kill "$tomcat_pid"; wait "$tomcat_pid" 2>/dev/null || true
  sleep 5
done
