package cli

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/runner"
)

const configRefPath = "../../docs/config-reference.md"

// TestConfigReference fails when docs/config-reference.md differs from what
// the run flags and runner.Config generate, so that the page cannot drift
// from the binary. To accept a change to a flag or a key:
// UPDATE_GOLDEN=1 go test ./internal/cli -run TestConfigReference
func TestConfigReference(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// Every scalar flag given on the command line wins over the config file's
// value of the same key, the hook commands included: mergeFlags copies by
// key, so a new flag cannot be left out of it.
func TestFlagsWinOverTheFile(t *testing.T) {
	t.Parallel()
	var a runArgs
	fs := runFlagSet(io.Discard, &a)
	var file runner.Config
	fv := reflect.ValueOf(&file).Elem()
	var args []string
	want := map[string]string{}
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name == "config" || listFlags[f.Name] {
			return
		}
		i, ok := configField(f.Name)
		if !ok {
			t.Errorf("flag --%s has no config key", f.Name)
			return
		}
		field := fv.Field(i)
		var flagValue string
		switch field.Interface().(type) {
		case string:
			field.SetString("from-file")
			flagValue = "from-flag"
		case time.Duration:
			field.SetInt(int64(9 * time.Second))
			flagValue = "3s"
		case bool:
			flagValue = "true"
		case int, int64:
			field.SetInt(9)
			flagValue = "7"
		default:
			t.Errorf("flag --%s: no test value for %s", f.Name, field.Type())
			return
		}
		args = append(args, "--"+f.Name+"="+flagValue)
		want[f.Name] = flagValue
	})
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	merged := reflect.ValueOf(mergeFlags(fs, file, a.c))
	for name, v := range want {
		i, _ := configField(name)
		got := fmt.Sprint(merged.Field(i).Interface())
		if got != v {
			t.Errorf("--%s=%s over the file's value: merged %s", name, v, got)
		}
	}
	for _, name := range []string{"hook-rotate-card", "hook-rollout-step", "hook-restart-instance", "hook-timeout"} {
		if _, ok := want[name]; !ok {
			t.Errorf("--%s was not checked", name)
		}
	}
}
