#!/bin/sh
# Size of report.json for a clean default run against the embedded reference
# agent (the goal is at most 2 MB; docs/figures.md). Usage: scripts/bench-report-size.sh [SEED]
set -eu
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
go run ./cmd/a2a-conform run --seed "${1:-1}" --out "$out" >/dev/null
bytes=$(wc -c <"$out/report.json")
go run ./cmd/a2a-conform verify "$out/report.json" >/dev/null
echo "report.json: $bytes bytes ($(( bytes / 1024 )) KiB); report.html: $(wc -c <"$out/report.html") bytes"
[ "$bytes" -le 2000000 ] || { echo "over 2 MB" >&2; exit 1; }
