#!/usr/bin/env bash
# Measures the full discovery+lifecycle run against the embedded reference
# agent: wall time of the whole run, and the cancel-then-complete race's
# trials per second (LIFE-014). Usage: scripts/bench-run.sh [RUNS] [TRIALS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
trials=${2:-200}
bin=$(mktemp -d)/a2a-conform
go build -o "$bin" ./cmd/a2a-conform
printf '%-4s %-9s %-7s %-8s %-10s %s\n' run wall_s specs race_ms trials/s verdicts
for i in $(seq 1 "$runs"); do
  out=$(mktemp -d)
  start=$(date +%s.%N)
  "$bin" run --suite discovery,lifecycle --seed "$i" --race-trials "$trials" --out "$out" >/dev/null || true
  end=$(date +%s.%N)
  python3 - "$out/report.json" "$start" "$end" "$i" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
wall = float(sys.argv[3]) - float(sys.argv[2])
race = next((x for x in r["results"] if x["id"] == "LIFE-014"), None)
ms = race["durationMs"] if race else 0
n = int((race or {}).get("observations", {}).get("race.trials", 0))
rate = n / (ms / 1000) if ms else 0
v = r["summary"]["byVerdict"]
print(f"{sys.argv[4]:<4} {wall:<9.2f} {len(r['results']):<7} {ms:<8} {rate:<10.0f} " + ",".join(f"{k}={v[k]}" for k in sorted(v) if v[k]))
PY
done
