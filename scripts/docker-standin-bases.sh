#!/usr/bin/env bash
# Builds stand-ins for the Dockerfile's three base images on a machine that
# can reach Debian's package mirrors but no container registry, so that
# scripts/docker-smoke.sh can build and check the real Dockerfile there:
#
#   sudo scripts/docker-standin-bases.sh            # prints the build args
#   scripts/docker-smoke.sh --build-arg GO_IMAGE=… --build-arg CI_BASE=… --build-arg RELEASE_BASE=…
#
# They are stand-ins, named a2a-conform-standin/*, never the real names, and
# labelled org.a2a-conform.standin=true; docker-smoke.sh says so when it
# sees one. What each holds:
#
#   a2a-conform-standin/debian:bookworm   debootstrap --variant=minbase bookworm
#                                         (for debian:bookworm-slim)
#   a2a-conform-standin/golang:bookworm   that plus ca-certificates (and the
#                                         CAs this machine adds, for a proxy)
#                                         and this machine's Go toolchain
#                                         ($(go env GOROOT) at /usr/local/go)
#                                         (for golang:GO_VERSION-bookworm)
#   a2a-conform-standin/static:nonroot    /etc/passwd and /etc/group with root,
#                                         nobody and nonroot (65532), CA
#                                         certificates, tzdata, /tmp, /home/nonroot
#                                         (for gcr.io/distroless/static-debian12:nonroot)
#
# So a build with them proves the Dockerfile's own steps (module download,
# the static build, useradd, COPY, USER, ENTRYPOINT) and the images' checks,
# not the real bases' contents. Needs root (debootstrap), docker, go.
set -euo pipefail
cd "$(dirname "$0")/.."
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
label=(--change 'LABEL org.a2a-conform.standin=true')

echo "== debootstrap bookworm (minbase) from $MIRROR"
debootstrap --variant=minbase bookworm "$work/rootfs" "$MIRROR" >"$work/debootstrap.log" 2>&1 || {
  tail -20 "$work/debootstrap.log" >&2
  exit 1
}
rm -rf "$work/rootfs/var/cache/apt/archives/"*.deb "$work/rootfs/var/lib/apt/lists/"*
tar -C "$work/rootfs" -c . | docker import "${label[@]}" \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["bash"]' - a2a-conform-standin/debian:bookworm

echo "== golang: the Debian stand-in plus ca-certificates and $(go version)"
# The real golang image has Debian's CA certificates; this machine's own
# additions (a TLS-intercepting proxy's CA in $EXTRA_CA_DIR) are added so
# that `go mod download` works from here.
chroot "$work/rootfs" apt-get update -qq >/dev/null
chroot "$work/rootfs" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ca-certificates >/dev/null 2>&1
for crt in "${EXTRA_CA_DIR:-/usr/local/share/ca-certificates}"/*.crt; do
  [[ -f "$crt" ]] && cp "$crt" "$work/rootfs/usr/local/share/ca-certificates/"
done
chroot "$work/rootfs" update-ca-certificates >/dev/null 2>&1
rm -rf "$work/rootfs/var/lib/apt/lists/"*
goroot=$(go env GOROOT)
mkdir -p "$work/rootfs/usr/local" "$work/rootfs/go"
cp -a "$goroot" "$work/rootfs/usr/local/go"
tar -C "$work/rootfs" -c . | docker import "${label[@]}" \
  --change 'ENV GOPATH=/go' \
  --change 'ENV PATH=/go/bin:/usr/local/go/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'WORKDIR /go' \
  --change 'CMD ["bash"]' - a2a-conform-standin/golang:bookworm

echo "== static:nonroot: users, CA certificates, tzdata, /tmp"
s="$work/static"
mkdir -p "$s/etc/ssl/certs" "$s/usr/share" "$s/tmp" "$s/home/nonroot"
cat >"$s/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin
nonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin
EOF
cat >"$s/etc/group" <<'EOF'
root:x:0:
nobody:x:65534:
nonroot:x:65532:
EOF
cp "$work/rootfs/etc/ssl/certs/ca-certificates.crt" "$s/etc/ssl/certs/"
cp -a /usr/share/zoneinfo "$s/usr/share/zoneinfo"
chmod 1777 "$s/tmp"
chown 65532:65532 "$s/home/nonroot"
tar -C "$s" --numeric-owner -c . | docker import "${label[@]}" \
  --change 'USER 65532' --change 'WORKDIR /home/nonroot' - a2a-conform-standin/static:nonroot

echo
echo "stand-in bases built; build with:"
echo "  --build-arg GO_IMAGE=a2a-conform-standin/golang:bookworm --build-arg CI_BASE=a2a-conform-standin/debian:bookworm --build-arg RELEASE_BASE=a2a-conform-standin/static:nonroot"
