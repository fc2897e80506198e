#!/usr/bin/env bash
# Runs the suites against the Go SDK agent in a2a-interop/go-agent (a2a-go v2.4.0,
# pinned in its own go.mod and go.sum), built here and started by the process
# driver. The agent runs as the SDK ships it, push SSRF guard on; AGENT_FLAGS
# adds flags to its command line. Extra arguments go to `a2a-conform run`:
#   scripts/interop-go.sh --out /tmp/go-report
#   scripts/interop-go.sh --suite webhook --webhook-listen 127.0.0.1:9090
#   AGENT_FLAGS=--allow-private-networks scripts/interop-go.sh
#   AGENT_FLAGS=--allow-private-networks NEXT=1 scripts/interop-go.sh --instances 3 --suite rollout
# NEXT=1 also gives --agent-cmd-next: the same agent serving card version
# 1.{generation}.0. The interop test (go test ./a2a-interop -run TestGoSDK) runs
# the three deployments of a2a-interop/README.md and compares their verdicts with
# a2a-interop/baseline-go*.json.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
(cd a2a-interop/go-agent && GOWORK=off GOFLAGS=-mod=readonly go build -o "$dir/go-agent" .)
agent="'$dir/go-agent' --port {port} --name go-sdk-{instance} ${AGENT_FLAGS:-}"
next=()
if [ -n "${NEXT:-}" ]; then
  next=(--agent-cmd-next "$agent --card-version 1.{generation}.0")
fi
go run ./cmd/a2a-conform run --agent-cmd "$agent" "${next[@]}" --out "${OUT:-a2a-conform-report-go}" "$@"
