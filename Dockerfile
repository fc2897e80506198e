# a2a-conform as a container, for CI systems that are not GitHub's
# (examples/gitlab-ci.yml) and for runs against a URL:
#
#   docker build -t a2a-conform --build-arg VERSION=$(git describe --tags --always) .
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/work" \
#     -e A2A_CONFORM_HEADERS a2a-conform run --target https://agent.example.com
#
# Two images come out of this file:
#
# - the default (last stage, `release`): one static binary (CGO_ENABLED=0: the
#   SQLite store is pure Go), CA certificates, /tmp and a non-root user, and
#   nothing else: no shell. For `docker run` against a URL.
# - `--target ci` (tag it VERSION-ci): the same binary on debian-slim, with a
#   shell, for CI systems that run a job's script inside the image (GitLab
#   CI needs a shell there) and for --agent-cmd, which runs its template
#   with /bin/sh -c. Still non-root.
#
# To let the harness start your agent, you can also copy the binary into your
# agent's own image:
#   COPY --from=ghcr.io/a2a-conform/a2a-conform:VERSION /usr/local/bin/a2a-conform /usr/local/bin/
#
# The Go image is pinned to an exact version; the Debian and distroless bases
# to their release tracks. Pin all three by digest in your own builds
# (docker buildx imagetools inspect IMAGE:TAG prints it), through the build
# arguments below, e.g. --build-arg GO_IMAGE=golang@sha256:…: digests could
# not be looked up where this file was written. scripts/docker-smoke.sh
# builds both images and checks them.

ARG GO_VERSION=1.26.8
ARG GO_IMAGE=golang:${GO_VERSION}-bookworm
ARG CI_BASE=debian:bookworm-slim
ARG RELEASE_BASE=gcr.io/distroless/static-debian12:nonroot

FROM ${GO_IMAGE} AS build
WORKDIR /src
# Modules first, so that a source change does not download them again.
COPY go.mod go.sum ./
RUN go mod download
COPY cmd/ cmd/
COPY fakes/ fakes/
COPY internal/ internal/
COPY reports/ reports/
COPY schemas/ schemas/
COPY suites/ suites/
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath \
      -ldflags "-s -w -X github.com/a2a-conform/a2a-conform/internal/runner.HarnessVersion=${VERSION}" \
      -o /out/a2a-conform ./cmd/a2a-conform \
 && /out/a2a-conform version

# For CI systems that run a script in the job's image: a shell, CA
# certificates, the same binary, the same non-root uid.
FROM ${CI_BASE} AS ci
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --uid 65532 --user-group --create-home --shell /bin/sh nonroot
COPY --from=build /out/a2a-conform /usr/local/bin/a2a-conform
USER 65532:65532
WORKDIR /home/nonroot
ENTRYPOINT ["/usr/local/bin/a2a-conform"]
CMD ["--help"]

# distroless/static: CA certificates, tzdata, /tmp, and the user nonroot
# (65532); no shell, no package manager.
FROM ${RELEASE_BASE} AS release
COPY --from=build /out/a2a-conform /usr/local/bin/a2a-conform
# Reports go to the working directory (./a2a-conform-report by default):
# mount a host directory there, and run as your own uid to write into it.
WORKDIR /work
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/a2a-conform"]
CMD ["--help"]
