#!/usr/bin/env bash
# Restart without a gap, on real Tomcat at default settings: 1,000 registrations, a clean Tomcat stop (SIGTERM),
# the same CATALINA_BASE started again, and what a client polling /apps/ meanwhile sees. Loopback; stops only the
# Tomcat it started, by its PID. Needs target/eureka.war and the servers the build unpacks (mvn verify).
cd "$(dirname "$0")/.."; . bench/tomcat.sh
base="$PWD/target/bench/tomcat-restart"
HEAP="-Xms128m -Xmx512m" tomcat_start target/eureka.war 18961 "$base" || exit 1
home="$(tomcat_home)"; pid=$tomcat_pid
body() { echo "{\"instance\":{\"instanceId\":\"$1\",\"hostName\":\"h-$1\",\"app\":\"APP$(( ${1#r-} % 20 ))\",\"ipAddr\":\"10.0.0.1\",\"status\":\"UP\",\"port\":{\"\$\":8080,\"@enabled\":\"true\"},\"dataCenterInfo\":{\"@class\":\"com.netflix.appinfo.InstanceInfo\$DefaultDataCenterInfo\",\"name\":\"MyOwn\"},\"leaseInfo\":{\"durationInSecs\":600},\"vipAddress\":\"v\"}}"; }
for k in $(seq 1 1000); do a=$(( k % 20 )); curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -d "$(body r-$k)" http://127.0.0.1:18961/eureka/apps/APP$a; done
sleep 1
echo "before: $(curl -s -H 'Accept: application/json' http://127.0.0.1:18961/eureka/apps/ | grep -o '"instanceId"' | wc -l) instances"
kill $pid; while kill -0 $pid 2>/dev/null; do sleep 0.2; done; echo "stopped at $(date +%T.%3N)"
CATALINA_HOME="$home" CATALINA_BASE="$base" CATALINA_OPTS="-Xms128m -Xmx512m" "$home/bin/catalina.sh" run > "$base"/logs/console2.log 2>&1 &
pid=$!; echo "started again at $(date +%T.%3N) pid $pid"
first=""; fewer=0
for i in $(seq 1 300); do
  r=$(curl -s -m 2 -w ' %{http_code}' -H 'Accept: application/json' http://127.0.0.1:18961/eureka/apps/)
  code=${r##* }
  if [ "$code" = 200 ]; then n=$(echo "$r" | grep -o '"instanceId"' | wc -l); [ -z "$first" ] && first="$(date +%T.%3N) $n instances"; [ "$n" -lt 1000 ] && fewer=$((fewer+1)); fi
  [ -n "$first" ] && [ $i -gt 20 ] && break
  sleep 0.1
done
echo "first 200 at $first; 200s listing fewer than 1000: $fewer"
grep -h "restored\|snapshot" "$base"/logs/catalina*.log | tail -2 | cut -c1-200
kill $pid
