#!/usr/bin/env bash
# Runs every suite against the JS SDK agent in a2a-interop/js-agent (@a2a-js/sdk,
# pinned in its package.json and package-lock.json), started by the process
# driver. Extra arguments go to `a2a-conform run`, e.g.
#   scripts/interop-js.sh --out /tmp/js-report
#   scripts/interop-js.sh --instances 3 --agent-cmd \
#     'node a2a-interop/js-agent/agent.js --port {port} --store {store}' \
#     --agent-cmd-next \
#     'node a2a-interop/js-agent/agent.js --port {port} --store {store} --card-version 1.{generation}.0'
# The interop test (go test ./a2a-interop) does both and compares the verdicts
# with a2a-interop/baseline.json and a2a-interop/baseline-instances.json.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v node >/dev/null && command -v npm >/dev/null || {
  echo "interop-js: node and npm are needed (apt-get install -y nodejs npm)" >&2
  exit 2
}
(cd a2a-interop/js-agent && npm ci --no-audit --no-fund --loglevel=error)
agent="node $PWD/a2a-interop/js-agent/agent.js --port {port}"
exec go run ./cmd/a2a-conform run --agent-cmd "$agent" --out "${OUT:-a2a-conform-report-js}" "$@"
