package workflows

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The six platforms every release carries (docs/release.md).
var releasePlatforms = []string{"darwin/amd64", "darwin/arm64", "linux/amd64", "linux/arm64", "windows/amd64", "windows/arm64"}

// goreleaserKeys are the keys .goreleaser.yaml may use, from GoReleaser v2's
// config (pkg/config/config.go, the version release.yml pins). GoReleaser
// refuses a key it does not know; this catches a typo without it.
var goreleaserKeys = map[string][]string{
	"":          {"version", "project_name", "builds", "archives", "checksum", "sboms", "snapshot", "release", "changelog", "env", "before", "dist", "report_sizes", "metadata", "git", "gomod"},
	"builds":    {"id", "main", "binary", "env", "flags", "ldflags", "goos", "goarch", "goarm", "goamd64", "ignore", "mod_timestamp", "dir", "tool", "hooks", "skip", "targets", "asmflags", "gcflags", "tags", "no_unique_dist_dir", "builder"},
	"archives":  {"id", "ids", "formats", "format_overrides", "name_template", "files", "wrap_in_directory", "strip_binary_directory", "meta", "builds_info", "allow_different_binary_count", "hooks"},
	"checksum":  {"name_template", "algorithm", "split", "ids", "disable", "extra_files"},
	"sboms":     {"id", "cmd", "env", "args", "documents", "artifacts", "ids", "disable"},
	"snapshot":  {"version_template"},
	"release":   {"github", "draft", "replace_existing_draft", "target_commitish", "tag", "discussion_category_name", "prerelease", "make_latest", "mode", "header", "footer", "name_template", "disable", "skip_upload", "extra_files", "ids", "include_meta", "replace_existing_artifacts"},
	"changelog": {"use", "sort", "abbrev", "filters", "groups", "format", "disable", "title", "divider"},
}

func stringsOf(v any) []string {
	var out []string
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			out = append(out, fmt.Sprint(x))
		}
	case string:
		out = append(out, v)
	}
	return out
}

// TestGoReleaserConfig: .goreleaser.yaml builds what ci.yml used to build
// for six platforms, the way a release must (static, -trimpath, the version
// stamped into the variable internal/runner reads), with a checksums file
// and an SBOM per archive.
func TestGoReleaserConfig(t *testing.T) {
	m, _ := load(t, ".goreleaser.yaml")
	checkKeys(t, ".goreleaser.yaml", m, []string{"version", "project_name", "builds", "archives", "checksum", "sboms", "release"}, goreleaserKeys[""])
	if v, _ := m["version"].(int); v != 2 {
		t.Errorf(".goreleaser.yaml: version %v, want 2 (GoReleaser v2)", m["version"])
	}
	for _, sect := range []string{"builds", "archives", "sboms"} {
		list, _ := m[sect].([]any)
		if len(list) == 0 {
			t.Fatalf(".goreleaser.yaml: %s: want a list", sect)
		}
		for i, e := range list {
			em, _ := e.(map[string]any)
			checkKeys(t, fmt.Sprintf(".goreleaser.yaml %s[%d]", sect, i), em, nil, goreleaserKeys[sect])
		}
	}
	for _, sect := range []string{"checksum", "snapshot", "release", "changelog"} {
		if em, ok := m[sect].(map[string]any); ok {
			checkKeys(t, ".goreleaser.yaml "+sect, em, nil, goreleaserKeys[sect])
		}
	}

	builds := m["builds"].([]any)
	if len(builds) != 1 {
		t.Fatalf(".goreleaser.yaml: want one build, got %d", len(builds))
	}
	b := builds[0].(map[string]any)
	if main, _ := b["main"].(string); !exists(main) {
		t.Errorf(".goreleaser.yaml: main %q does not exist", main)
	}
	if b["binary"] != "a2a-conform" {
		t.Errorf(".goreleaser.yaml: binary %v, want a2a-conform", b["binary"])
	}
	var got []string
	for _, os := range stringsOf(b["goos"]) {
		for _, arch := range stringsOf(b["goarch"]) {
			got = append(got, os+"/"+arch)
		}
	}
	if fmt.Sprint(sortedCopy(got)) != fmt.Sprint(releasePlatforms) {
		t.Errorf(".goreleaser.yaml builds %v, want %v", got, releasePlatforms)
	}
	if !contains(stringsOf(b["env"]), "CGO_ENABLED=0") {
		t.Error(".goreleaser.yaml: the build must set CGO_ENABLED=0 (a static binary)")
	}
	if !contains(stringsOf(b["flags"]), "-trimpath") {
		t.Error(".goreleaser.yaml: the build must use -trimpath")
	}
	const versionVar = "github.com/a2a-conform/a2a-conform/internal/runner.HarnessVersion"
	if ld := strings.Join(stringsOf(b["ldflags"]), " "); !strings.Contains(ld, "-X "+versionVar+"={{.Version}}") {
		t.Errorf(".goreleaser.yaml: ldflags %q must set %s={{.Version}}", ld, versionVar)
	}
	src, err := os.ReadFile(filepath.Join(root, "internal/runner/version.go"))
	if err != nil || !regexp.MustCompile(`(?m)^var HarnessVersion = `).Match(src) {
		t.Errorf("internal/runner/version.go no longer declares var HarnessVersion, which the release's ldflags set")
	}

	arch := m["archives"].([]any)[0].(map[string]any)
	if f := stringsOf(arch["formats"]); len(f) != 1 || f[0] != "tar.gz" {
		t.Errorf(".goreleaser.yaml: archive formats %v, want [tar.gz] (install-release.sh unpacks tar.gz)", f)
	}
	cs, _ := m["checksum"].(map[string]any)
	if a, _ := cs["algorithm"].(string); a != "" && a != "sha256" {
		t.Errorf(".goreleaser.yaml: checksum algorithm %q; install-release.sh checks sha256", a)
	}
	if cs["split"] == true || cs["disable"] == true {
		t.Error(".goreleaser.yaml: the action needs one checksums file")
	}
	sbom := m["sboms"].([]any)[0].(map[string]any)
	if a, _ := sbom["artifacts"].(string); a != "archive" {
		t.Errorf(".goreleaser.yaml: sboms.artifacts %q, want archive (an SBOM per archive)", a)
	}
	if rel, _ := m["release"].(map[string]any); rel != nil {
		gh, _ := rel["github"].(map[string]any)
		if fmt.Sprintf("%v/%v", gh["owner"], gh["name"]) != thisRepo {
			t.Errorf(".goreleaser.yaml: releases to %v/%v, want %s", gh["owner"], gh["name"], thisRepo)
		}
	}

}

func sortedCopy(s []string) []string {
	c := append([]string(nil), s...)
	for i := range c {
		for j := i + 1; j < len(c); j++ {
			if c[j] < c[i] {
				c[i], c[j] = c[j], c[i]
			}
		}
	}
	return c
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// TestReleaseWorkflow: a v* tag, and nothing else, publishes; only the
// release job can write; GoReleaser and syft are pinned to releases.
func TestReleaseWorkflow(t *testing.T) {
	m, _ := load(t, ".github/workflows/release.yml")
	on, _ := m["on"].(map[string]any)
	if len(on) != 1 || on["push"] == nil {
		t.Fatalf("release.yml: on %v, want only push of v* tags", keysOf(on))
	}
	push, _ := on["push"].(map[string]any)
	if tags := stringsOf(push["tags"]); len(tags) != 1 || tags[0] != "v*" || push["branches"] != nil {
		t.Errorf("release.yml: push %v, want tags [v*] only", push)
	}
	if p := fmt.Sprint(m["permissions"]); p != "map[contents:read]" && p != "map[]" {
		t.Errorf("release.yml: top-level permissions %s, want contents: read (write only on the release job)", p)
	}
	jobs, _ := m["jobs"].(map[string]any)
	writers := 0
	for name, j := range jobs {
		job, _ := j.(map[string]any)
		perms, _ := job["permissions"].(map[string]any)
		for scope, level := range perms {
			if level == "write" {
				if name != "release" || scope != "contents" {
					t.Errorf("release.yml: job %s asks %s: write; only the release job may write, and only contents", name, scope)
				}
				writers++
			}
		}
		if name == "release" {
			if fmt.Sprint(perms) != "map[contents:write]" {
				t.Errorf("release.yml: the release job's permissions are %v, want exactly contents: write", perms)
			}
			if needs := stringsOf(job["needs"]); !contains(needs, "test") {
				t.Errorf("release.yml: the release job must need the tests, needs %v", needs)
			}
			var goreleaser, syft bool
			for _, s := range job["steps"].([]any) {
				step, _ := s.(map[string]any)
				u, _ := step["uses"].(string)
				with, _ := step["with"].(map[string]any)
				switch {
				case strings.HasPrefix(u, "goreleaser/goreleaser-action@"):
					goreleaser = true
					if v, _ := with["version"].(string); !regexp.MustCompile(`^v2\.\d+\.\d+$`).MatchString(v) {
						t.Errorf("release.yml: GoReleaser version %q; pin a release (v2.X.Y), not a range", v)
					}
					if a, _ := with["args"].(string); !strings.HasPrefix(a, "release") || strings.Contains(a, "--snapshot") {
						t.Errorf("release.yml: GoReleaser args %q, want release", a)
					}
				case strings.HasPrefix(u, "anchore/sbom-action/download-syft@"):
					syft = true
					if v, _ := with["syft-version"].(string); !regexp.MustCompile(`^v\d+\.\d+\.\d+$`).MatchString(v) {
						t.Errorf("release.yml: syft-version %q; pin a release", v)
					}
				}
			}
			if !goreleaser || !syft {
				t.Errorf("release.yml: the release job must install syft (for the SBOMs) and run GoReleaser (goreleaser %v, syft %v)", goreleaser, syft)
			}
		}
	}
	if writers != 1 {
		t.Errorf("release.yml: %d write permissions, want exactly one (contents, release job)", writers)
	}
}

// TestNoPackagesWriteOnPullRequests: a job a pull request runs must not be
// able to push images: packages: write (or write-all) only on a job whose
// `if` limits it to tag pushes, never at a PR-triggered workflow's top.
func TestNoPackagesWriteOnPullRequests(t *testing.T) {
	workflows, _ := workflowFiles(t)
	for _, wf := range workflows {
		m, _ := load(t, wf)
		on := m["on"]
		prs := false
		switch on := on.(type) {
		case map[string]any:
			_, a := on["pull_request"]
			_, b := on["pull_request_target"]
			prs = a || b
		case []any:
			prs = contains(stringsOf(on), "pull_request") || contains(stringsOf(on), "pull_request_target")
		case string:
			prs = on == "pull_request" || on == "pull_request_target"
		}
		if !prs {
			continue
		}
		grants := func(p any) bool {
			if s, ok := p.(string); ok {
				return s == "write-all"
			}
			pm, _ := p.(map[string]any)
			return pm["packages"] == "write"
		}
		if grants(m["permissions"]) {
			t.Errorf("%s: runs on pull requests and grants packages: write to every job", wf)
		}
		jobs, _ := m["jobs"].(map[string]any)
		for name, j := range jobs {
			job, _ := j.(map[string]any)
			if !grants(job["permissions"]) {
				continue
			}
			cond, _ := job["if"].(string)
			if !strings.Contains(cond, "refs/tags/v") || !strings.Contains(cond, "github.event_name == 'push'") {
				t.Errorf("%s: job %s can write packages but its if (%q) does not limit it to tag pushes", wf, name, cond)
			}
		}
	}
}
