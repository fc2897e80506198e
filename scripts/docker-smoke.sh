#!/usr/bin/env bash
# Builds both images of the Dockerfile and checks what a vendor relies on:
#
#   1. `release` and `ci` build (the static binary, --target each);
#   2. the OCI labels carry the version, the revision and the source; the
#      binary in the image is statically linked and reports the version
#      stamped into it;
#   3. both images run as uid 65532, and `release` has no shell;
#   4. `release` runs the embedded reference agent through every suite with
#      its own user into a mounted directory: exit 0, report.json, junit.xml
#      and report.html written there by uid 65532, and the report verifies;
#   5. `ci` runs the process driver (/bin/sh -c --agent-cmd) against the
#      reference agent in the same image, two instances on one store.
#
#   scripts/docker-smoke.sh [docker build flags…]
#
# Extra arguments go to both `docker build` calls, e.g. --pull, or the base
# images as build arguments (--build-arg GO_IMAGE=…; see the Dockerfile and
# scripts/docker-standin-bases.sh for a machine without a registry). CI runs
# it in the image job, then pushes what it built. The images are tagged
# $RELEASE_TAG (default a2a-conform:release) and $CI_TAG (a2a-conform:ci) and
# left for the caller.
set -euo pipefail
cd "$(dirname "$0")/.."
version=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
revision=${REVISION:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
rel=${RELEASE_TAG:-a2a-conform:release} ci=${CI_TAG:-a2a-conform:ci}
fail() { echo "docker-smoke: FAIL: $*" >&2; exit 1; }
step() { echo "== $*"; }

step "build release and ci (VERSION=$version)"
docker build --build-arg VERSION="$version" --build-arg REVISION="$revision" --target release -t "$rel" "$@" .
docker build --build-arg VERSION="$version" --build-arg REVISION="$revision" --target ci -t "$ci" "$@" .
for img in "$rel" "$ci"; do
  # docker-standin-bases.sh labels its images; a build on them proves the
  # Dockerfile's steps, not the real bases.
  if [[ "$(docker inspect -f '{{index .Config.Labels "org.a2a-conform.standin"}}' "$img")" == true ]]; then
    echo "docker-smoke: NOTE: $img is built on a stand-in base (scripts/docker-standin-bases.sh), not the real one"
  fi
done

step "OCI labels"
for img in "$rel" "$ci"; do
  for kv in "version=$version" "revision=$revision"; do
    got=$(docker inspect -f "{{index .Config.Labels \"org.opencontainers.image.${kv%%=*}\"}}" "$img")
    [[ "$got" == "${kv#*=}" ]] || fail "$img: label org.opencontainers.image.${kv%%=*} is '$got', want '${kv#*=}'"
  done
  src=$(docker inspect -f '{{index .Config.Labels "org.opencontainers.image.source"}}' "$img")
  [[ -n "$src" ]] || fail "$img: no org.opencontainers.image.source label"
done

step "the binary: static, versioned"
work=$(mktemp -d)
# Files the containers wrote belong to uid 65532; where this user cannot
# remove them, they stay in the temporary directory.
trap 'rm -rf "$work" 2>/dev/null || true; docker rm -f a2a-conform-smoke-cp >/dev/null 2>&1 || true' EXIT
docker create --name a2a-conform-smoke-cp "$rel" >/dev/null
docker cp a2a-conform-smoke-cp:/usr/local/bin/a2a-conform "$work/a2a-conform"
docker rm a2a-conform-smoke-cp >/dev/null
if command -v file >/dev/null; then
  desc=$(file -b "$work/a2a-conform")
  echo "file: $desc"
  [[ "$desc" == *"statically linked"* || "$desc" == *"static-pie linked"* ]] || fail "the binary is not statically linked: $desc"
fi
if command -v readelf >/dev/null && readelf -l "$work/a2a-conform" | grep -q 'Requesting program interpreter'; then
  fail "the binary asks for a dynamic loader"
fi
for img in "$rel" "$ci"; do
  out=$(docker run --rm "$img" version)
  echo "$img version: $out"
  [[ "$out" == *"$version"* ]] || fail "$img version says $out, want $version"
done

step "users: 65532 in both, no shell in release"
for img in "$rel" "$ci"; do
  user=$(docker inspect -f '{{.Config.User}}' "$img")
  [[ "$user" == 65532:65532 ]] || fail "$img runs as '$user', want 65532:65532"
done
[[ "$(docker run --rm --entrypoint /bin/sh "$ci" -c 'id -u'):" == "65532:" ]] || fail "$ci: id -u is not 65532"
if docker run --rm --entrypoint /bin/sh "$rel" -c true >/dev/null 2>&1; then
  fail "$rel has a shell"
fi

step "release: every suite against the embedded reference agent, reports to a mounted directory"
# The image's user, 65532, writes into the report directory (./a2a-conform-report
# under WORKDIR /work); made here, so that this user can remove what it holds.
mkdir -p "$work/release/a2a-conform-report"
chmod 0777 "$work/release" "$work/release/a2a-conform-report"
code=0
docker run --rm -v "$work/release:/work" "$rel" run --seed 7 >"$work/release.log" 2>&1 || code=$?
grep -E '^[0-9]+ of [0-9]+ passed' "$work/release.log" || true
[[ $code -eq 0 ]] || { tail -40 "$work/release.log" >&2; fail "run exited $code against the clean reference agent"; }
for f in report.json junit.xml report.html; do
  p="$work/release/a2a-conform-report/$f"
  [[ -s "$p" ]] || fail "no $f in the mounted directory"
  owner=$(stat -c %u "$p")
  [[ "$owner" == 65532 ]] || fail "$f written by uid $owner, want 65532"
done
docker run --rm -v "$work/release:/work" "$rel" verify a2a-conform-report/report.json

step "ci: the process driver through /bin/sh, two instances of the reference agent on one store"
mkdir -p "$work/ci"
chmod 0777 "$work/ci"
code=0
docker run --rm -v "$work/ci:/out" "$ci" run --out /out \
  --agent-cmd 'a2a-conform fake --listen 127.0.0.1:{port} --store sqlite:{store} --name smoke-{instance}' \
  --instances 2 --suite discovery,lifecycle --seed 7 >"$work/ci.log" 2>&1 || code=$?
grep -E '^[0-9]+ of [0-9]+ passed' "$work/ci.log" || true
[[ $code -eq 0 ]] || { tail -40 "$work/ci.log" >&2; fail "process-driver run exited $code"; }
[[ -s "$work/ci/report.json" ]] || fail "no report.json from the ci image"
grep -q '"topology": *"process"' "$work/ci/report.json" || fail "the ci image's report does not name the process driver"

echo "docker-smoke: OK ($rel, $ci)"
