#!/usr/bin/env bash
# The client-suite figure of docs/figures.md: the whole client suite against the JS SDK's
# client (a2a-interop/js-client/driver.mjs on @a2a-js/sdk's ClientFactory), as
# TestJSSDKClient runs it. Prints each run's wall time (goal: <= 30 s), its
# verdicts and its slowest cases (report.json's durationMs), after the
# machine's load average (figures are comparable only at a similar load).
# Traffic stays on 127.0.0.1.
# Usage: scripts/bench-client.sh [RUNS] [TOP]   (default 1 run, 8 slowest)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1}
top=${2:-8}
work=$(mktemp -d)
bin=$work/a2a-conform
go build -o "$bin" ./cmd/a2a-conform

command -v node >/dev/null && command -v npm >/dev/null || {
  echo "bench-client: node and npm are needed (apt-get install -y nodejs npm)" >&2
  exit 2
}
# npm ci only when the installed tree does not load the SDK's client.
if ! (cd a2a-interop/js-client && node --input-type=module -e 'await import("@a2a-js/sdk/client")') >/dev/null 2>&1; then
  (cd a2a-interop/js-client && npm ci --prefer-offline --no-audit --no-fund --loglevel=error)
fi
driver="'$(command -v node)' '$PWD/a2a-interop/js-client/driver.mjs'"

echo "load average before the runs: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
for i in $(seq 1 "$runs"); do
  out=$work/js-client-$i
  start=$(date +%s.%N)
  "$bin" client --client-cmd "$driver" --out "$out" --seed 12 >"$out.stdout" 2>&1 || true
  end=$(date +%s.%N)
  python3 - "$out/report.json" "$start" "$end" "$i" "$top" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
wall = float(sys.argv[3]) - float(sys.argv[2])
v = r["summary"]["byVerdict"]
load = open("/proc/loadavg").read().split()[0]
print(f"js-client run {sys.argv[4]}: wall {wall:.1f} s (goal <= 30 s; load {load} after); " + ", ".join(f"{k}={v[k]}" for k in sorted(v) if v[k]))
slow = sorted(r["results"], key=lambda x: -x["durationMs"])[: int(sys.argv[5])]
print("   slowest: " + "  ".join(f"{x['id']} {x['durationMs']/1000:.1f}s" for x in slow))
PY
done
echo "(reports in $work)"
