package workflows

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// dockerLines returns the Dockerfile's instructions, continuation lines
// joined and comments dropped.
func dockerLines(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	cont := ""
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasSuffix(l, `\`) {
			cont += strings.TrimSuffix(l, `\`) + " "
			continue
		}
		lines = append(lines, cont+l)
		cont = ""
	}
	return lines
}

// pinnedImage is a base image by tag and digest: the tag for people, the
// digest (of the multi-platform index) for the pull.
var pinnedImage = regexp.MustCompile(`^[a-z0-9.-]+(?:/[a-z0-9._-]+)*:[A-Za-z0-9._-]+@sha256:[0-9a-f]{64}$`)

// TestDockerfilePinsAndLabels: every base image is pinned by digest (a tag
// can be moved under a build), and every image stage carries the OCI labels
// (source, version, revision, licenses) from build arguments.
func TestDockerfilePinsAndLabels(t *testing.T) {
	args := map[string]string{}
	stages := map[string]bool{}
	type stage struct {
		name   string
		args   map[string]bool
		labels string
	}
	var all []*stage
	var cur *stage
	for _, l := range dockerLines(t) {
		fields := strings.Fields(l)
		switch strings.ToUpper(fields[0]) {
		case "ARG":
			name, def, _ := strings.Cut(fields[1], "=")
			if cur == nil {
				args[name] = strings.Trim(def, `"`)
			} else {
				cur.args[name] = true
			}
		case "FROM":
			ref := ""
			for _, f := range fields[1:] {
				if !strings.HasPrefix(f, "--") {
					ref = f
					break
				}
			}
			img := regexp.MustCompile(`\$\{(\w+)\}|\$(\w+)`).ReplaceAllStringFunc(ref, func(v string) string {
				return args[strings.Trim(v, "${}")]
			})
			if !stages[img] && !pinnedImage.MatchString(img) {
				t.Errorf("Dockerfile: FROM %s (= %q) is not pinned as name:tag@sha256:<digest>", ref, img)
			}
			cur = &stage{args: map[string]bool{}}
			if len(fields) >= 4 && strings.EqualFold(fields[len(fields)-2], "AS") {
				cur.name = fields[len(fields)-1]
				stages[cur.name] = true
			}
			all = append(all, cur)
		case "LABEL":
			if cur != nil {
				cur.labels += " " + l
			}
		}
	}
	if len(all) < 2 {
		t.Fatal("Dockerfile: want a build stage and image stages")
	}
	for _, s := range all[1:] {
		for key, arg := range map[string]string{"source": "SOURCE", "version": "VERSION", "revision": "REVISION", "licenses": "LICENSES"} {
			want := `org.opencontainers.image.` + key + `="${` + arg + `}"`
			if !strings.Contains(s.labels, want) {
				t.Errorf("Dockerfile: stage %s lacks LABEL %s", s.name, want)
			}
			if !s.args[arg] {
				t.Errorf("Dockerfile: stage %s uses ${%s} in a label without declaring ARG %s in the stage (it would be empty)", s.name, arg, arg)
			}
		}
	}
}
