package cli

import (
	"os"
	"path/filepath"
	"testing"
)

const configRefPath = "../../docs/config-reference.md"

// TestConfigReference fails when docs/config-reference.md differs from what
// the run flags and runner.Config generate, so that the page cannot drift
// from the binary. To accept a change to a flag or a key:
// UPDATE_GOLDEN=1 go test ./internal/cli -run TestConfigReference
func TestConfigReference(t *testing.T) {
	got, err := ConfigReference()
	if err != nil {
		t.Fatalf("flags and config keys disagree:\n%v", err)
	}
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile(configRefPath, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(configRefPath)
	if err != nil {
		t.Fatalf("reading %s: %v", filepath.Clean(configRefPath), err)
	}
	if got != string(want) {
		t.Fatalf("docs/config-reference.md is stale.\n--- generated\n%s--- committed\n%s"+
			"If the change is deliberate, run UPDATE_GOLDEN=1 go test ./internal/cli -run TestConfigReference and commit the page.",
			got, want)
	}
}

// Every flag but --config has a config key, and every key that has no flag
// is documented: the generator refuses otherwise.
func TestConfigKeysCoverFlagsAndFields(t *testing.T) {
	keys, err := configKeys()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]configKey{}
	for _, k := range keys {
		seen[k.name] = k
	}
	for _, want := range []string{"target", "agent-cmd", "header", "prompt-map", "implementation-name", "webhook-url", "config"} {
		if _, ok := seen[want]; !ok {
			t.Errorf("reference lacks %q", want)
		}
	}
	if k := seen["prompt-map"]; k.flag || !k.file {
		t.Errorf("prompt-map is a file-only key: %+v", k)
	}
	if k := seen["config"]; !k.flag || k.file {
		t.Errorf("config is a flag-only key: %+v", k)
	}
}
