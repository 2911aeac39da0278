#!/usr/bin/env bash
# Muster's WAR on a real Apache Tomcat 10.1 (the one the build unpacks into target/servers), for the benchmarks.
#
#   bench/tomcat.sh [WAR] [PORT]     # starts it in the background, waits until /eureka/health/ready answers,
#                                    # prints "tomcat pid PID on PORT"; stop it with: kill PID
#   . bench/tomcat.sh                # in another bench script: defines tomcat_start / tomcat_stop (below)
#
# The instance is laid out like TomcatServerIT does it: CATALINA_HOME is
# target/servers/apache-tomcat-10.1.*, CATALINA_BASE a fresh target/bench/tomcat-base (conf copied from home),
# the HTTP connector on 127.0.0.1:PORT, shutdown port -1, server-config/tomcat/eureka.xml as the context file
# (docBase pointing at WAR, so Muster is at /eureka) and the users of server-config/tomcat/tomcat-users-fragment.xml
# (admin / CHANGE-ME-admin has eureka-admin). webapps/ROOT/floor.txt is a 16-byte static file served by Tomcat's
# DefaultServlet: the container floor, GET /floor.txt on the same connector. With CANNED=1, /canned is
# bench/canned/CannedAnswers.java, which answers LoadTool's churn mix as Muster does and does nothing else (the
# churn floor; its delta is whatever is saved at webapps/canned/WEB-INF/delta.json.gz before the first fetch).
# Heap: HEAP (default -Xms256m -Xmx1g, as the anchor); MAX_CONNECTIONS sets the connector's maxConnections,
# PROCESSOR_CACHE its processorCache; MUSTER_OPTS adds settings (-Deureka.server.x=y). Tomcat's default access log valve is removed, since the
# anchor (Spring Boot's embedded Tomcat) logs no access either; ACCESS_LOG=1 keeps it.
# Only the process started here is ever stopped, by its PID. Loopback only.

tomcat_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# tomcat_home: prints CATALINA_HOME, unpacking the servers with Maven (offline) if the build has not yet
tomcat_home() {
  local home
  home="$(ls -d "$tomcat_root"/target/servers/apache-tomcat-10.1.* 2>/dev/null | head -1)"
  if [ -z "$home" ]; then
    (cd "$tomcat_root" && mvn -o -q -B dependency:unpack@unpack-servers) >&2
    home="$(ls -d "$tomcat_root"/target/servers/apache-tomcat-10.1.* | head -1)"
  fi
  echo "$home"
}

# tomcat_start WAR PORT [BASE]: sets tomcat_pid (the JVM: catalina.sh run execs java) and tomcat_base; returns
# once GET /eureka/health/ready is 200 (or fails after 120 s, stopping what it started).
tomcat_start() {
  local war port base home
  war="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
  port="$2"
  base="${3:-$tomcat_root/target/bench/tomcat-base}"
  home="$(tomcat_home)"
  [ -f "$war" ] || { echo "no WAR at $war" >&2; return 1; }
  rm -rf "$base"
  mkdir -p "$base"/{conf/Catalina/localhost,logs,temp,webapps/ROOT,work}
  cp -r "$home/conf/." "$base/conf/"
  sed -i -e 's|<Server port="8005"|<Server port="-1"|' \
         -e "s|<Connector port=\"8080\"|<Connector address=\"127.0.0.1\" port=\"$port\"|" "$base/conf/server.xml"
  if [ -n "${MAX_CONNECTIONS:-}" ]; then   # Tomcat's NIO default is 8,192 (bench/FanOut.java opens 10,000)
    sed -i "s|<Connector address=\"127.0.0.1\" port=\"$port\"|& maxConnections=\"$MAX_CONNECTIONS\"|" "$base/conf/server.xml"
  fi
  if [ -n "${PROCESSOR_CACHE:-}" ]; then   # request processors kept for reuse (Tomcat's default 200)
    sed -i "s|<Connector address=\"127.0.0.1\" port=\"$port\"|& processorCache=\"$PROCESSOR_CACHE\"|" "$base/conf/server.xml"
  fi
  if [ "${ACCESS_LOG:-0}" != 1 ]; then
    perl -0pi -e 's{<Valve className="org\.apache\.catalina\.valves\.AccessLogValve".*?/>}{}s' "$base/conf/server.xml"
  fi
  { echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo '<tomcat-users xmlns="http://tomcat.apache.org/xml" version="1.0">'
    cat "$tomcat_root/server-config/tomcat/tomcat-users-fragment.xml"
    echo '</tomcat-users>'; } > "$base/conf/tomcat-users.xml"
  sed "s|/opt/muster/eureka.war|$war|" "$tomcat_root/server-config/tomcat/eureka.xml" \
    > "$base/conf/Catalina/localhost/eureka.xml"
  printf 'container floor\n' > "$base/webapps/ROOT/floor.txt"
  if [ "${CANNED:-0}" = 1 ]; then
    mkdir -p "$base/webapps/canned/WEB-INF/classes"
    javac -nowarn -d "$base/webapps/canned/WEB-INF/classes" -cp "$home/lib/servlet-api.jar" \
      "$tomcat_root/bench/canned/CannedAnswers.java"
    cp "$tomcat_root/bench/canned/web.xml" "$base/webapps/canned/WEB-INF/web.xml"
  fi
  CATALINA_HOME="$home" CATALINA_BASE="$base" CATALINA_PID="" JAVA_OPTS="" \
    CATALINA_OPTS="${HEAP:--Xms256m -Xmx1g} ${MUSTER_OPTS:-}" "$home/bin/catalina.sh" run > "$base/logs/console.log" 2>&1 &
  tomcat_pid=$!
  tomcat_base="$base"
  for _ in $(seq 1 "${TOMCAT_WAIT_POLLS:-240}"); do   # every 0.5 s
    if [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/eureka/health/ready")" = 200 ]; then
      return 0
    fi
    kill -0 "$tomcat_pid" 2>/dev/null || break
    sleep 0.5
  done
  echo "Tomcat on port $port did not get ready (see $base/logs)" >&2
  tomcat_stop
  return 1
}

# tomcat_stop: stops the Tomcat started by tomcat_start (by its PID) and waits for it
tomcat_stop() {
  if [ -n "${tomcat_pid:-}" ]; then
    kill "$tomcat_pid" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$tomcat_pid" 2>/dev/null || break; sleep 0.5; done
    kill -9 "$tomcat_pid" 2>/dev/null || true
    tomcat_pid=""
  fi
}

# Helpers of the scripts that measure nodes (million.sh, three-nodes.sh):
# heap_mb PID: used heap after a full GC, MB; rss_mb PID; result: the JSON of LoadTool's RESULT line on stdin;
# field JSON KEY: one value of it
heap_mb() {
  jcmd "$1" GC.run > /dev/null
  jcmd "$1" GC.heap_info | sed -n 's/.*total [0-9]*K, used \([0-9]*\)K.*/\1/p' | head -1 | awk '{printf "%d", $1 / 1024}'
}
rss_mb() { sed -n 's/^VmRSS:[^0-9]*\([0-9]*\) kB/\1/p' "/proc/$1/status" | awk '{printf "%d", $1 / 1024}'; }
result() { grep '^RESULT' | sed 's/^RESULT //'; }
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1]).get(sys.argv[2], ''))" "$1" "$2"; }

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  tomcat_start "${1:-$tomcat_root/target/eureka.war}" "${2:-18931}"
  echo "tomcat pid $tomcat_pid on ${2:-18931} (CATALINA_BASE $tomcat_base; stop with: kill $tomcat_pid)"
fi
