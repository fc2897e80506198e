package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/suites"
)

// notRunConfigs are the files in examples/ that are not `run --config`
// files, each with what it is instead.
var notRunConfigs = map[string]string{
	"gitlab-ci.yml":      "a GitLab CI pipeline running the container image",
	"github-sharded.yml": "a GitHub workflow running shards and merging them (internal/workflows checks it)",
}

// TestExampleConfigsLoad loads every example config as `run --config` would
// and validates it, so that an example cannot name a key the loader refuses
// (unknown keys are an error) or a value Validate rejects, and checks that
// the hook commands an example gives are shell the hooks driver can run.
func TestExampleConfigsLoad(t *testing.T) {
	entries, err := os.ReadDir("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || notRunConfigs[name] != "" {
			continue
		}
		ext := strings.ToLower(filepath.Ext(name))
		if ext != ".yaml" && ext != ".yml" && ext != ".json" {
			t.Errorf("examples/%s: neither a config (.yaml, .json) nor listed in notRunConfigs", name)
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			c, err := LoadFile(filepath.Join("../../examples", name))
			if err != nil {
				t.Fatalf("does not load: %v", err)
			}
			if c.Target == "" && c.AgentCmd == "" && !c.NoDirective {
				t.Errorf("names neither a target nor an agent command: what does it run against?")
			}
			for k := range c.PromptMap {
				if !contains(suites.PromptKeys, k) {
					t.Errorf("prompt-map key %q: the harness knows %s", k, strings.Join(suites.PromptKeys, ", "))
				}
			}
			if err := c.Validate(); err != nil {
				t.Fatalf("does not validate: %v", err)
			}
			for point, cmd := range c.HookCommands() {
				if sh, err := exec.LookPath("sh"); err == nil {
					if out, err := exec.Command(sh, "-n", "-c", cmd).CombinedOutput(); err != nil {
						t.Errorf("hook-%s is not valid shell: %v\n%s", point, err, out)
					}
				}
			}
		})
	}
	if n < 5 {
		t.Fatalf("found %d example configs, want the reference prompt map, vendor CI, staging, scorecard entry and LLM prompt map", n)
	}
}
