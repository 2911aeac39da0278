#!/usr/bin/env bash
# Muster (embedded Payara) against the stock Spring Cloud Netflix Eureka server (../shared/anchor), same heap,
# same machine, same scenarios, alternating. Writes target/bench/report.md and prints it.
#
#   bench/compare.sh                 # about 6 minutes
#   bench/compare.sh --with-evict    # adds the eviction scenario (several more minutes)
#   HEAP="-Xms512m -Xmx2g" INSTANCES=20000 bench/compare.sh
#   SCENARIOS="mixed propagation" bench/compare.sh   # only these (after the same warm-up)
#
# Only the two server processes this script starts are stopped, by their PIDs. Loopback only.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
heap="${HEAP:--Xms256m -Xmx1g}"
n="${INSTANCES:-10000}"
apps="${APPS:-500}"
mport="${MUSTER_PORT:-18931}"
aport="${ANCHOR_PORT:-18932}"
anchor_dir="${ANCHOR_DIR:-$root/../shared/anchor}"
out="$root/target/bench"
mkdir -p "$out"
rm -f "$out"/*.jsonl

# shellcheck source=bench/embedded.sh
. "$root/bench/embedded.sh"
"$anchor_dir/run.sh" --build-only

# shellcheck disable=SC2086
java $flags $heap -Dport="$mport" -Dpayara.domain.xml=target/test-classes/payara-embedded/domain.xml \
  -Dmuster.users=bench-admin:bench-admin-pw:eureka-admin \
  -cp "$payara_jar" src/test/java/io/muster/dev/RunEmbedded.java target/eureka.war > "$out/muster.log" 2>&1 &
mpid=$!
JAVA_OPTS="$heap" "$anchor_dir/run.sh" "$aport" --logging.level.root=WARN > "$out/anchor.log" 2>&1 &
apid=$!
trap 'kill $mpid $apid 2>/dev/null; wait $mpid $apid 2>/dev/null || true' EXIT

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
  java bench/LoadTool.java "$@" --url "http://127.0.0.1:$port/eureka/" --pid "$pid" 2>>"$out/loadtool.err" \
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
both() {   # both ARGS... : the same scenario against each server, Muster first, then the anchor
  wanted "$1" || return 0
  lt muster "$mport" "$mpid" "$@"
  lt anchor "$aport" "$apid" "$@"
}
wanted() { [ -z "${SCENARIOS:-}" ] || [[ " $SCENARIOS " == *" $1 "* ]]; }

memory muster "$mpid" idle
memory anchor "$apid" idle
echo "warming up both servers the same way (JIT)..."
for _ in 1 2; do
  java bench/LoadTool.java register --instances "$n" --apps "$apps" --concurrency 16 --url "http://127.0.0.1:$mport/eureka/" > /dev/null
  java bench/LoadTool.java register --instances "$n" --apps "$apps" --concurrency 16 --url "http://127.0.0.1:$aport/eureka/" > /dev/null
done
for kind in renew; do
  for port in "$mport" "$aport"; do
    java bench/LoadTool.java renew --instances "$n" --apps "$apps" --seconds 25 --concurrency 16 --url "http://127.0.0.1:$port/eureka/" > /dev/null
  done
done
for port in "$mport" "$aport"; do
  java bench/LoadTool.java fetch --kind gzip --seconds 10 --concurrency 8 --url "http://127.0.0.1:$port/eureka/" > /dev/null
  java bench/LoadTool.java fetch --kind delta --seconds 10 --concurrency 8 --url "http://127.0.0.1:$port/eureka/" > /dev/null
done

echo "measuring..."
both register --instances "$n" --apps "$apps" --concurrency 16
memory muster "$mpid" after_10k
memory anchor "$apid" after_10k
both renew --instances "$n" --apps "$apps" --seconds 20 --concurrency 16
both fetch --kind gzip --seconds 15 --concurrency 8
both fetch --kind full --seconds 10 --concurrency 4
both fetch --kind delta --seconds 15 --concurrency 8
wanted ceiling && lt muster "$mport" "$mpid" fetch --kind ceiling --seconds 15 --concurrency 16
both mixed --instances "$n" --apps "$apps" --renew-every 3 --fetchers 100 --fetch-every 3 --churn 100 --seconds 30 --concurrency 16
both propagation --trials "${TRIALS:-3}" --max-wait 60 --admin bench-admin:bench-admin-pw
if [ "${1:-}" = "--with-evict" ]; then
  both evict --instances 200 --apps 10 --dead-fraction 0.1 --lease 10 --seconds 300
fi
memory muster "$mpid" end
memory anchor "$apid" end

java bench/Report.java "$out/muster.jsonl" "$out/anchor.jsonl" "$heap" > "$out/report.md"
cat "$out/report.md"
