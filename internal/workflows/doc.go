// Package workflows holds no code: its tests check the files vendors copy
// and CI runs but Go never compiles (the GitHub workflows, the composite
// action, the Dockerfile, the GitLab example, the scorecard's vendor list),
// so that `go test ./...` catches a broken reference, an unpinned action or
// a root container before a vendor does.
package workflows
