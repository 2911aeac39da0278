#!/usr/bin/env bash
# The fault harness of issue 16 (docs/reliability.md): three Muster nodes on real Tomcat, each peer link through a
# proxy the harness controls, a client load, and the faults one at a time then combined; after each fault heals it
# checks that nothing acknowledged was lost or resurrected and that the nodes agree. Exit status 0 when every fault
# passed; the table is printed and written to target/chaos/results.md, node logs are under target/chaos/node*/logs.
#
#   bench/chaos.sh            # the full run (about 25 minutes)
#   bench/chaos.sh --short    # the short run mvn verify makes (ChaosIT, a few minutes)
#
# Builds what it needs first (the WAR, the test classes, the Tomcat the build unpacks). MVN="mvn -o" for offline;
# CHAOS_JAVA_OPTS=-Dchaos.war=other.war runs the faults against another build.
# Loopback only (nodes 18951-18953, links 18961-18969); stops only the Tomcats it started, by their PIDs.
set -euo pipefail
exec "$(dirname "$0")/harness-java.sh" io.muster.chaos.Chaos "$@"
