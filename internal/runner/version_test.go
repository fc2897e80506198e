package runner

import (
	"runtime/debug"
	"testing"
)

func TestVersionFrom(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	for _, tc := range []struct {
		name, ldflag string
		bi           *debug.BuildInfo
		want         string
	}{
		{"release ldflags win", "v0.2.0", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}}, "0.2.0"},
		{"go install @version", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}}, "0.1.0"},
		{"pseudo-version", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.1-0.20261201172000-4649c8e1a2b3"}}, "0.1.1-0.20261201172000-4649c8e1a2b3"},
		{"clone, clean", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("4649c8e1a2b3c4d5e6f7", "false")}, "devel+4649c8e1a2b3"},
		{"clone, edited", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("4649c8e1a2b3c4d5e6f7", "true")}, "devel+4649c8e1a2b3-dirty"},
		{"no vcs", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
		{"no build info", "", nil, "devel"},
	} {
		if got := versionFrom(tc.ldflag, tc.bi); got != tc.want {
			t.Errorf("%s: versionFrom(%q) = %q, want %q", tc.name, tc.ldflag, got, tc.want)
		}
	}
}
