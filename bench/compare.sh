#!/usr/bin/env bash
# Muster against the stock Spring Cloud Netflix Eureka server (../shared/anchor), same heap, same machine, same
# scenarios, alternating. Muster runs as its WAR on a real Tomcat 10.1 (bench/tomcat.sh) by default, or on
# embedded Payara (the `mvn -Prun` server) with TARGET=payara. Writes target/bench/report.md and prints it.
#
#   bench/compare.sh                 # Tomcat, about 12 minutes
#   TARGET=payara bench/compare.sh   # embedded Payara instead
#   WAR=/path/to/eureka.war bench/compare.sh           # another build of Muster (default target/eureka.war)
#   bench/compare.sh --with-evict    # adds the eviction scenario (several more minutes)
#   HEAP="-Xms512m -Xmx2g" INSTANCES=20000 bench/compare.sh
#   SCENARIOS="renew renew-encoded floor" bench/compare.sh   # only these (after the same warm-up)
#
# Scenarios (names for SCENARIOS): register, renew (heartbeats, plain ids), renew-encoded (the same heartbeats
# with ':' sent as %3A), fetch (gzip, plain and delta fetches), floor (GET of a static file on the same Tomcat,
# Muster's side only; with mixed, also the churn mix answered by bench/canned, a web application that does nothing:
# mixed_canned), ceiling (a trivial JAX-RS GET, Muster's side only), mixed, propagation; and, only when named,
# big (100,000 instances in 5,000 apps renewing every 30 s, 200 delta pollers every 30 s, 2 %/min churn, 60 s right
# after the registration burst; BIG_INSTANCES, BIG_SECONDS; with full-GC counts and heap after GC):
#   SCENARIOS=big bench/compare.sh
# Instance ids are Spring-style (10.0.0.7:bench-app-7:8080); IDS=bench gives the older bench-host-7:bench:8007.
#
# Only the two server processes this script starts are stopped, by their PIDs. Loopback only.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
heap="${HEAP:--Xms256m -Xmx1g}"
n="${INSTANCES:-10000}"
apps="${APPS:-500}"
ids="${IDS:-spring}"
# registration and churn are short phases whose CPU per request moves with where a collection or a compilation
# lands: each runs ROUNDS times back to back on each server and the report keeps each one's quietest run; both
# servers first register the whole set WARM_REGISTERS times (both JITs settle only after several rounds)
ROUNDS="${ROUNDS:-3}"
WARM_REGISTERS="${WARM_REGISTERS:-6}"
target="${TARGET:-tomcat}"
mport="${MUSTER_PORT:-18931}"
aport="${ANCHOR_PORT:-18932}"
anchor_dir="${ANCHOR_DIR:-$root/../shared/anchor}"
out="$root/target/bench"
mkdir -p "$out"
rm -f "$out"/*.jsonl

wanted() { [ -z "${SCENARIOS:-}" ] || named "$1"; }
named() { [[ " ${SCENARIOS:-} " == *" $1 "* ]]; }   # scenarios that run only when named (big)
"$anchor_dir/run.sh" --build-only
mpid=""
apid=""
trap 'kill $mpid $apid ${tomcat_pid:-} 2>/dev/null; wait $mpid $apid 2>/dev/null || true' EXIT

JAVA_OPTS="$heap" "$anchor_dir/run.sh" "$aport" --logging.level.root=WARN > "$out/anchor.log" 2>&1 &
apid=$!
if [ "$target" = payara ]; then
  # shellcheck source=bench/embedded.sh
  . "$root/bench/embedded.sh"
  war="${WAR:-target/eureka.war}"
  label="embedded Payara"
  admin="bench-admin:bench-admin-pw"
  # shellcheck disable=SC2086
  java $flags $heap -Dport="$mport" -Dpayara.domain.xml=target/test-classes/payara-embedded/domain-1.xml \
    -Dmuster.users=bench-admin:bench-admin-pw:eureka-admin \
    -cp "$payara_jar" src/test/java/io/muster/dev/RunEmbedded.java "$war" > "$out/muster.log" 2>&1 &
  mpid=$!
else
  # shellcheck source=bench/tomcat.sh
  . "$root/bench/tomcat.sh"
  war="${WAR:-target/eureka.war}"
  [ -f "$war" ] || mvn -q -B -DskipTests package
  label="Tomcat $(basename "$(tomcat_home)" | sed 's/apache-tomcat-//')"
  admin="admin:CHANGE-ME-admin"
  # every load comes from this one machine: lift the per-client shares that protect real clusters
  CANNED=1 HEAP="$heap" MUSTER_OPTS="${MUSTER_OPTS:--Deureka.server.maxClientHeapPercent=100 -Deureka.server.largeWrites.maxOpenPerClient=1000 -Deureka.server.changes.maxOpenPerClient=2000}" tomcat_start "$war" "$mport"
  muster_log="$tomcat_base/logs"
  mpid=$tomcat_pid
fi
echo "Muster WAR: \`$war\` (sha256 $(sha256sum "$war" | cut -c1-12)), ids: $ids" > "$out/war.txt"

wait_up() {
  for _ in $(seq 1 240); do
    curl -sf -o /dev/null "http://127.0.0.1:$1/eureka/apps/" && return 0
    sleep 0.5
  done
  echo "server on port $1 did not start" >&2; exit 1
}
wait_up "$mport"
wait_up "$aport"
echo "muster pid $mpid on $mport, anchor pid $apid on $aport, heap: $heap"

lt() {   # lt NAME PORT PID SCENARIO ARGS...
  local name=$1 port=$2 pid=$3; shift 3
  java bench/LoadTool.java "$@" --ids "$ids" --url "http://127.0.0.1:$port/eureka/" --pid "$pid" 2>>"$out/loadtool.err" \
    | sed -n 's/^RESULT //p' >> "$out/$name.jsonl" || echo "scenario $* failed on $name (see $out/loadtool.err)" >&2
}
memory() {   # memory NAME PID TAG
  jcmd "$2" GC.run > /dev/null
  sleep 1
  local used rss
  used=$(jcmd "$2" GC.heap_info | sed -n 's/.*total [0-9]*K, used \([0-9]*\)K.*/\1/p' | head -1)
  rss=$(sed -n 's/^VmRSS:[^0-9]*\([0-9]*\) kB/\1/p' "/proc/$2/status")
  echo "{\"memory_${3}_heap_used_mb\":$((used / 1024)),\"memory_${3}_rss_mb\":$((rss / 1024))}" >> "$out/$1.jsonl"
}
full_gcs() {   # full_gcs PID: the collector's count of full (stop-the-world whole-heap) collections so far
  jstat -gc "$1" | awk 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "FGC") c = i } NR == 2 { print $c }'
}
oome_count() {   # oome_count muster|anchor: OutOfMemoryErrors in that server's log
  local log="$out/anchor.log"
  [ "$1" = muster ] && log="${muster_log:-$out/muster.log}"
  grep -rh OutOfMemoryError "$log" 2>/dev/null | wc -l
}
both() {   # both TAG ARGS... : the same scenario against each server, Muster first, then the anchor
  wanted "$1" || return 0
  shift
  lt muster "$mport" "$mpid" "$@"
  lt anchor "$aport" "$apid" "$@"
}
rounds() {   # rounds TAG ARGS... : as both, ROUNDS times back to back on each server; the report keeps the quietest
  wanted "$1" || return 0
  shift
  for _ in $(seq "$ROUNDS"); do lt muster "$mport" "$mpid" "$@"; done
  for _ in $(seq "$ROUNDS"); do lt anchor "$aport" "$apid" "$@"; done
}
warm() {   # warm PORT ARGS... : load whose figures are thrown away
  local port=$1; shift
  java bench/LoadTool.java "$@" --ids "$ids" --url "http://127.0.0.1:$port/eureka/" > /dev/null 2>>"$out/loadtool.err"
}

memory muster "$mpid" idle
memory anchor "$apid" idle
echo "warming up both servers the same way (JIT)..."
for _ in $(seq "$WARM_REGISTERS"); do
  warm "$mport" register --instances "$n" --apps "$apps" --concurrency 16
  warm "$aport" register --instances "$n" --apps "$apps" --concurrency 16
done
for port in "$mport" "$aport"; do
  warm "$port" renew --instances "$n" --apps "$apps" --seconds 15 --concurrency 16
  warm "$port" renew --instances "$n" --apps "$apps" --seconds 10 --concurrency 16 --encode-ids
done
if wanted fetch || wanted mixed || wanted propagation; then
  for port in "$mport" "$aport"; do
    warm "$port" fetch --kind gzip --seconds 10 --concurrency 8
    warm "$port" fetch --kind delta --seconds 10 --concurrency 8
  done
fi
if wanted floor && [ "$target" != payara ]; then
  warm "$mport" fetch --kind floor --seconds 5 --concurrency 16
fi
if wanted mixed; then   # the churn paths (delta rebuilds under registrations) get compiled before they are measured
  for port in "$mport" "$aport"; do
    warm "$port" mixed --instances "$n" --apps "$apps" --renew-every 3 --fetchers 100 --fetch-every 3 --churn 100 --seconds 20 --concurrency 16
  done
fi

echo "measuring..."
rounds register register --instances "$n" --apps "$apps" --concurrency 16
memory muster "$mpid" after_10k
memory anchor "$apid" after_10k
both renew renew --instances "$n" --apps "$apps" --seconds 20 --concurrency 16
both renew-encoded renew --instances "$n" --apps "$apps" --seconds 20 --concurrency 16 --encode-ids
both fetch fetch --kind gzip --seconds 15 --concurrency 8
both fetch fetch --kind full --seconds 10 --concurrency 4
both fetch fetch --kind delta --seconds 15 --concurrency 8
if wanted floor && [ "$target" != payara ]; then
  lt muster "$mport" "$mpid" fetch --kind floor --seconds 15 --concurrency 16
  # at the heartbeat rate of the mixed scenario: what any request costs the container at that rate
  lt muster "$mport" "$mpid" fetch --kind floor --seconds 20 --concurrency 16 --rate "$(( n / 3 ))" --label floor_paced
  both renew-paced renew --instances "$n" --apps "$apps" --seconds 20 --concurrency 16 --rate "$(( n / 3 ))" --label renew_paced
fi
wanted ceiling && lt muster "$mport" "$mpid" fetch --kind ceiling --seconds 15 --concurrency 16
churn=(--instances "$n" --apps "$apps" --renew-every 3 --fetchers 100 --fetch-every 3 --churn 100 --seconds 30 --concurrency 16)
rounds mixed mixed "${churn[@]}"
if wanted mixed && wanted floor && [ "$target" != payara ]; then
  # the churn floor: the same mix answered by a web application that does nothing (bench/canned), on the same
  # Tomcat, with the delta Muster served at the end of its own churn rounds
  curl -sf -H 'Accept: application/json' -H 'Accept-Encoding: gzip' "http://127.0.0.1:$mport/eureka/apps/delta" \
    -o "$tomcat_base/webapps/canned/WEB-INF/delta.json.gz"
  for _ in $(seq "$ROUNDS"); do
    java bench/LoadTool.java mixed "${churn[@]}" --no-setup --label mixed_canned --ids "$ids" \
      --url "http://127.0.0.1:$mport/canned/" --pid "$mpid" 2>>"$out/loadtool.err" | sed -n 's/^RESULT //p' >> "$out/muster.jsonl"
  done
fi
both propagation propagation --trials "${TRIALS:-3}" --max-wait 60 --admin "$admin"
if named big; then   # 100,000 instances, renewals every 30 s, 200 delta pollers, 2 %/min churn: right after its burst
  for side in muster anchor; do
    if [ $side = muster ]; then port=$mport; pid=$mpid; else port=$aport; pid=$apid; fi
    fgc0=$(full_gcs "$pid")
    lt $side "$port" "$pid" mixed --label big --instances "${BIG_INSTANCES:-100000}" --apps "$(( ${BIG_INSTANCES:-100000} / 20 ))" \
      --renew-every 30 --fetchers 200 --fetch-every 30 --churn "$(( ${BIG_INSTANCES:-100000} / 3000 ))" \
      --seconds "${BIG_SECONDS:-60}" --concurrency 32
    echo "{\"big_full_gcs\":$(( $(full_gcs "$pid") - fgc0 )),\"big_oome_in_log\":$(oome_count $side)}" >> "$out/$side.jsonl"
    memory $side "$pid" after_big
  done
fi
if [ "${1:-}" = "--with-evict" ]; then
  both evict evict --instances 200 --apps 10 --dead-fraction 0.1 --lease 10 --seconds 300
fi
memory muster "$mpid" end
memory anchor "$apid" end

{ cat "$out/war.txt"; echo; java bench/Report.java "$out/muster.jsonl" "$out/anchor.jsonl" "$heap" "$label"; } > "$out/report.md"
cat "$out/report.md"
