#!/usr/bin/env bash
# Every figure of docs/figures.md, in one command: runs each measurement of
# that page (and the slow-agent comparison), keeps each one's
# full output in a work directory, and prints one summary at the end.
# All traffic stays on 127.0.0.1. Takes several minutes on 2 cores.
#
#   scripts/perf.sh              # everything
#   SKIP_CI=1 scripts/perf.sh    # without `.ci/run` (the full test suite, ~90 s)
#   SKIP_SLOW=1 scripts/perf.sh  # without scripts/bench-slow.sh (serial vs parallel, minutes)
#   RUNS=3 TRIALS=200 DELAY=1s   # the defaults, passed to the bench scripts
#   BENCHTIME=1x                 # a dry run of the go benchmarks (figures meaningless)
#
# Benchmarks in packages the table does not list yet (a webhook deliveries/s
# benchmark, for one) are found and run too, so a new figure has a command.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
runs=${RUNS:-3}
trials=${TRIALS:-200}
delay=${DELAY:-1s}
# bt ARG: docs/figures.md's -benchtime, unless BENCHTIME overrides every one.
bt() { echo "-benchtime=${BENCHTIME:-$1}"; }
summary=$work/summary.txt
: >"$summary"

section() { printf '\n== %s\n' "$*"; printf '\n## %s\n' "$*" >>"$summary"; }
# run NAME CMD…: runs CMD, its output to the terminal and to $work/NAME.log.
run() {
  local name=$1; shift
  echo "\$ $*"
  "$@" 2>&1 | tee "$work/$name.log"
}
benchlines() { grep -E '^(Benchmark|ok|FAIL)' "$work/$1.log" | sed 's/^/  /' >>"$summary" || true; }

echo "perf: logs in $work"
go version | tee -a "$summary"
echo "cpus: $(getconf _NPROCESSORS_ONLN 2>/dev/null || echo '?')" | tee -a "$summary"

section "full run (discovery + lifecycle) against the embedded agent: wall time, LIFE-014 trials/s"
run bench-run scripts/bench-run.sh "$runs" "$trials"
sed 's/^/  /' "$work/bench-run.log" | grep -E '^\s+(run|[0-9])' >>"$summary" || true

section "full run: peak memory (resident set size)"
bin=$work/a2a-conform
go build -o "$bin" ./cmd/a2a-conform
if /usr/bin/time --version >/dev/null 2>&1; then
  /usr/bin/time -f '%e s wall, %M KiB peak RSS' -o "$work/time.txt" \
    "$bin" run --suite discovery,lifecycle --seed 1 --race-trials "$trials" --out "$work/mem-run" >/dev/null || true
  echo "  $(cat "$work/time.txt")" | tee -a "$summary"
elif /usr/bin/time -l true >/dev/null 2>&1; then   # BSD/macOS time
  /usr/bin/time -l "$bin" run --suite discovery,lifecycle --seed 1 --race-trials "$trials" \
    --out "$work/mem-run" >/dev/null 2>"$work/time.txt" || true
  echo "  $(grep -E 'maximum resident set size' "$work/time.txt")" | tee -a "$summary"
else
  echo "  no /usr/bin/time (GNU or BSD): peak memory not measured" | tee -a "$summary"
fi

if [ -z "${SKIP_SLOW:-}" ]; then
  section "slow agent (every step $delay): serial vs parallel"
  run bench-slow scripts/bench-slow.sh "$delay" 16 "$trials"
  sed 's/^/  /' "$work/bench-slow.log" | grep -E '^\s+(parallel|[0-9])' >>"$summary" || true
fi

if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  section "client suite against the JS SDK's client (a2a-interop/js-client; goal <= 30 s)"
  run bench-client scripts/bench-client.sh "$runs"
  grep -E '^(js-client|   slowest)' "$work/bench-client.log" | sed 's/^/  /' >>"$summary" || true
fi

section "decode + validate a large Task; schema validation alone"
run schemas go test ./schemas -run '^$' -bench . -benchmem "$(bt 1s)"
benchlines schemas

section "reference agent round trips/s (memory, SQLite, two instances on one SQLite)"
run fakes go test ./fakes -run '^$' -bench . "$(bt 3s)"
benchlines fakes

section "client GetTask, in-memory transport"
run client go test ./internal/client -run '^$' -bench . "$(bt 1s)"
benchlines client

section "recorder overhead per exchange"
run recorder go test ./internal/recorder -run '^$' -bench . "$(bt 1s)"
benchlines recorder

listed=" ./schemas ./fakes ./internal/client ./internal/recorder "
others=$(grep -rl --include='*_test.go' '^func Benchmark' . | xargs -n1 dirname | sort -u | sed 's|^\./||; s|^|./|')
for pkg in $others; do
  case "$listed" in *" $pkg "*) continue ;; esac
  name=other-$(echo "$pkg" | tr '/.' '__')
  section "other benchmarks: $pkg"
  run "$name" go test "$pkg" -run '^$' -bench . -benchmem "$(bt 1s)"
  benchlines "$name"
done
if ! grep -rqs --include='*_test.go' '^func Benchmark.*Deliver' internal/webhook suites 2>/dev/null; then
  echo "  webhook deliveries/s: no benchmark in this build (it comes with the webhook suite)" >>"$summary"
fi

if [ -z "${SKIP_CI:-}" ]; then
  section ".ci/run on this tree (vet, all tests, the proofs, -race)"
  start=$(date +%s)
  if bash .ci/run >"$work/ci.log" 2>&1; then result=green; else result="FAILED (see $work/ci.log)"; fi
  echo "  $(( $(date +%s) - start )) s, $result" | tee -a "$summary"
fi

printf '\n==================== summary (logs: %s)\n' "$work"
cat "$summary"
