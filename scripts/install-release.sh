#!/usr/bin/env bash
# Installs the released a2a-conform binary of one version: downloads the
# archive for this OS and architecture and the release's checksums file,
# checks the archive's sha256 against it, and unpacks the binary into DEST.
# action.yml runs it; so can anyone:
#
#   scripts/install-release.sh v0.1.0 "$HOME/.local/bin"
#   scripts/install-release.sh --names v0.1.0    # print the two file names
#
# The names are the ones .goreleaser.yaml gives (internal/workflows' tests
# hold the two together):
#
#   a2a-conform_<version>_<os>_<arch>.tar.gz   a2a-conform_<version>_checksums.txt
#
# Exit status, which action.yml acts on:
#   0  installed: DEST/a2a-conform, checksum verified, `version` ran
#   1  refused: the archive's checksum does not match, the checksums file
#      does not list it, or it holds no a2a-conform; nothing is installed
#   2  usage
#   3  no release binary to install: the version is not a release tag
#      (a branch, a commit SHA), this platform has none, or the release's
#      files could not be downloaded. The caller may build from source.
#
# Environment:
#   A2A_CONFORM_RELEASE_URL  where releases are (default
#                            https://github.com/${A2A_CONFORM_REPOSITORY:-a2a-conform/a2a-conform}/releases/download);
#                            the files are fetched from URL/<tag>/<name>.
#                            Only https, or http to a loopback address
#                            (the tests serve a fake release on 127.0.0.1).
#   A2A_CONFORM_OS, A2A_CONFORM_ARCH  override the detected platform
#                            (linux|darwin, amd64|arm64).
set -uo pipefail

say() { echo "install-release: $*" >&2; }

names=false
if [[ "${1:-}" == "--names" ]]; then
  names=true
  shift
fi
tag=${1:-}
dest=${2:-}
if [[ -z "$tag" ]] || { ! $names && [[ -z "$dest" ]]; }; then
  echo "usage: install-release.sh TAG DEST | install-release.sh --names TAG" >&2
  exit 2
fi

# Only a release tag has release files: vMAJOR.MINOR.PATCH, with an optional
# pre-release suffix (v0.2.0-rc.1). A branch or a commit SHA has none.
if [[ ! "$tag" =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
  say "'$tag' is not a release tag (vX.Y.Z): no release binary"
  exit 3
fi
version=${tag#v}

os=${A2A_CONFORM_OS:-}
if [[ -z "$os" ]]; then
  case "$(uname -s)" in
    Linux) os=linux ;;
    Darwin) os=darwin ;;
    *) say "no release binary for $(uname -s) here"; exit 3 ;;
  esac
fi
arch=${A2A_CONFORM_ARCH:-}
if [[ -z "$arch" ]]; then
  case "$(uname -m)" in
    x86_64 | amd64) arch=amd64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) say "no release binary for $(uname -m) here"; exit 3 ;;
  esac
fi
case "$os/$arch" in
  linux/amd64 | linux/arm64 | darwin/amd64 | darwin/arm64) ;;
  *) say "no release binary for $os/$arch"; exit 3 ;;
esac

archive="a2a-conform_${version}_${os}_${arch}.tar.gz"
sums="a2a-conform_${version}_checksums.txt"
if $names; then
  echo "$archive"
  echo "$sums"
  exit 0
fi

base=${A2A_CONFORM_RELEASE_URL:-https://github.com/${A2A_CONFORM_REPOSITORY:-a2a-conform/a2a-conform}/releases/download}
base=${base%/}
proto='=https'
case "$base" in
  https://*) ;;
  http://127.* | http://localhost:* | http://localhost/* | http://\[::1\]*) proto='=http,https' ;;
  *) say "refusing release URL $base: https only (or http to loopback)"; exit 2 ;;
esac

work=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/a2a-conform-release.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT

fetch() { # fetch NAME: URL/<tag>/NAME into $work/NAME
  local url="$base/$tag/$1" code
  code=$(curl --silent --show-error --location --proto "$proto" --proto-redir "$proto" \
    --connect-timeout 20 --max-time 300 --retry 3 --retry-delay 2 \
    --output "$work/$1" --write-out '%{http_code}' "$url")
  local rc=$?
  if [[ $rc -ne 0 || "$code" != 200 ]]; then
    say "could not download $url (curl exit $rc, HTTP ${code:-none})"
    return 1
  fi
}

fetch "$sums" || exit 3
fetch "$archive" || exit 3

# The checksums file lists "<sha256>  <name>" per file; the archive's line
# must be there, and match.
want=$(awk -v n="$archive" '$2 == n || $2 == "*" n {print $1}' "$work/$sums" | head -n 1)
if [[ ! "$want" =~ ^[0-9a-f]{64}$ ]]; then
  say "REFUSED: $sums does not list $archive"
  exit 1
fi
if command -v sha256sum >/dev/null; then
  got=$(sha256sum "$work/$archive" | awk '{print $1}')
else
  got=$(shasum -a 256 "$work/$archive" | awk '{print $1}')
fi
if [[ "$got" != "$want" ]]; then
  say "REFUSED: $archive has sha256 $got, but $sums says $want"
  exit 1
fi

mkdir -p "$work/x" || exit 1
if ! tar -xzf "$work/$archive" -C "$work/x" a2a-conform; then
  say "REFUSED: $archive holds no a2a-conform binary"
  exit 1
fi
mkdir -p "$dest" || exit 1
install -m 0755 "$work/x/a2a-conform" "$dest/a2a-conform" || exit 1
if ! out=$("$dest/a2a-conform" version 2>&1); then
  say "REFUSED: the installed binary does not run: $out"
  rm -f "$dest/a2a-conform"
  exit 1
fi
if [[ "$out" != "a2a-conform $version "* ]]; then
  say "REFUSED: $archive's binary says '$out', not version $version"
  rm -f "$dest/a2a-conform"
  exit 1
fi
say "installed $archive (sha256 $got, listed in $sums): $out"
echo "sha256=$got"
echo "archive=$archive"
exit 0
