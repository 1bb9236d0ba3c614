#!/bin/bash
# Instructions per solver node, a speed measure that does not depend on the
# machine's load: cachegrind counts the instructions (Ir) of BIN answering
# every question of a regression file under a node limit, once at NODES and
# once at 1 node, and the difference over the nodes is the cost of a node
# with the setup (loadsgf, tables) taken out. Deterministic: the time limit
# is set far away, since valgrind runs some fifty times slower.
#
#   tests/tools/irpernode.sh BIN ALGO NODES FILE.tst
#
# FILE.tst is read from ../shared/regression (beside the repository), where
# its `loadsgf` paths resolve. Needs valgrind and bc.
set -euo pipefail
bin=$(realpath "$1"); algo=$2; nodes=$3; file=$4
cd "$(dirname "$0")/../../../shared/regression"
run() { # NODES -> "Ir nodes"
  local err; err=$(mktemp)
  local out
  out=$( (echo "tesuji-solver_limits algo=$algo nodes=$1 time=100000"
          grep -v '^#' "$file" |
            awk '{print} /^[0-9]+ +(attack|defend|ladder_attack|solve)/{print "tesuji-solver_stats"}'
          echo quit) |
        valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$bin" 2>"$err")
  local ir; ir=$(grep "I *refs" "$err" | awk '{print $NF}' | tr -d ,)
  rm -f "$err"
  local n; n=$(echo "$out" | grep -o "^= nodes=[0-9]*" | cut -d= -f3 | paste -sd+ | bc)
  echo "$ir $n"
}
read -r ir1 n1 < <(run 1)
read -r irn nn < <(run "$nodes")
echo "$file $algo: Ir $ir1 at 1 node ($n1 nodes), $irn at $nodes ($nn nodes)"
echo "Ir per node: $(echo "scale=1; ($irn - $ir1) / ($nn - $n1)" | bc)"
