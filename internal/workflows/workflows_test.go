package workflows

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/a2a-conform/a2a-conform/internal/runner"
)

// root is the repository root, relative to this package.
const root = "../.."

// thisRepo is the harness's own repository: a workflow that checks it out
// into a path and uses an action from there uses a file of this tree.
const thisRepo = "a2a-conform/a2a-conform"

// Pinning policy (docs/design-decisions.md, "CI and delivery"): a third-party `uses:`
// names a full 40-hex commit SHA, the commit of a release tag, with that
// tag in a comment on the same line (`@<sha> # v7.0.1`). Never a tag alone
// (a tag can be moved), a moving major tag (@v4) or a branch.
// scripts/verify-action-pins.sh checks each SHA against its tag upstream.
var (
	fullSHA    = regexp.MustCompile(`^[0-9a-f]{40}$`)
	versionTag = regexp.MustCompile(`^#\s*(v\d+\.\d+\.\d+)$`)
)

// localRef finds repository paths named in scripts and inputs, so that a
// renamed script or config breaks a test, not a vendor's pipeline.
var localRef = regexp.MustCompile(`(?:^|[\s"'=(])((?:\$GITHUB_ACTION_PATH/|\$\{\{ github\.action_path \}\}/)?(?:scripts|examples|docs|\.github|\.ci)/[A-Za-z0-9_./-]+|Dockerfile|go\.mod|go\.sum)`)

func exists(rel string) bool {
	_, err := os.Stat(filepath.Join(root, rel))
	return err == nil
}

func load(t *testing.T, rel string) (map[string]any, *yaml.Node) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("%s: not valid YAML: %v", rel, err)
	}
	var m map[string]any
	if err := yaml.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: not a YAML mapping: %v", rel, err)
	}
	return m, &doc
}

// workflowFiles lists every workflow and every action of the repository.
func workflowFiles(t *testing.T) (workflows, actions []string) {
	t.Helper()
	for _, pat := range []string{".github/workflows/*.yml", ".github/workflows/*.yaml"} {
		m, _ := filepath.Glob(filepath.Join(root, pat))
		for _, p := range m {
			rel, _ := filepath.Rel(root, p)
			workflows = append(workflows, filepath.ToSlash(rel))
		}
	}
	for _, pat := range []string{"action.yml", "action.yaml", ".github/actions/*/action.yml", ".github/actions/*/action.yaml"} {
		m, _ := filepath.Glob(filepath.Join(root, pat))
		for _, p := range m {
			rel, _ := filepath.Rel(root, p)
			actions = append(actions, filepath.ToSlash(rel))
		}
	}
	sort.Strings(workflows)
	if len(workflows) < 3 || len(actions) < 1 {
		t.Fatalf("want the CI, reusable and scorecard workflows and the composite action; found %v and %v", workflows, actions)
	}
	return workflows, actions
}

func keysOf(m map[string]any) []string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	sort.Strings(k)
	return k
}

func checkKeys(t *testing.T, where string, m map[string]any, required, allowed []string) {
	t.Helper()
	ok := map[string]bool{}
	for _, k := range append(required, allowed...) {
		ok[k] = true
	}
	for _, k := range required {
		if _, has := m[k]; !has {
			t.Errorf("%s: missing key %q", where, k)
		}
	}
	for _, k := range keysOf(m) {
		if !ok[k] {
			t.Errorf("%s: unexpected key %q (typo?)", where, k)
		}
	}
}

// usesNodes returns every `uses:` value node in the document, with the
// comment on its line (where a SHA pin keeps its version).
func usesNodes(n *yaml.Node) []*yaml.Node {
	var out []*yaml.Node
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == "uses" && n.Content[i+1].Kind == yaml.ScalarNode {
					out = append(out, n.Content[i+1])
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
	return out
}

// checkUses checks one `uses:` value: a local path that exists, or a remote
// action pinned as the policy says. checkouts maps a path a job checks this
// repository out into (a checkout step's `with.path`) to the tree here.
func checkUses(t *testing.T, where string, n *yaml.Node, checkouts map[string]bool) {
	t.Helper()
	if p := usesProblem(n, checkouts); p != "" {
		t.Errorf("%s:%d: uses %q: %s", where, n.Line, n.Value, p)
	}
}

func usesProblem(n *yaml.Node, checkouts map[string]bool) string {
	u := n.Value
	switch {
	case strings.HasPrefix(u, "./"):
		p := strings.TrimPrefix(u, "./")
		for dir := range checkouts {
			if p == dir || strings.HasPrefix(p, dir+"/") {
				p = strings.TrimPrefix(strings.TrimPrefix(p, dir), "/")
			}
		}
		if strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml") {
			if !exists(p) {
				return "no such workflow"
			}
			return ""
		}
		if !exists(filepath.Join(p, "action.yml")) && !exists(filepath.Join(p, "action.yaml")) {
			return "no action.yml there"
		}
	case strings.HasPrefix(u, "docker://"):
		if !strings.Contains(u, "@sha256:") {
			return "a container action must be pinned by digest"
		}
	default:
		name, ref, ok := strings.Cut(u, "@")
		if !ok || strings.Count(name, "/") < 1 {
			return "want owner/repo@ref"
		}
		if !fullSHA.MatchString(ref) {
			return "pin by the full commit SHA of a release, with the release in a comment (@<sha> # vX.Y.Z); never a tag alone, a moving tag or a branch"
		}
		if !versionTag.MatchString(strings.TrimSpace(n.LineComment)) {
			return "a SHA pin needs its release, and only that, in a comment on its line (# vX.Y.Z)"
		}
	}
	return ""
}

// checkRefs checks that every repository path named in the file's strings
// exists. Globs (scorecard/submissions/*.json) and paths the run creates are
// not repository paths and do not match localRef's prefixes.
func checkRefs(t *testing.T, where string, n *yaml.Node, actionDir string) {
	t.Helper()
	var walk func(*yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode {
			for _, m := range localRef.FindAllStringSubmatch(n.Value, -1) {
				p := m[1]
				base := ""
				for _, pre := range []string{"$GITHUB_ACTION_PATH/", "${{ github.action_path }}/"} {
					if strings.HasPrefix(p, pre) {
						p, base = strings.TrimPrefix(p, pre), actionDir
					}
				}
				p = strings.TrimRight(p, ".,:;)")
				if strings.ContainsAny(p, "*?{$") {
					continue
				}
				if !exists(filepath.Join(base, p)) {
					t.Errorf("%s:%d: names %q, which does not exist", where, n.Line, filepath.Join(base, p))
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(n)
}

func TestWorkflows(t *testing.T) {
	workflows, _ := workflowFiles(t)
	for _, wf := range workflows {
		t.Run(filepath.Base(wf), func(t *testing.T) {
			m, doc := load(t, wf)
			checkKeys(t, wf, m, []string{"name", "on", "jobs"},
				[]string{"run-name", "permissions", "env", "defaults", "concurrency"})
			if _, ok := m["permissions"]; !ok {
				t.Errorf("%s: set top-level permissions (least privilege for GITHUB_TOKEN)", wf)
			}
			jobs, ok := m["jobs"].(map[string]any)
			if !ok || len(jobs) == 0 {
				t.Fatalf("%s: jobs must be a non-empty mapping", wf)
			}
			checkouts := map[string]bool{}
			for name, j := range jobs {
				job, ok := j.(map[string]any)
				if !ok {
					t.Errorf("%s: job %s is not a mapping", wf, name)
					continue
				}
				if _, reusable := job["uses"]; reusable {
					if _, has := job["steps"]; has {
						t.Errorf("%s: job %s calls a workflow and has steps", wf, name)
					}
					continue
				}
				if _, ok := job["runs-on"]; !ok {
					t.Errorf("%s: job %s has no runs-on", wf, name)
				}
				steps, _ := job["steps"].([]any)
				if len(steps) == 0 {
					t.Errorf("%s: job %s has no steps", wf, name)
				}
				for i, s := range steps {
					step, _ := s.(map[string]any)
					_, hasUses := step["uses"]
					_, hasRun := step["run"]
					if hasUses == hasRun {
						t.Errorf("%s: job %s step %d needs exactly one of uses and run", wf, name, i+1)
					}
					if u, _ := step["uses"].(string); strings.HasPrefix(u, "actions/checkout@") {
						with, _ := step["with"].(map[string]any)
						repo, _ := with["repository"].(string)
						if p, _ := with["path"].(string); p != "" && (repo == thisRepo || repo == "${{ github.repository }}" || repo == "${{ inputs.harness-repository }}") {
							checkouts[strings.TrimSuffix(strings.TrimPrefix(p, "./"), "/")] = true
						}
					}
				}
			}
			for _, n := range usesNodes(doc) {
				checkUses(t, wf, n, checkouts)
			}
			checkRefs(t, wf, doc, "")
		})
	}
}

func TestActions(t *testing.T) {
	_, actions := workflowFiles(t)
	for _, a := range actions {
		t.Run(a, func(t *testing.T) {
			m, doc := load(t, a)
			checkKeys(t, a, m, []string{"name", "description", "runs"}, []string{"author", "inputs", "outputs", "branding"})
			runs, _ := m["runs"].(map[string]any)
			if runs["using"] != "composite" {
				t.Fatalf("%s: runs.using = %v, want composite", a, runs["using"])
			}
			steps, _ := runs["steps"].([]any)
			if len(steps) == 0 {
				t.Fatalf("%s: no steps", a)
			}
			uploads := ""
			for i, s := range steps {
				step, _ := s.(map[string]any)
				if u, _ := step["uses"].(string); strings.HasPrefix(u, "actions/upload-artifact@") {
					with, _ := step["with"].(map[string]any)
					uploads += fmt.Sprint(with["path"])
				}
				if _, ok := step["run"]; ok {
					if _, ok := step["shell"]; !ok {
						t.Errorf("%s: step %d runs a script without shell (composite actions require it)", a, i+1)
					}
					// An input expanded inside a script is shell injection;
					// inputs reach scripts through env.
					if r, _ := step["run"].(string); strings.Contains(r, "${{") {
						t.Errorf("%s: step %d expands ${{ }} inside its script; pass it through env", a, i+1)
					}
				}
			}
			// The vendor guide sends a reader of exit 3 to agent.log and
			// hooks.log: they must be in the artifact.
			if uploads != "" {
				for _, f := range []string{"report.json", "junit.xml", "report.html", "agent.log", "hooks.log"} {
					if !strings.Contains(uploads, f) {
						t.Errorf("%s: the uploaded artifact lacks %s", a, f)
					}
				}
			}
			inputs, _ := m["inputs"].(map[string]any)
			for _, want := range []string{"target", "agent-cmd", "config", "headers", "second-headers"} {
				if _, ok := inputs[want]; !ok {
					t.Errorf("%s: no input %q", a, want)
				}
			}
			b, _ := os.ReadFile(filepath.Join(root, a))
			if !strings.Contains(string(b), "A2A_CONFORM_HEADERS: ${{ inputs.headers }}") {
				t.Errorf("%s: the headers input must reach the harness as $A2A_CONFORM_HEADERS, never as an argument", a)
			}
			if !strings.Contains(string(b), "A2A_CONFORM_SECOND_HEADERS: ${{ inputs.second-headers }}") {
				t.Errorf("%s: the second-headers input must reach the harness as $A2A_CONFORM_SECOND_HEADERS, never as an argument", a)
			}
			for _, n := range usesNodes(doc) {
				checkUses(t, a, n, nil)
			}
			checkRefs(t, a, doc, filepath.Dir(a))
		})
	}
}

// The scorecard's vendors: each names a config that loads as `run --config`
// would, under a name unique in the list and an implementation unique on
// the scorecard (it keys columns by implementation name and version).
func TestScorecardVendors(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, ".github/scorecard/vendors.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vendors []struct{ Name, Config string }
	if err := json.Unmarshal(b, &vendors); err != nil {
		t.Fatalf("vendors.json: %v", err)
	}
	if len(vendors) == 0 {
		t.Fatal("vendors.json lists no vendor")
	}
	names, impls := map[string]bool{}, map[string]bool{}
	for _, v := range vendors {
		if v.Name == "" || names[v.Name] {
			t.Errorf("vendor name %q empty or repeated", v.Name)
		}
		names[v.Name] = true
		c, err := runner.LoadFile(filepath.Join(root, v.Config))
		if err != nil {
			t.Errorf("vendor %s: %v", v.Name, err)
			continue
		}
		if c.ImplementationName == "" || c.ImplementationVersion == "" {
			t.Errorf("vendor %s: give implementation-name and implementation-version, the scorecard's column key", v.Name)
		}
		key := c.ImplementationName + "\x00" + c.ImplementationVersion
		if impls[key] {
			t.Errorf("vendor %s: implementation %q %q already on the scorecard", v.Name, c.ImplementationName, c.ImplementationVersion)
		}
		impls[key] = true
		if err := c.Validate(); err != nil {
			t.Errorf("vendor %s: %v", v.Name, err)
		}
	}
}

// dockerStage is one FROM … AS name block of the Dockerfile.
type dockerStage struct {
	name, user string
	entrypoint bool
}

// TestDockerfile checks the Dockerfile without Docker, on every go test:
// every COPY source exists and is not excluded by .dockerignore, COPY --from
// names an earlier stage, the Go directories copied cover every package the
// binary imports, and every image stage runs as a non-root user.
// scripts/docker-smoke.sh (CI's image job) builds the images and runs them.
func TestDockerfile(t *testing.T) {
	f, err := os.Open(filepath.Join(root, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ignored := dockerignore(t)
	var stages []*dockerStage
	copied := map[string]bool{}
	var lines []string
	sc := bufio.NewScanner(f)
	var cont string
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(l, "#") || l == "" {
			continue
		}
		if strings.HasSuffix(l, `\`) {
			cont += strings.TrimSuffix(l, `\`) + " "
			continue
		}
		lines = append(lines, cont+l)
		cont = ""
	}
	for _, l := range lines {
		fields := strings.Fields(l)
		switch strings.ToUpper(fields[0]) {
		case "FROM":
			s := &dockerStage{}
			if len(fields) >= 4 && strings.EqualFold(fields[2], "AS") {
				s.name = fields[3]
			}
			stages = append(stages, s)
		case "USER":
			stages[len(stages)-1].user = fields[1]
		case "ENTRYPOINT":
			stages[len(stages)-1].entrypoint = true
		case "COPY", "ADD":
			args := fields[1:]
			from := ""
			for len(args) > 0 && strings.HasPrefix(args[0], "--") {
				if v, ok := strings.CutPrefix(args[0], "--from="); ok {
					from = v
				}
				args = args[1:]
			}
			if len(args) < 2 {
				t.Errorf("Dockerfile: %q: want sources and a destination", l)
				continue
			}
			if from != "" {
				known := false
				for _, s := range stages[:len(stages)-1] {
					known = known || s.name == from
				}
				if !known && !strings.Contains(from, "/") {
					t.Errorf("Dockerfile: %q: no earlier stage %q", l, from)
				}
				continue
			}
			for _, src := range args[:len(args)-1] {
				src = strings.TrimSuffix(src, "/")
				if !exists(src) {
					t.Errorf("Dockerfile: COPY %s: no such file in the repository", src)
				}
				if ignored[src] {
					t.Errorf("Dockerfile: COPY %s, but .dockerignore excludes it", src)
				}
				copied[src] = true
			}
		}
	}
	if len(stages) < 2 || stages[0].name == "" {
		t.Fatalf("Dockerfile: want a named build stage and an image stage, got %d stages", len(stages))
	}
	for i, s := range stages[1:] {
		switch {
		case s.user == "":
			t.Errorf("Dockerfile: stage %d (%s) sets no USER: it would run as root", i+2, s.name)
		case s.user == "root" || s.user == "0" || strings.HasPrefix(s.user, "0:") || strings.HasPrefix(s.user, "root:"):
			t.Errorf("Dockerfile: stage %d (%s) runs as root (USER %s)", i+2, s.name, s.user)
		}
		if !s.entrypoint {
			t.Errorf("Dockerfile: stage %d (%s) has no ENTRYPOINT", i+2, s.name)
		}
	}
	// Every package the binary imports must be in the build context.
	out, err := exec.Command("go", "list", "-C", root, "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "./cmd/a2a-conform").Output()
	if err != nil {
		t.Skipf("go list unavailable (%v): COPY coverage not checked", err)
	}
	const mod = "github.com/a2a-conform/a2a-conform/"
	for _, p := range strings.Fields(string(out)) {
		rel, ok := strings.CutPrefix(p, mod)
		if !ok {
			continue
		}
		top, _, _ := strings.Cut(rel, "/")
		if !copied[top] {
			t.Errorf("Dockerfile: the binary imports %s, but the build stage does not COPY %s/", p, top)
		}
	}
}

func dockerignore(t *testing.T) map[string]bool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, ".dockerignore"))
	if err != nil {
		t.Fatalf(".dockerignore: %v (without it the build context carries .git and every report)", err)
	}
	out := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			out[strings.Trim(l, "/")] = true
		}
	}
	for _, must := range []string{".git", "**/a2a-conform-report"} {
		if !out[must] {
			t.Errorf(".dockerignore: should exclude %s", must)
		}
	}
	return out
}

// The GitLab example: valid YAML, one job running the shell-bearing image
// variant (GitLab runs `script:` with a shell), reports kept as artifacts
// and the JUnit published.
func TestGitLabExample(t *testing.T) {
	m, doc := load(t, "examples/gitlab-ci.yml")
	if _, ok := m["stages"]; !ok {
		t.Error("gitlab-ci.yml: no stages")
	}
	job, ok := m["a2a-conformance"].(map[string]any)
	if !ok {
		t.Fatal("gitlab-ci.yml: no a2a-conformance job")
	}
	img, _ := job["image"].(map[string]any)
	if name, _ := img["name"].(string); !strings.HasSuffix(name, "-ci") {
		t.Errorf("gitlab-ci.yml: image %q: GitLab needs a shell in the job image; use the -ci variant", name)
	}
	script, ok := job["script"].([]any)
	if !ok || len(script) == 0 {
		t.Error("gitlab-ci.yml: job has no script")
	}
	for i, line := range script {
		// A line with ": " in it parses as a mapping unless quoted, and
		// GitLab then refuses the whole file.
		if _, ok := line.(string); !ok {
			t.Errorf("gitlab-ci.yml: script line %d is not a string but %T: %v", i+1, line, line)
		}
	}
	// GitLab cannot mask a value with spaces or newlines: the masked
	// variable is the token alone, and the header is built in the script.
	if text := fmt.Sprint(script); !strings.Contains(text, `A2A_CONFORM_HEADERS="Authorization: Bearer $A2A_TOKEN"`) {
		t.Error("gitlab-ci.yml: the header must be built from a maskable token variable")
	}
	art, _ := job["artifacts"].(map[string]any)
	rep, _ := art["reports"].(map[string]any)
	if rep["junit"] == nil {
		t.Error("gitlab-ci.yml: junit.xml is not published as a JUnit report")
	}
	checkRefs(t, "examples/gitlab-ci.yml", doc, "")
}

// The pinning check itself: what it accepts and refuses.
func TestPinPolicy(t *testing.T) {
	const sha = "3d3c42e5aac5ba805825da76410c181273ba90b1"
	for _, c := range []struct {
		uses, comment string
		ok            bool
	}{
		{"actions/checkout@" + sha, "# v7.0.1", true},
		{"actions/checkout@" + sha, "#v7.0.1", true},
		{"actions/checkout@" + sha, "", false},                  // which release?
		{"actions/checkout@" + sha, "# v7", false},              // a moving tag in the comment
		{"actions/checkout@" + sha, "# v7.0.1 and more", false}, // only the release
		{"actions/checkout@" + sha[:12], "# v7.0.1", false},     // short SHA
		{"actions/checkout@v7.0.1", "", false},                  // a tag can be moved
		{"actions/checkout@v7", "", false},
		{"actions/checkout@main", "", false},
		{"actions/checkout", "", false},
		{"docker://alpine:3", "", false},
		{"./.github/workflows/ci.yml", "", true},
	} {
		p := usesProblem(&yaml.Node{Value: c.uses, LineComment: c.comment}, nil)
		if (p == "") != c.ok {
			t.Errorf("uses %q %q: accepted=%v (%s), want %v", c.uses, c.comment, p == "", p, c.ok)
		}
	}
}

// TestPinsAgree: every file pins one action at one commit under one release
// name, so that an upgrade cannot leave a file behind.
func TestPinsAgree(t *testing.T) {
	workflows, actions := workflowFiles(t)
	type pin struct{ sha, release, where string }
	byAction := map[string]pin{}
	for _, f := range append(workflows, actions...) {
		_, doc := load(t, f)
		for _, n := range usesNodes(doc) {
			name, ref, ok := strings.Cut(n.Value, "@")
			m := versionTag.FindStringSubmatch(strings.TrimSpace(n.LineComment))
			if !ok || !fullSHA.MatchString(ref) || m == nil {
				continue // TestWorkflows and TestActions report it
			}
			here := pin{ref, m[1], fmt.Sprintf("%s:%d", f, n.Line)}
			prev, seen := byAction[name]
			switch {
			case !seen:
				byAction[name] = here
			case prev.sha != here.sha || prev.release != here.release:
				t.Errorf("%s pinned as %s (%s) at %s but as %s (%s) at %s", name, here.sha, here.release, here.where, prev.sha, prev.release, prev.where)
			}
		}
	}
	if len(byAction) == 0 {
		t.Fatal("no SHA-pinned action found")
	}
}

// The check summary and the annotations come from the binary
// (`a2a-conform summary`, tested with hostile agent text in
// reports/markdown_test.go), not from a script in another language: no
// action or workflow may call python or the deleted scripts/ci-summary.py,
// and the action's summary step must call the binary for both.
func TestCISummaryFromTheBinary(t *testing.T) {
	if _, err := os.Stat(filepath.Join(root, "scripts/ci-summary.py")); err == nil {
		t.Error("scripts/ci-summary.py is back; the summary is `a2a-conform summary`")
	}
	files, actions := workflowFiles(t)
	for _, f := range append(files, actions...) {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"python", "ci-summary"} {
			if strings.Contains(string(b), bad) {
				t.Errorf("%s mentions %q: the summary is `a2a-conform summary`", f, bad)
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`a2a-conform summary "$IN_OUT/report.json" >> "$GITHUB_STEP_SUMMARY"`, `a2a-conform summary --annotations "$IN_OUT/report.json"`, "summary.md", "acts-report-*.json"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("action.yml lacks %q", want)
		}
	}
}
