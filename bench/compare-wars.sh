#!/usr/bin/env bash
# Several builds of Muster on Tomcat, each against the anchor in its own bench/compare.sh run, alternating, so
# that a change can be judged against its spread. Writes target/bench/wars/ROUND-LABEL/ (each run's report.md and
# RESULT lines) and target/bench/wars/summary.md, and prints the summary.
#
#   bench/compare-wars.sh base=/work/wt-base/target/eureka.war current=target/eureka.war
#   ROUNDS=3 SCENARIOS="renew renew-encoded floor register" bench/compare-wars.sh a=A.war b=B.war
#
# Defaults: ROUNDS=2, SCENARIOS="renew renew-encoded floor" (about 3 minutes a run on 2 cores). Other variables
# (HEAP, INSTANCES, TARGET, ports) pass through to bench/compare.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
[ $# -ge 1 ] || { echo "usage: $0 LABEL=WAR [LABEL=WAR ...]" >&2; exit 2; }
rounds="${ROUNDS:-2}"
export SCENARIOS="${SCENARIOS:-renew renew-encoded floor}"
dir="$root/target/bench/wars"
rm -rf "$dir"
mkdir -p "$dir"

val() { sed -n "s/.*\"$2\":\([-0-9.E]*\).*/\1/p" "$1" | head -1; }
row() {   # row ROUND LABEL DIR
  local m="$3/muster.jsonl" a="$3/anchor.jsonl" k
  printf '| %s | %s |' "$2" "$1"
  for k in renew renew_encoded; do
    printf ' %s | %s | %s |' "$(val "$m" ${k}_per_second)" "$(val "$m" ${k}_server_cpu_us_per_request)" "$(val "$m" ${k}_p99_ms)"
  done
  printf ' %s | %s |' "$(val "$m" fetch_floor_per_second)" "$(val "$m" fetch_floor_server_cpu_us_per_request)"
  for k in renew renew_encoded; do
    printf ' %s / %s |' "$(val "$a" ${k}_per_second)" "$(val "$a" ${k}_server_cpu_us_per_request)"
  done
  echo
}

{
  echo "Muster on Tomcat vs the anchor, one bench/compare.sh run per row (SCENARIOS=\"$SCENARIOS\"), $(date -u +%F)."
  echo
  echo "| WAR | round | heartbeats/s | CPU µs | p99 ms | encoded-id heartbeats/s | CPU µs | p99 ms | floor req/s | floor CPU µs | anchor heartbeats/s / CPU µs | anchor encoded / CPU µs |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
} > "$dir/summary.md"
for r in $(seq 1 "$rounds"); do
  for pair in "$@"; do
    label="${pair%%=*}"
    war="${pair#*=}"
    echo "=== round $r: $label ($war)" >&2
    WAR="$war" "$root/bench/compare.sh" > "$dir/$r-$label.log" 2>&1 || { echo "run $r-$label failed, see $dir/$r-$label.log" >&2; continue; }
    mkdir -p "$dir/$r-$label"
    cp target/bench/muster.jsonl target/bench/anchor.jsonl target/bench/report.md target/bench/war.txt "$dir/$r-$label/"
    row "$r" "$label" "$dir/$r-$label" | tee -a "$dir/summary.md" >&2
  done
done
cat "$dir/summary.md"
