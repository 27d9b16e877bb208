#!/usr/bin/env bash
# Runs every fuzz target of a -DLLSIM_FUZZ=ON build for SECONDS each (default 60), starting from
# a seed corpus made of the shipped scenarios, traces, broken inputs and tests/fuzz/seeds/,
# after replaying the
# inputs that once found a bug (tests/fuzz/regressions/<target>/). Fails on any crash, leak or
# timeout; a failing input is left in the current directory (crash-*, leak-*, timeout-*).
#   usage: tests/fuzz/run.sh BUILD_DIR [SECONDS [RUNS [TARGET...]]]
# RUNS: stop each target after that many executions as well (0: no limit); TARGETs: only these.
#   e.g. tests/fuzz/run.sh build-fuzz 0 10000000 fuzz_units     (10 M executions, however long)
# LLSIM_FUZZ_JOBS=N in the environment runs N processes per target on one shared corpus (libFuzzer's
# -jobs), each making RUNS/N executions (rounded up). LLSIM_FUZZ_TARGETS_AT_ONCE=N runs N targets
# side by side (default 1), each with its SECONDS: on N idle cores the whole run takes 1/N as long.
set -euo pipefail
build=$(realpath "$1")
seconds=${2:-60}
runs=${3:-0}
[ "$runs" != 0 ] || runs=-1  # libFuzzer's "no limit"
jobs=${LLSIM_FUZZ_JOBS:-1}
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "LLSIM_FUZZ_JOBS must be a positive integer, not '$jobs'" >&2; exit 2; }
at_once=${LLSIM_FUZZ_TARGETS_AT_ONCE:-1}
[[ "$at_once" =~ ^[1-9][0-9]*$ ]] ||
  { echo "LLSIM_FUZZ_TARGETS_AT_ONCE must be a positive integer, not '$at_once'" >&2; exit 2; }
[ "$runs" = -1 ] || runs=$(( (runs + jobs - 1) / jobs ))
targets=("${@:4}")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_units fuzz_scenario fuzz_task_trace fuzz_fault_trace fuzz_ingest_trace
  fuzz_mooncake_trace fuzz_azure_trace fuzz_burstgpt_trace fuzz_measurements fuzz_fault_events fuzz_dlio_config
  fuzz_vllm_config)
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d /tmp/llsim_fuzz_corpus.XXXXXX)
trap 'rm -rf "$work"' EXIT

seeds_for() {
  case "$1" in
    fuzz_units)       printf '%s\n' 10GB 2.5GBps 1us 50k/s 14TFlops 10M 0 1e30GB "-1s" "1 GiB" ;;
    # Not scenarios/bench/: sized to time the simulator (a million requests or tasks made at load),
    # their descendants took most of the executions' time; the same kinds of phase are in the others.
    fuzz_scenario)    ls "$root"/scenarios/*.yaml "$root"/scenarios/paper/*.yaml "$root"/tests/bad/*/*.yaml "$root"/tests/inputs/*.yaml ;;
    fuzz_task_trace)  ls "$root"/tests/fuzz/seeds/tasks.csv "$root"/tests/bad/tasks/*.csv ;;
    fuzz_fault_trace) ls "$root"/tests/inputs/*.csv "$root"/tests/bad/faults/*.csv ;;
    fuzz_ingest_trace) ls "$root"/tests/inputs/ingest_*.csv "$root"/tests/bad/ingest/*.csv ;;
    fuzz_mooncake_trace) ls "$root"/tests/fuzz/seeds/mooncake.jsonl ;;
    fuzz_azure_trace) ls "$root"/tests/fuzz/seeds/azure.csv ;;
    fuzz_burstgpt_trace) ls "$root"/tests/inputs/burstgpt_sample.csv ;;
    fuzz_measurements) ls "$root"/tests/fuzz/seeds/measurements_* ;;
    fuzz_fault_events) ls "$root"/tests/fuzz/seeds/fault_events_* ;;
    fuzz_dlio_config) ls "$root"/tests/inputs/dlio/*.yaml "$root"/tests/bad/dlio/configs/*.yaml \
      "$root"/tests/inputs/dlio_checkpoint/*.yaml "$root"/tests/bad/dlio_checkpoint/configs/*.yaml ;;
    fuzz_vllm_config) ls "$root"/tests/inputs/vllm_configs/*.yaml "$root"/tests/bad/serve/vllm_configs/*.yaml ;;
  esac
}

fuzz_target() {
  local target=$1
  corpus="$work/$target"
  mkdir -p "$corpus"
  if [ "$target" = fuzz_units ]; then
    i=0
    while read -r seed; do printf '%s' "$seed" > "$corpus/seed$i"; i=$((i + 1)); done < <(seeds_for "$target")
  else
    for f in $(seeds_for "$target"); do cp "$f" "$corpus/"; done
  fi
  regressions="$root/tests/fuzz/regressions/$target"
  if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
    echo "== $target: regressions"
    "$build/tests/fuzz/$target" "$regressions"/*
  fi
  echo "== $target: ${seconds} s (0: no limit), ${runs} executions per process (-1: no limit), $jobs process(es)"
  # With -jobs, libFuzzer writes each job's log to fuzz-<job>.log in the directory it runs in,
  # and copies it to its own output when the job ends.
  logs="$work/$target.logs"
  mkdir -p "$logs"
  flags=(-max_total_time="$seconds" -runs="$runs" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1
         -artifact_prefix="$(pwd)/")
  [ "$jobs" = 1 ] || flags+=(-jobs="$jobs" -workers="$jobs")
  if ! (cd "$logs" && "$build/tests/fuzz/$target" "$corpus" "${flags[@]}" > run.log 2>&1); then
    for log in "$logs"/fuzz-*.log "$logs/run.log"; do [ ! -f "$log" ] || tail -60 "$log"; done
    echo "$target failed: its input is in $(pwd)" >&2
    return 1
  fi
  grep -E "stat::number_of_executed_units|^#[0-9]+ +DONE|^Done [0-9]+ runs" "$logs/run.log"
}

# Each target's output goes to its own file, printed in the targets' order once it is done.
failed=0
for ((first = 0; first < ${#targets[@]}; first += at_once)); do
  batch=("${targets[@]:first:at_once}")
  pids=()
  for target in "${batch[@]}"; do
    fuzz_target "$target" > "$work/$target.out" 2>&1 &
    pids+=($!)
  done
  for i in "${!batch[@]}"; do
    status=0
    wait "${pids[$i]}" || status=$?
    cat "$work/${batch[$i]}.out"
    [ "$status" = 0 ] || failed=1
  done
  [ "$failed" = 0 ] || exit 1
done
