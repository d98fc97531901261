#!/usr/bin/env bash
# Simulator scaling benchmark of issue 16 (not part of the build or the tests): events/s of SQ(2),
# lambda = 0.9, exponential, one thread, for N = 1e3 ... 1e7 on both engines (mflb's
# SimulationBenchmark scaling, interleaved agent/occupancy pairs), against the reference C loop
# (sq2_loop.c, gcc -O3) at N = 1e3, measured in the same rounds: each round runs the C loop, then one
# JVM with every Java case, then the C loop again, so that the machine's drift (+-15% between JVM
# launches on shared VMs) hits both sides of each ratio alike. Prints every round and the ratios
# (Java events/s at N over the C loop's at N = 1e3, mean of the two C runs around it).
# usage: bench/engines.sh [rounds]   (default 3; about a minute per round)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:-3}"
cc="$(mktemp -d)/sq2_loop"
gcc -O3 -o "$cc" "$root/bench/sq2_loop.c" -lm
jar="${MFLB_JAR:-$root/cli/target/mflb.jar}"
[ -f "$jar" ] || (cd "$root" && mvn -q -B -DskipTests package >&2)
# the C loop's wall and CPU rates ("wall cpu"), 5e7 events
c_rate() { "$cc" 1000 50000000 | awk '{print $4, $5}'; }
for r in $(seq 1 "$rounds"); do
  read -r bw bc < <(c_rate)
  java_out=$(java -cp "$jar" org.mflb.simulation.SimulationBenchmark 1 scaling)
  read -r aw ac < <(c_rate)
  cw=$(awk -v a="$bw" -v b="$aw" 'BEGIN{printf "%.4g", (a+b)/2}')
  cc_=$(awk -v a="$bc" -v b="$ac" 'BEGIN{printf "%.4g", (a+b)/2}')
  echo "round $r: C loop N=1e3 before/after: wall $bw, $aw events/s (mean $cw); CPU $bc, $ac (mean $cc_)"
  echo "$java_out" | sed 's/^/  /'
  # Java median wall and CPU rates (M events/s) over the C loop's, both measured in this round
  echo "$java_out" | awk -v cw="$cw" -v cc="$cc_" '/exp queues/ {
      name = substr($0, 1, index($0, "median") - 1); w = $0; sub(/.*median +/, "", w); split(w, f, " ");
      c = $0; sub(/.*\), +/, "", c); split(c, g, " ");
      printf "  ratio %-46s wall %.3f, CPU %.3f of the C loop at N=1e3\n", name, f[1] * 1e6 / cw, g[1] * 1e6 / cc }'
done
