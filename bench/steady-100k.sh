#!/usr/bin/env bash
# 100,000 instances on a 1 GB heap in steady state (docs/benchmark.md, eighth session): a fresh Tomcat per run
# (bench/tomcat.sh), the registration burst, WAIT seconds (200) of heartbeats alone while the burst leaves the delta's
# 3-minute retention, then 60 s of heartbeats (every 30 s), 200 delta pollers (every 30 s) and 33 registrations/s.
#   bench/steady-100k.sh                 # 3 runs of target/eureka.war, about 5 minutes each
#   WAR=other.war RUNS=1 bench/steady-100k.sh
# Prints one line per run; GC logs go to /tmp/gc-steady-N.log. Only the Tomcat started here is stopped, by its PID.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/tomcat.sh
port=18951
for run in $(seq 1 ${RUNS:-3}); do
  HEAP="-Xms256m -Xmx1g -Xlog:gc:file=/tmp/gc-steady-$run.log:uptime" MUSTER_OPTS="-Deureka.server.maxClientHeapPercent=100 -Deureka.server.largeWrites.maxOpenPerClient=1000" \
    tomcat_start "${WAR:-target/eureka.war}" "$port" "$PWD/target/bench/steady-tomcat" > /dev/null
  url="http://127.0.0.1:$port/eureka/"
  java bench/LoadTool.java register --instances 100000 --apps 5000 --concurrency 16 --ids spring --url "$url" --pid "$tomcat_pid" > /dev/null 2>&1
  # keep the leases alive while the burst leaves the delta: heartbeats only, at the same rate
  java bench/LoadTool.java mixed --no-setup --label warm --instances 100000 --apps 5000 --renew-every 30 --fetchers 1 \
    --fetch-every 30 --churn 0.01 --seconds ${WAIT:-200} --concurrency 32 --ids spring --url "$url" --pid "$tomcat_pid" > /dev/null 2>&1
  res=$(java bench/LoadTool.java mixed --no-setup --label big --instances 100000 --apps 5000 --renew-every 30 --fetchers 200 \
    --fetch-every 30 --churn 33 --seconds 60 --concurrency 32 --ids spring --url "$url" --pid "$tomcat_pid" 2>/dev/null | sed -n 's/^RESULT //p')
  echo "run $run: $(echo "$res" | grep -oE '"big_(renew_achieved_per_second|renew_offered_per_second|renew_p99_ms|renew_max_ms|delta_p99_ms|churn_p99_ms|server_cpu_us_per_request|delta_errors_or_timeouts|errors)":[0-9.]*' | tr '\n' ' ') OOME $(grep -rh OutOfMemoryError target/bench/steady-tomcat/logs 2>/dev/null | wc -l)"
  kill "$tomcat_pid"; wait "$tomcat_pid" 2>/dev/null || true
  sleep 5
done
