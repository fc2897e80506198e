package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/a2a-conform/a2a-conform/suites"
)

func readRepoFile(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// An example that says it runs "every suite" lists every agent-mode suite
// (issue 20: two of four were listed; the client suite tests a client, not
// the agent these examples start).
func TestExamplesSayingEverySuiteListThemAll(t *testing.T) {
	t.Parallel()
	all := append([]string(nil), suites.SuiteNames...)
	sort.Strings(all)
	for _, p := range []string{"examples/vendor-ci.yaml", "examples/scorecard-entry.yaml"} {
		text := readRepoFile(t, p)
		if !strings.Contains(strings.ToLower(text), "every suite") {
			t.Errorf("%s no longer says 'every suite': revisit this test", p)
			continue
		}
		var c struct {
			Suite []string `yaml:"suite"`
		}
		if err := yaml.Unmarshal([]byte(text), &c); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		got := append([]string(nil), c.Suite...)
		sort.Strings(got)
		if strings.Join(got, ",") != strings.Join(all, ",") {
			t.Errorf("%s says every suite but lists %v; the registry has %v", p, c.Suite, all)
		}
	}
}

// The README's count of file-only keys names each of them.
func TestReadmeNamesEveryFileOnlyKey(t *testing.T) {
	t.Parallel()
	keys, err := configKeys()
	if err != nil {
		t.Fatal(err)
	}
	var fileOnly []string
	for _, k := range keys {
		if k.file && !k.flag {
			fileOnly = append(fileOnly, k.name)
		}
	}
	readme := readRepoFile(t, "README.md")
	m := regexp.MustCompile(`(?s)(\w+) keys exist only in the file:(.*?)\n\n`).FindStringSubmatch(readme)
	if m == nil {
		t.Fatal("README lost its sentence on file-only keys")
	}
	words := map[string]int{"One": 1, "Two": 2, "Three": 3, "Four": 4, "Five": 5}
	if words[m[1]] != len(fileOnly) {
		t.Errorf("README says %s file-only keys; there are %d: %v", m[1], len(fileOnly), fileOnly)
	}
	for _, k := range fileOnly {
		if !strings.Contains(m[2], "`"+k+"`") {
			t.Errorf("README's file-only keys omit %q", k)
		}
	}
}

// The README and the vendor guide give the same docker --user form.
func TestDockerUserFormIsOne(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`--user "[^"]*"`)
	forms := map[string][]string{}
	for _, p := range []string{"README.md", "docs/vendor-guide.md"} {
		for _, f := range re.FindAllString(readRepoFile(t, p), -1) {
			forms[f] = append(forms[f], p)
		}
	}
	if len(forms) != 1 {
		t.Errorf("docker --user forms differ: %v", forms)
	}
	if _, ok := forms[`--user "$(id -u):$(id -g)"`]; !ok {
		t.Errorf("want --user \"$(id -u):$(id -g)\", have %v", forms)
	}
}

// a2a-go refuses loopback webhooks by default from its release v2.4.0 (on
// v2.3.1 it did not): a sentence saying it does names the release.
func TestA2AGoLoopbackClaimNamesTheRelease(t *testing.T) {
	t.Parallel()
	claim := regexp.MustCompile(`a2a-go[^.]*(by default|does this)`)
	for _, p := range []string{"README.md", "docs/vendor-guide.md", "docs/fault-matrix.md"} {
		text := strings.Join(strings.Fields(readRepoFile(t, p)), " ")
		for _, loc := range claim.FindAllStringIndex(text, -1) {
			start := max(loc[0]-40, 0)
			end := min(loc[1]+80, len(text))
			if s := text[start:end]; !strings.Contains(s, "v2.4.0") {
				t.Errorf("%s: %q does not name the release, v2.4.0, from which a2a-go does it", p, s)
			}
		}
	}
}
