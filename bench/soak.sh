#!/usr/bin/env bash
# The soak of issue 16 (docs/reliability.md): one Muster node on real Tomcat (port 18971) at default settings under a
# steady mixed load (2,000 instances registering, renewing, changing status, cancelling; delta-fetching clients),
# sampled every minute (every 10 s for runs of 5 minutes or less): heap after a full GC, threads, open files,
# write latency p50/p99. Exit status 0 when the heap after GC has no upward trend, threads and files stay put and
# p99 stays near where it started; the table is written to target/soak/results.md.
#
#   bench/soak.sh                   # 30 minutes
#   SOAK_MINUTES=2 bench/soak.sh    # the short one (mvn verify runs it as part of ChaosIT)
#
# Builds what it needs first. MVN="mvn -o" for offline. Loopback only; stops only the Tomcat it started.
set -euo pipefail
exec "$(dirname "$0")/harness-java.sh" io.muster.chaos.Soak "${SOAK_MINUTES:-30}"
