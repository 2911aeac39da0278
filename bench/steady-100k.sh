#!/usr/bin/env bash
# 100,000 instances on a 1 GB heap in steady state (docs/benchmark.md, eighth session): bench/big-100k.sh with
# WAIT seconds (200) of heartbeats alone after the registration burst, while it leaves the delta's 3-minute
# retention, then the same minute of heartbeats, 200 delta pollers and 33 registrations/s.
#   bench/steady-100k.sh                 # 3 runs of target/eureka.war, about 5 minutes each
#   WAR=other.war RUNS=1 bench/steady-100k.sh
exec env STEADY_WAIT="${WAIT:-200}" "$(dirname "$0")/big-100k.sh"
