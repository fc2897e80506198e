#!/usr/bin/env bash
# Measures a full run with default flags against the hostile agent: wall time
# and peak resident memory of the harness (not of the agent). Traffic stays on
# loopback. Usage: scripts/bench-hostile.sh [MODE] [PORT]   (MODE default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
port=${2:-18990}
dir=$(mktemp -d)
bin=$dir/a2a-conform
go build -o "$bin" ./cmd/a2a-conform
# The agent lives at most 10 minutes, whatever happens to this script.
timeout 600 "$bin" fake --hostile "$mode" --listen "127.0.0.1:$port" >"$dir/agent.log" 2>&1 &
agent=$!
trap 'kill "$agent" 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do grep -q listening "$dir/agent.log" && break; sleep 0.1; done
run=(timeout 600 "$bin" run --target "http://127.0.0.1:$port" --out "$dir/out")
if [ -x /usr/bin/time ]; then
  /usr/bin/time -v "${run[@]}" >"$dir/run.log" 2>"$dir/time.log" || true
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time.log")
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time.log")
  echo "mode $mode: wall $wall, peak RSS $((rss / 1024)) MiB"
else
  start=$(date +%s.%N)
  "${run[@]}" >"$dir/run.log" 2>&1 || true
  echo "mode $mode: wall $(echo "$(date +%s.%N) - $start" | bc) s (peak memory needs /usr/bin/time)"
fi
tail -n 3 "$dir/run.log" | head -n 1
grep '^note:' "$dir/run.log" | cut -c1-200 || true
