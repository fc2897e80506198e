#!/usr/bin/env bash
# The figures of docs/figures.md "Real deployments", through the
# process driver, as a vendor runs the harness:
#   js-1     every suite (the default run) against one JS SDK instance
#            (a2a-interop/js-agent, in-memory stores), as TestJSSDKAgent runs it;
#   js-3     --suite rollout,lifecycle against three JS SDK instances on the
#            SDK's database stores (one SQLite file), rolled to a next build,
#            as TestJSSDKAgentInstances runs it;
#   js-3-slow  the same with every step of the agent taking at least 500 ms
#            (agent.js --min-step-ms 500: a default task takes 1.5 s), the
#            speed figure of docs/figures.md;
#   slow-3s  every suite against the reference agent made slow: every step
#            DELAY (default 1s, so a task takes about 3 s), driven by the
#            prompt map instead of the directive, as an LLM agent would be;
#   slow-3s-x3  --suite rollout,lifecycle against three instances of that
#            slow reference agent on one SQLite store, rolled to a next
#            generation, so the rollout specs meet a slow agent too.
# For each run: wall time, verdicts, and the slowest specs by durationMs
# (report.json), after the machine's load average (the figures are only
# comparable at a similar load). Traffic stays on 127.0.0.1.
# Usage: scripts/bench-real.sh [RUNS] [DELAY] [TOP] [CASES]
#   RUNS of each case (default 1); TOP slowest specs listed (default 10);
#   CASES a comma-separated subset of js-1,js-3,js-3-slow,slow-3s,slow-3s-x3 (default
#   all four), e.g. `scripts/bench-real.sh 1 1s 12 slow-3s,js-1`.
# EXTRA in the environment adds `run` flags to every case, e.g.
#   EXTRA='--parallel 12' scripts/bench-real.sh 1 1s 12 slow-3s
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1}
delay=${2:-1s}
top=${3:-10}
cases=",${4:-js-1,js-3,js-3-slow,slow-3s,slow-3s-x3},"
for c in ${cases//,/ }; do
  case $c in js-1|js-3|js-3-slow|slow-3s|slow-3s-x3) ;; *) echo "bench-real: unknown case $c (want js-1, js-3, js-3-slow, slow-3s, slow-3s-x3)" >&2; exit 2 ;; esac
done
work=$(mktemp -d)
bin=$work/a2a-conform
go build -o "$bin" ./cmd/a2a-conform

node=
agent=$PWD/a2a-interop/js-agent/agent.js
if [[ $cases == *,js-* ]]; then
  command -v node >/dev/null && command -v npm >/dev/null || {
    echo "bench-real: node and npm are needed (apt-get install -y nodejs npm)" >&2
    exit 2
  }
  # npm ci only when the installed tree does not load (better-sqlite3 builds
  # from source where its prebuilt binary cannot be fetched: minutes).
  if ! (cd a2a-interop/js-agent && node -e 'await import("better-sqlite3"); await import("kysely"); await import("@a2a-js/sdk/server/database")' --input-type=module) >/dev/null 2>&1; then
    (cd a2a-interop/js-agent && npm ci --prefer-offline --no-audit --no-fund --loglevel=error)
  fi
  node=$(command -v node)
fi
sed -n '/^prompt-map:/,$p' examples/reference-prompt-map.yaml >"$work/prompt-map.yaml"

js1=("--agent-cmd" "'$node' '$agent' --port {port}" "--seed" "12")
js3cmd="'$node' '$agent' --port {port} --store {store} --name js-sdk-{instance}"
js3=("--suite" "rollout,lifecycle" "--agent-cmd" "$js3cmd" "--agent-cmd-next" "$js3cmd --card-version 1.{generation}.0" "--instances" "3" "--seed" "12")
js3slowcmd="$js3cmd --min-step-ms 500"
js3slow=("--suite" "rollout,lifecycle" "--agent-cmd" "$js3slowcmd" "--agent-cmd-next" "$js3slowcmd --card-version 1.{generation}.0" "--instances" "3" "--seed" "12")
slow=("--agent-cmd" "'$bin' fake --listen 127.0.0.1:{port} --delay $delay --prompt-map --no-directive" "--config" "$work/prompt-map.yaml" "--seed" "12")
slowcmd="'$bin' fake --listen 127.0.0.1:{port} --store sqlite:{store} --name slow-{instance} --generation {generation} --delay $delay --prompt-map --no-directive"
slow3=("--suite" "rollout,lifecycle" "--agent-cmd" "$slowcmd" "--agent-cmd-next" "$slowcmd" "--instances" "3" "--config" "$work/prompt-map.yaml" "--seed" "12")

bench() {
  local name=$1 i=$2
  shift 2
  [[ $cases == *",$name,"* ]] || return 0
  local out=$work/$name-$i
  local start end
  start=$(date +%s.%N)
  # shellcheck disable=SC2086 # EXTRA is a list of flags
  "$bin" run --out "$out" "$@" ${EXTRA:-} >"$work/$name-$i.stdout" 2>&1 || true
  end=$(date +%s.%N)
  python3 - "$out/report.json" "$start" "$end" "$name" "$i" "$top" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
wall = float(sys.argv[3]) - float(sys.argv[2])
v = r["summary"]["byVerdict"]
load = open("/proc/loadavg").read().split()[0]
print(f"{sys.argv[4]} run {sys.argv[5]}: wall {wall:.1f} s (load {load} after); " + ", ".join(f"{k}={v[k]}" for k in sorted(v) if v[k]))
slow = sorted(r["results"], key=lambda x: -x["durationMs"])[: int(sys.argv[6])]
print("   slowest: " + "  ".join(f"{x['id']} {x['durationMs']/1000:.1f}s" for x in slow))
PY
}

echo "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
for i in $(seq 1 "$runs"); do
  bench js-1 "$i" "${js1[@]}"
  bench js-3 "$i" "${js3[@]}"
  bench js-3-slow "$i" "${js3slow[@]}"
  bench slow-3s "$i" "${slow[@]}"
  bench slow-3s-x3 "$i" "${slow3[@]}"
done
echo "(reports in $work)"
