#!/usr/bin/env bash
# Measures the rollout suite against the embedded reference agent (3
# instances sharing one store behind the harness's load balancer): wall time
# of the run, peak resident memory of the harness process (GNU time), and
# each spec's time. Usage: scripts/bench-rollout.sh [RUNS] [INSTANCES]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
instances=${2:-3}
bin=$(mktemp -d)/a2a-conform
go build -o "$bin" ./cmd/a2a-conform
for i in $(seq 1 "$runs"); do
  out=$(mktemp -d)
  start=$(date +%s.%N)
  /usr/bin/time -f '%M' -o "$out/maxrss" "$bin" run --suite rollout --instances "$instances" --seed "$i" --out "$out" >/dev/null || true
  end=$(date +%s.%N)
  python3 - "$out/report.json" "$start" "$end" "$i" "$(cat "$out/maxrss")" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
wall = float(sys.argv[3]) - float(sys.argv[2])
v = r["summary"]["byVerdict"]
print(f"run {sys.argv[4]}: wall {wall:.2f} s, peak RSS {int(sys.argv[5])/1024:.0f} MiB, " + ",".join(f"{k}={v[k]}" for k in sorted(v) if v[k]))
print("   " + "  ".join(f"{x['id']} {x['durationMs']/1000:.2f}s" for x in sorted(r["results"], key=lambda x: x["id"])))
PY
done
