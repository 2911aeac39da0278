#!/usr/bin/env bash
# The abuse table of issue 22 (docs/reliability.md, "Abuse"): one Muster node on real Tomcat (127.0.0.1:19501,
# default settings, -Xms256m -Xmx1g as bench/tomcat.sh) and each row of the issue's table against it from one
# anonymous client on loopback, bounded in count and time (counts scaled down from the issue's; about 10 minutes
# in all). The shared-realm row starts a second node with clientAuthRequired=true (19502) after the first stops.
# Per row: heartbeat latency of a legitimate instance (every 200 ms), heap after a full GC before and after,
# OutOfMemoryError / SEVERE lines in Tomcat's log, and the row's own check. Exit status 0 when every row passed;
# the table is printed and written to target/abuse/results.md, node logs are under target/abuse/node*/logs.
#
#   bench/abuse.sh                          # every row
#   bench/abuse.sh smuggling "error path"   # the rows whose names contain these words
#
# Builds what it needs first (the WAR, the test classes, the Tomcat the build unpacks). MVN="mvn -o" for offline;
# CHAOS_JAVA_OPTS=-Dchaos.war=other.war runs the rows against another build. Stops only the Tomcats it started.
set -euo pipefail
exec "$(dirname "$0")/harness-java.sh" io.muster.chaos.Abuse "$@"
