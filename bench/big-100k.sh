#!/usr/bin/env bash
# 100,000 instances on a 1 GB heap (docs/benchmark.md, issue 28 part 2). A fresh Tomcat per run (bench/tomcat.sh,
# -Xms256m -Xmx1g, the per-address shares lifted as compare.sh does), the registration burst, then 60 s of the `big`
# mixed load: heartbeats every 30 s (3,333/s), 200 delta pollers every 30 s, 33 re-registrations/s.
#   bench/big-100k.sh                        # 3 runs of target/eureka.war right after the burst, ~2.5 minutes each
#   WAR=other.war RUNS=1 CLIENT=jdk bench/big-100k.sh   # CLIENT=jdk: the load over java.net.http, as before 2026-12-07
#   STEADY_WAIT=200 bench/big-100k.sh        # steady state instead (bench/steady-100k.sh): that many seconds of
#                                            # heartbeats alone first, while the burst leaves the delta's retention
# One line per run, with the load generator's own CPU per request in the measured minute (it shares the two cores).
# GC logs go to /tmp/gc-big-N.log (/tmp/gc-steady-N.log). Only the Tomcat started here is stopped, by its PID.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/tomcat.sh
if [ -n "${STEADY_WAIT:-}" ]; then name=steady; port=18951; else name=big; port=18941; fi
for run in $(seq 1 ${RUNS:-3}); do
  HEAP="-Xms256m -Xmx1g -Xlog:gc:file=/tmp/gc-$name-$run.log:uptime" MUSTER_OPTS="-Deureka.server.maxClientHeapPercent=100 -Deureka.server.largeWrites.maxOpenPerClient=1000" \
    tomcat_start "${WAR:-target/eureka.war}" "$port" "$PWD/target/bench/$name-tomcat" > /dev/null
  url="http://127.0.0.1:$port/eureka/"
  lt() { java bench/LoadTool.java "$@" --ids spring --client "${CLIENT:-raw}" --url "$url" --pid "$tomcat_pid"; }
  lt register --instances 100000 --apps 5000 --concurrency 16 > /dev/null 2>&1
  setup=""
  if [ -n "${STEADY_WAIT:-}" ]; then   # keep the leases alive while the burst leaves the delta: heartbeats only
    lt mixed --no-setup --label warm --instances 100000 --apps 5000 --renew-every 30 --fetchers 1 --fetch-every 30 \
      --churn 0.01 --seconds "$STEADY_WAIT" --concurrency 32 > /dev/null 2>&1
    setup="--no-setup"
  fi
  res=$(lt mixed $setup --label big --instances 100000 --apps 5000 --renew-every 30 --fetchers 200 --fetch-every 30 \
    --churn 33 --seconds 60 --concurrency 32 2>/dev/null | sed -n "s/^RESULT //p")
  echo "run $run: $(echo "$res" | grep -oE '"big_(renew_achieved_per_second|renew_offered_per_second|renew_p50_ms|renew_p99_ms|renew_max_ms|delta_p99_ms|churn_p99_ms|server_cpu_us_per_request|delta_errors_or_timeouts|generator_cpu_us_per_request|errors)":[0-9.]*' | tr '\n' ' ') OOME $(grep -rh OutOfMemoryError "target/bench/$name-tomcat/logs" 2>/dev/null | wc -l)"
  kill "$tomcat_pid"; wait "$tomcat_pid" 2>/dev/null || true
  sleep 5
done
