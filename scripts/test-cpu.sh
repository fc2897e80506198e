#!/usr/bin/env bash
# test-cpu.sh: the wall time and the CPU time (user, sys; child processes
# included) of each heavy test package, its tests and its proofs apart, one
# package at a time so that no other run's load is counted. Run it on a quiet
# machine from the repository's root; it builds each test binary first, so
# compile time is not counted.
#
#   scripts/test-cpu.sh [PACKAGE...]   (default: the packages below)
set -euo pipefail
cd "$(dirname "$0")/.."
pkgs=("$@")
if [ ${#pkgs[@]} -eq 0 ]; then
  pkgs=(./internal/runner ./internal/runner/clientproof ./internal/cli ./a2a-interop ./internal/clientdriver
    ./fakes ./reports ./suites ./internal/topology ./internal/client)
fi
bins=$(mktemp -d)
trap 'rm -rf "$bins"' EXIT
printf '%-34s %-7s %8s %8s %8s\n' package set wall-s user-s sys-s
for p in "${pkgs[@]}"; do
  bin="$bins/$(echo "$p" | tr -c 'a-z0-9\n' _).test"
  go test -c -o "$bin" "$p"
  [ -x "$bin" ] || continue # no test files
  for set in tests proofs; do
    args=(-test.count=1)
    if [ "$set" = proofs ]; then
      grep -rqs --include='*_test.go' '^func TestProof' "$p" || continue
      args+=(-test.run '^TestProof')
    fi
    proofs=
    [ "$set" = proofs ] && proofs=1
    (cd "$p" && A2A_CONFORM_PROOFS=$proofs /usr/bin/time -f '%e %U %S' "$bin" "${args[@]}" >"$bins/out" 2>"$bins/err") ||
      echo "$p ($set) failed: $(grep -m1 -- '--- FAIL' "$bins/out" || tail -1 "$bins/err")" >&2
    t=$(tail -1 "$bins/err")
    read -r wall user sys <<<"$t"
    printf '%-34s %-7s %8s %8s %8s\n' "$p" "$set" "$wall" "$user" "$sys"
  done
done
