#!/usr/bin/env bash
# Compares the command-line outputs of a git revision with those of the working tree, byte for byte.
#
#   scripts/compare-outputs.sh REV            # e.g. main, 9fa1ab2
#   scripts/compare-outputs.sh REV --keep     # keep the output directory (printed at the end)
#
# Builds the application jar (cli/target/mflb.jar, validation/target/mflb.jar before the cli module) of REV (in a temporary git worktree) and of the working tree
# (in place), runs the fixed list of commands below with each jar (fixed points and transients for
# every system x policy, --refined, every --format, invalid inputs, short seeded simulate and
# compare runs), and diffs stdout, stderr and exit code of each. Exit 0 iff nothing differs.
# What measures the machine (events per second, elapsed seconds) is the only thing left out of the diff.
set -euo pipefail
rev="${1:?usage: scripts/compare-outputs.sh REV [--keep]}"
keep="${2:-}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/mflb-compare.XXXXXX")"
base="$work/base"
cleanup() {
  git -C "$root" worktree remove --force "$base" >/dev/null 2>&1 || true
  if [ "$keep" != "--keep" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT

echo "compare: building $rev" >&2
git -C "$root" worktree add --detach "$base" "$rev" >/dev/null 2>&1
(cd "$base" && mvn -q -B -o -DskipTests package >&2)
echo "compare: building the working tree" >&2
(cd "$root" && mvn -q -B -o -DskipTests package >&2)
application_jar() { # the cli module's jar, or validation's in revisions before the cli module
  if [ -f "$1/cli/target/mflb.jar" ]; then echo "$1/cli/target/mflb.jar"; else echo "$1/validation/target/mflb.jar"; fi
}
cp "$(application_jar "$base")" "$work/before.jar"
cp "$(application_jar "$root")" "$work/after.jar"

# One command per line: arguments of mflb, run in $work/run (files written there, e.g. plots, stay there).
commands() {
  local s
  for f in json table csv; do
    for s in supermarket pools; do
      echo "fixed-point --system $s --policy random --lambda 0.7 --format $f"
      echo "fixed-point --system $s --policy sqd --d 2 --lambda 0.9 --format $f"
      echo "fixed-point --system $s --policy sqd --d 3 --lambda 0.95 --sampling distinct --n 50 --format $f"
      echo "fixed-point --system $s --policy jsq --lambda 0.8 --format $f"
      echo "fixed-point --system $s --policy jiq --lambda 0.8 --format $f"
      echo "transient --system $s --policy sqd --d 2 --lambda 0.9 --t-end 4 --dt 1 --format $f"
      echo "transient --system $s --policy random --lambda 0.8 --t-end 3 --dt 0.5 --init all:3 --format $f"
      echo "transient --system $s --policy jsq --lambda 0.9 --t-end 5 --dt 0.5 --format $f"
      echo "transient --system $s --policy jiq --lambda 0.9 --t-end 5 --dt 0.5 --init all:2 --format $f"
    done
    echo "fixed-point --system pools --policy sqd --d 2 --lambda 2.5 --format $f"
    echo "fixed-point --system pools --policy jsq --lambda 2.5 --format $f"
    echo "fixed-point --system pools --policy jiq --lambda 2.5 --format $f"
    echo "fixed-point --system pools --policy threshold --threshold 2 --lambda 2.5 --format $f"
    echo "fixed-point --system pools --policy threshold --threshold 4 --lambda 2.5 --format $f"
    echo "fixed-point --system pools --policy threshold --threshold 1 --lambda 2.5 --format $f"
    echo "fixed-point --system pools --policy threshold --threshold 3 --lambda 3 --format $f"
    echo "fixed-point --system pools --policy adaptive-threshold --alpha 0.9 --lambda 2.5 --format $f"
    echo "fixed-point --system pools --policy adaptive-threshold --alpha 0.5 --initial-threshold 3 --lambda 1.5 --format $f"
    echo "fixed-point --system loss --capacity 5 --policy random --lambda 3 --format $f"
    echo "fixed-point --system loss --capacity 4 --policy sqd --d 2 --lambda 3.5 --format $f"
    echo "fixed-point --system loss --capacity 4 --policy sqd --d 2 --lambda 3.5 --sampling distinct --n 20 --format $f"
    echo "fixed-point --system supermarket --policy sqd --d 2 --lambda 0.9 --truncation 12 --format $f"
    echo "fixed-point --system supermarket --policy sqd --d 2 --lambda 0.99 --tail-tolerance 1e-8 --format $f"
    echo "fixed-point --system supermarket --policy sqd --d 2 --lambda 0.9 --refined 10,50 --order 2 --format $f"
    echo "fixed-point --system supermarket --policy sqd --d 2 --lambda 0.9 --sampling distinct --n 20 --refined 20 --format $f"
    echo "fixed-point --system pools --policy sqd --d 2 --lambda 2.5 --refined 10,100 --format $f"
    echo "fixed-point --system loss --capacity 4 --policy sqd --d 2 --lambda 3 --refined 10 --format $f"
    echo "transient --system pools --policy sqd --d 2 --lambda 2.5 --t-end 4 --dt 1 --init all:4 --format $f"
    echo "transient --system pools --policy threshold --threshold 2 --lambda 2.5 --t-end 6 --dt 0.5 --format $f"
    echo "transient --system pools --policy threshold --threshold 1 --lambda 2.5 --t-end 4 --dt 1 --init all:4 --format $f"
    echo "transient --system pools --policy adaptive-threshold --alpha 0.9 --lambda 2.5 --t-end 3 --dt 0.5 --format $f"
    echo "transient --system pools --policy adaptive-threshold --alpha 0.7 --initial-threshold 4 --lambda 2.2 --t-end 8 --dt 1 --init all:5 --format $f"
    echo "transient --system pools --policy jsq --lambda 2.5 --t-end 4 --dt 0.5 --init fixed-point --format $f"
    echo "transient --system pools --policy threshold --threshold 2 --lambda 2.5 --t-end 2 --dt 0.5 --init tail:1,0.9,0.5,0.1 --format $f"
    echo "transient --system pools --policy threshold --threshold 2 --lambda 2.5 --t-end 3 --dt 1 --truncation 15 --format $f"
    echo "transient --system pools --policy jiq --lambda-profile profile.csv --t-end 6 --dt 1 --format $f"
    echo "transient --system pools --policy sqd --d 2 --lambda-profile profile.csv --t-end 6 --dt 1 --format $f"
    echo "transient --system loss --capacity 5 --policy sqd --d 2 --lambda 4 --t-end 3 --dt 0.5 --format $f"
    echo "transient --system loss --capacity 5 --policy random --lambda 4 --t-end 3 --dt 1 --init fixed-point --format $f"
    echo "transient --system supermarket --policy sqd --d 2 --lambda 0.9 --t-end 3 --dt 1 --init fixed-point --format $f"
    echo "transient --system supermarket --policy sqd --d 2 --lambda 0.9 --t-end 3 --dt 1 --refined 10,50 --order 2 --format $f"
    echo "transient --system pools --policy sqd --d 2 --lambda 2 --t-end 2 --dt 1 --sampling distinct --n 20 --refined 20 --format $f"
    echo "transient --system supermarket --policy sqd --d 2 --lambda 0.9 --t-end 2 --dt 1 --truncation 10 --format $f"
    # SQ(d) with memory (issue 11 part 2): outputs of revisions before it differ here, as they should
    echo "fixed-point --system supermarket --policy memory --d 2 --lambda 0.9 --format $f"
    echo "fixed-point --system supermarket --policy memory --d 3 --lambda 0.6 --format $f"
    echo "transient --system supermarket --policy memory --d 2 --lambda 0.9 --t-end 4 --dt 1 --init memory:0/3=0.5,3/3=0.5 --format $f"
    echo "transient --system supermarket --policy memory --d 2 --lambda-profile profile.csv --t-end 6 --dt 1 --format $f"
  done
  for f in json table; do
    echo "simulate --system supermarket --policy sqd --d 2 --lambda 0.9 --n 100 --t-end 200 --replications 2 --seed 7 --format $f"
    # (not a threshold policy: before SimulationResult kept the dispatcher's order, its statistics
    # meanThreshold and messagesPerTask came out in an order that changed from run to run)
    echo "simulate --system pools --policy jsq --lambda 2.5 --n 100 --t-end 50 --dt 10 --replications 2 --seed 3 --format $f"
    echo "compare --system supermarket --policy sqd --d 2 --lambda 0.8 --n 200 --t-end 300 --replications 2 --seed 5 --format $f"
    echo "compare --system pools --policy sqd --d 3 --lambda 5 --n 200 --t-end 4 --dt 1 --init all:8 --replications 2 --seed 5 --format $f"
    echo "compare --system loss --capacity 4 --policy random --lambda 3 --n 100 --t-end 200 --replications 2 --seed 9 --format $f"
    echo "diffusion --system supermarket --policy sqd --d 2 --lambda 0.8 --n 200 --levels 3 --format $f"
    echo "simulate --system supermarket --policy memory --d 2 --lambda 0.9 --n 100 --t-end 20 --dt 5 --init memory:0/3=0.5,3/3=0.5 --replications 2 --seed 3 --format $f"
    echo "compare --system supermarket --policy memory --d 2 --lambda 0.8 --n 200 --t-end 300 --replications 2 --seed 5 --format $f"
  done
  # invalid inputs: the same single line and exit code
  echo "fixed-point --system supermarket --policy sqd --lambda 1.2"
  echo "fixed-point --system supermarket --policy jsq --lambda 1.0"
  echo "fixed-point --system loss --capacity 3 --policy jsq --lambda 1"
  echo "fixed-point --system supermarket --policy threshold --threshold 2 --lambda 0.5"
  echo "fixed-point --system supermarket --policy adaptive-threshold --alpha 0.5 --lambda 0.5"
  echo "fixed-point --system pools --policy jsq --lambda 2 --refined 10"
  echo "fixed-point --system pools --policy jsq --lambda 2 --d 2"
  echo "fixed-point --system pools --policy threshold --lambda 2"
  echo "fixed-point --system pools --policy adaptive-threshold --lambda 2"
  echo "fixed-point --system pools --policy sqd --threshold 2 --lambda 2"
  echo "fixed-point --system pools --policy jiq --sampling distinct --n 10 --lambda 2"
  echo "fixed-point --system pools --policy random --d 2 --lambda 2"
  echo "fixed-point --system pools --policy sqd --sampling distinct --lambda 2"
  echo "fixed-point --system pools --policy threshold --threshold -1 --lambda 2"
  echo "fixed-point --system pools --policy adaptive-threshold --alpha 1.5 --lambda 2"
  echo "fixed-point --system pools --policy jsq --lambda 2 --capacity 3"
  echo "fixed-point --system pools --policy jsq"
  echo "transient --system pools --policy jsq --lambda 2 --t-end 2 --dt 1 --refined 10"
  echo "transient --system pools --policy threshold --threshold 2 --lambda 2 --t-end 2 --dt 1 --init all:9 --truncation 5"
  echo "transient --system loss --capacity 3 --policy threshold --threshold 1 --lambda 2 --t-end 2 --dt 1"
  echo "transient --system supermarket --policy jsq --lambda 0.5 --t-end 2 --dt 1 --lambda-profile profile.csv"
  echo "compare --system pools --policy jsq --lambda 2 --n 100"
  echo "diffusion --system pools --policy threshold --threshold 2 --lambda 2 --n 100"
  echo "fixed-point --system pools --policy memory --lambda 0.5"
  echo "transient --system supermarket --policy memory --lambda 0.5 --t-end 1 --dt 1 --init memory:2/1=1"
  # one model option group (issue 24): outputs of revisions before it differ here, as they should
  echo "simulate --system pools --policy threshold --lambda 4 --n 50 --t-end 5"
  echo "fixed-point --system supermarket --policy sqd --lambda 0.5 --service lognormal:scv=4"
  echo "compare --system pools --policy sqd --d 2 --lambda-profile profile.csv --n 100 --t-end 4 --dt 2 --replications 2 --seed 5 --format json --quiet"
  echo "compare --system loss --capacity 4 --policy random --lambda 3 --service det --n 100 --t-end 200 --replications 2 --seed 9 --format json --quiet"
  echo "sweep fixed-point --system supermarket --policy sqd,jsq,random --lambda 0.5,0.9 --format csv --quiet"
  echo "sweep simulate --system supermarket --policy sqd --service exp,lognormal:scv=4,mean=1 --lambda 0.5 --n 20 --t-end 50 --replications 2 --quiet"
}

run_all() {
  local jar="$1" out="$2" i=0
  mkdir -p "$out" "$work/run"
  printf 't,lambda\n0,2.0\n3,3.2\n6,1.5\n' > "$work/run/profile.csv"
  while IFS= read -r line; do
    i=$((i + 1))
    local name; name=$(printf '%03d' "$i")
    # shellcheck disable=SC2086
    (cd "$work/run" && java -Xss8m -Djava.awt.headless=true -jar "$jar" $line \
        >"$out/$name.out" 2>"$out/$name.err"; echo "exit $?" >"$out/$name.rc") || true
    # the only machine-dependent output: throughput figures and elapsed times ("figure: x.png (2.8 s)",
    # "(3.7 s)", progress lines on stderr "... done (0.7 s)")
    sed -i -E '/events\/s|eventsPerSecond|million events/d; s/\([0-9]+\.[0-9]+ s\)$/(elapsed)/' "$out/$name.out"
    sed -i -E 's/\([0-9]+\.[0-9]+ s\)$/(elapsed)/' "$out/$name.err"
    echo "$line" >"$out/$name.cmd"
  done < <(commands)
  echo "$i"
}

echo "compare: running the commands with $rev" >&2
n=$(run_all "$work/before.jar" "$work/before")
echo "compare: running the commands with the working tree" >&2
run_all "$work/after.jar" "$work/after" >/dev/null
different=0
for cmd in "$work"/before/*.cmd; do
  name=$(basename "$cmd" .cmd)
  for ext in out err rc; do
    if ! cmp -s "$work/before/$name.$ext" "$work/after/$name.$ext"; then
      echo "DIFFERS ($ext): mflb $(cat "$cmd")"
      diff "$work/before/$name.$ext" "$work/after/$name.$ext" | head -20 || true
      different=$((different + 1))
    fi
  done
done
if [ "$keep" = "--keep" ]; then echo "outputs kept in $work"; fi
if [ "$different" -eq 0 ]; then
  echo "compare: $n commands, outputs identical to $rev (stdout, stderr, exit code)"
else
  echo "compare: $different of $((3 * n)) outputs differ from $rev"
  exit 1
fi
