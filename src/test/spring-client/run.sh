#!/usr/bin/env bash
# Builds (once) and starts the Spring Boot Eureka client in the foreground: ./run.sh PORT [--key=value ...]
# Builds in SPRING_CLIENT_HOME (default $TMPDIR/muster-spring-client); the source folder may be read-only.
set -euo pipefail
src="$(cd "$(dirname "$0")" && pwd)"
here="${SPRING_CLIENT_HOME:-${TMPDIR:-/tmp}/muster-spring-client}"
mkdir -p "$here"
port="${1:?usage: run.sh PORT [--key=value ...]}"
shift
jar="$here/target/spring-client.jar"
# rebuilt when the sources' content changed, not their time stamps (every clone has new ones); one build at a time
sources_hash() {
  (cd "$src" && find pom.xml src -type f -print0 | sort -z | xargs -0 sha256sum) | sha256sum | cut -d' ' -f1
}
{
  flock 9
  want="$(sources_hash)"
  if [ ! -f "$jar" ] || [ "$(cat "$here/built-from" 2> /dev/null)" != "$want" ]; then
    echo "[spring-client] building $jar ..." >&2
    rm -rf "$here/src"
    cp -rp "$src/pom.xml" "$src/src" "$here"/
    (cd "$here" && mvn -B -q -DskipTests package) >&2
    echo "$want" > "$here/built-from"
  fi
} 9> "$here/build.lock"
java_bin="java"
[ -n "${JAVA_HOME:-}" ] && java_bin="$JAVA_HOME/bin/java"
# JVM flags: JAVA_OPTS (the tests pass those of every server they start); by default C1 only: a test client that
# starts, registers and stops, and C2 would spend a core compiling its start-up
# shellcheck disable=SC2086
exec "$java_bin" ${JAVA_OPTS:--Xms64m -Xmx256m -XX:TieredStopAtLevel=1} -jar "$jar" --server.port="$port" "$@"
