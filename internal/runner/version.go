package runner

import (
	"runtime/debug"
	"strings"
	"sync"
)

// HarnessVersion is set at build time by release builds
// (-ldflags "-X github.com/a2a-conform/a2a-conform/internal/runner.HarnessVersion=v1.2.3").
// Leave it empty otherwise: Version then reads the module version the Go
// toolchain stamped into the binary, so that `go install …@v0.1.0` reports
// 0.1.0 rather than a hard-coded development string.
var HarnessVersion = ""

var versionOnce = sync.OnceValue(func() string {
	bi, _ := debug.ReadBuildInfo()
	return versionFrom(HarnessVersion, bi)
})

// Version is the harness version that goes into reports, the scorecard and
// `a2a-conform version`: the -ldflags value when a release build set one,
// else the module version from the build info (`go install …@vX.Y.Z`), else
// "devel" with the VCS revision the toolchain stamped (a build from a
// clone), marked "-dirty" when the tree had local changes.
func Version() string { return versionOnce() }

func versionFrom(ldflag string, bi *debug.BuildInfo) string {
	if v := strings.TrimSpace(ldflag); v != "" {
		return strings.TrimPrefix(v, "v")
	}
	if bi == nil {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return strings.TrimPrefix(v, "v")
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" {
		return "devel"
	}
	return "devel+" + rev + dirty
}
