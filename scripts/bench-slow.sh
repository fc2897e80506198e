#!/usr/bin/env bash
# Measures what concurrency buys against a slow agent: the reference agent
# with every step DELAY long (tasks of about 3 x DELAY, driven by the prompt
# map as an LLM agent would be), run once with --parallel 1 and once with
# --parallel N. Prints each run's wall time, its longest spec, and the ratios
# docs/figures.md quotes. Traffic stays on 127.0.0.1.
# Usage: scripts/bench-slow.sh [DELAY] [N] [TRIALS]
set -euo pipefail
cd "$(dirname "$0")/.."
delay=${1:-1s}
parallel=${2:-16}
trials=${3:-200}
work=$(mktemp -d)
bin=$work/a2a-conform
go build -o "$bin" ./cmd/a2a-conform
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
"$bin" fake --listen "127.0.0.1:$port" --delay "$delay" --prompt-map --no-directive >"$work/fake.log" 2>&1 &
fake=$!
trap 'kill $fake 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -fsS "http://127.0.0.1:$port/.well-known/agent-card.json" >/dev/null 2>&1 && break; sleep 0.1; done
sed -n '/^prompt-map:/,$p' examples/reference-prompt-map.yaml >"$work/config.yaml"
printf '%-10s %-8s %-22s %-8s %s\n' parallel wall_s longest_spec ratio verdicts
for p in 1 "$parallel"; do
  out=$work/out-$p
  start=$(date +%s.%N)
  "$bin" run --target "http://127.0.0.1:$port" --config "$work/config.yaml" --parallel "$p" \
    --race-trials "$trials" --seed 7 --header 'Authorization: Bearer bench' --out "$out" >/dev/null || true
  end=$(date +%s.%N)
  python3 - "$out/report.json" "$start" "$end" "$p" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
wall = float(sys.argv[3]) - float(sys.argv[2])
top = max(r["results"], key=lambda x: x["durationMs"])
v = r["summary"]["byVerdict"]
print(f"{sys.argv[4]:<10} {wall:<8.1f} {top['id'] + ' ' + str(round(top['durationMs']/1000, 1)) + 's':<22} {wall/(top['durationMs']/1000):<8.2f} "
      + ",".join(f"{k}={v[k]}" for k in sorted(v) if v[k]))
PY
done
