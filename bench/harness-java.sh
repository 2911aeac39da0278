#!/usr/bin/env bash
# Runs one of the test-side harnesses (io.muster.chaos.Chaos, io.muster.chaos.Soak) with the test class path, after
# building what it needs: the WAR, the test classes, the Tomcat the build unpacks. MVN="mvn -o" for offline;
# CHAOS_JAVA_OPTS for extra JVM options (-Dchaos.war=other.war runs the faults against another build).
#
#   bench/harness-java.sh io.muster.chaos.Chaos --short
set -euo pipefail
cd "$(dirname "$0")/.."
mvn=${MVN:-mvn}
$mvn -q -B package -DskipTests
# the harnesses need only Tomcat: a build that has it does not need Payara's download as well
ls -d target/servers/apache-tomcat-10.1.* > /dev/null 2>&1 || $mvn -q -B dependency:unpack@unpack-servers
$mvn -q -B dependency:build-classpath -Dmdep.outputFile=target/chaos-classpath -Dmdep.includeScope=test
main=$1
shift
exec java ${CHAOS_JAVA_OPTS:-} -cp "target/test-classes:$(cat target/chaos-classpath)" "$main" "$@"
