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
jar="${MFLB_JAR:-$root/validation/target/mflb.jar}"
[ -f "$jar" ] || (cd "$root" && mvn -q -B -DskipTests package >&2)
c_rate() { "$cc" 1000 50000000 | awk '{print $4}'; }
for r in $(seq 1 "$rounds"); do
  before=$(c_rate)
  java_out=$(java -cp "$jar" org.mflb.simulation.SimulationBenchmark 1 scaling)
  after=$(c_rate)
  c=$(awk -v a="$before" -v b="$after" 'BEGIN{printf "%.4g", (a+b)/2}')
  echo "round $r: C loop N=1e3: $before, $after events/s (mean $c)"
  echo "$java_out" | sed 's/^/  /'
  echo "$java_out" | awk -v c="$c" -F'median' '/exp queues/ {
      split($2, f, " "); printf "  ratio %-46s wall %.3f of the C loop at N=1e3\n", $1, f[1] * 1e6 / c }'
done
