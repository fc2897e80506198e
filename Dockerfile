# a2a-conform as a container, for CI systems that are not GitHub's
# (examples/gitlab-ci.yml) and for runs against a URL:
#
#   docker build -t a2a-conform --build-arg VERSION=$(git describe --tags --always) \
#     --build-arg REVISION=$(git rev-parse HEAD) .
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
# The three bases are pinned by tag and digest (the digest of each image's
# multi-platform index, so amd64 and arm64 resolve to the same bytes); the tag
# is there for people, the digest is what a build pulls. They could not be
# looked up against the registries where this was written, so they were taken
# from public Dockerfiles that pin the same tags (golang:1.26.8-bookworm and
# debian:bookworm-slim as in Jita81/commit-replay-bench
# deploy/sandbox/Dockerfile.go, gcr.io/distroless/static-debian12:nonroot as
# in kubeswift-io/kubeswift-spin's Dockerfile); a digest that is wrong fails
# the pull, it cannot substitute another image. To move to newer bases:
#   docker buildx imagetools inspect golang:1.26.8-bookworm   (and the others)
# and change the ARG lines together, or pass them as build arguments
# (--build-arg GO_IMAGE=golang:…@sha256:…). scripts/docker-smoke.sh builds
# both images and checks them.
#
# OCI labels (docker inspect): version, revision and source come from the
# build arguments VERSION, REVISION and SOURCE; scripts/docker-smoke.sh and
# CI pass them. LICENSES is NOASSERTION until the repository states a
# licence.

ARG GO_IMAGE=golang:1.26.8-bookworm@sha256:a688600ca24f8a4d3ca77f95b0dd40704a9fc787c826660eb7ba0b641b8b175d
ARG CI_BASE=debian:bookworm-slim@sha256:3783cc01769c7b2b1b83a5c5ad96c815348e28ed7da68e2e3687004faa906251
ARG RELEASE_BASE=gcr.io/distroless/static-debian12:nonroot@sha256:afa5c872c891853ca7fcf1f12c3edb23f7eeef36189728842dd51042ff57f7ab

FROM ${GO_IMAGE} AS build
WORKDIR /src
# Modules first, so that a source change does not download them again.
COPY go.mod go.sum ./
RUN go mod download
COPY clientkit/ clientkit/
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
ARG VERSION=dev
ARG REVISION=unknown
ARG SOURCE=https://github.com/a2a-conform/a2a-conform
ARG LICENSES=NOASSERTION
ARG CI_BASE
LABEL org.opencontainers.image.title="a2a-conform (ci)" \
      org.opencontainers.image.description="Interop conformance harness for A2A v1.0 agents, with a shell for CI jobs" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.url="${SOURCE}" \
      org.opencontainers.image.documentation="${SOURCE}/blob/main/docs/vendor-guide.md" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="${LICENSES}" \
      org.opencontainers.image.base.name="${CI_BASE}"
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
ARG VERSION=dev
ARG REVISION=unknown
ARG SOURCE=https://github.com/a2a-conform/a2a-conform
ARG LICENSES=NOASSERTION
ARG RELEASE_BASE
LABEL org.opencontainers.image.title="a2a-conform" \
      org.opencontainers.image.description="Interop conformance harness for A2A v1.0 agents" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.url="${SOURCE}" \
      org.opencontainers.image.documentation="${SOURCE}/blob/main/docs/vendor-guide.md" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.licenses="${LICENSES}" \
      org.opencontainers.image.base.name="${RELEASE_BASE}"
COPY --from=build /out/a2a-conform /usr/local/bin/a2a-conform
# Reports go to the working directory (./a2a-conform-report by default):
# mount a host directory there, and run as your own uid to write into it.
WORKDIR /work
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/a2a-conform"]
CMD ["--help"]
