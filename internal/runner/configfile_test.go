package runner

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func writeConfig(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestConfigFileReadsEveryKind(t *testing.T) {
	p := writeConfig(t, "c.yaml", `
target: https://agent.example.com
suite: discovery, lifecycle
focus: [LIFE-014]
header: "Authorization: Bearer x"
hook-timeout: 2m
request-timeout: 1.5s
instances: 3
no-directive: true
prompt-map:
  complete: say hello
`)
	c, err := LoadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	want := Config{Target: "https://agent.example.com", Suites: []string{"discovery", "lifecycle"}, Focus: []string{"LIFE-014"},
		Headers: []string{"Authorization: Bearer x"}, HookTimeout: 2 * time.Minute, RequestTimeout: 1500 * time.Millisecond,
		Instances: 3, NoDirective: true, PromptMap: map[string]string{"complete": "say hello"}}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("got %+v\nwant %+v", c, want)
	}
	j := writeConfig(t, "c.json", `{"target": "http://127.0.0.1:1", "suite": ["rollout"], "parallel": 2}`)
	c, err = LoadFile(j)
	if err != nil || c.Target != "http://127.0.0.1:1" || c.Parallel != 2 || len(c.Suites) != 1 {
		t.Fatalf("JSON: %+v, %v", c, err)
	}
	if c, err := LoadFile(writeConfig(t, "empty.yaml", "")); err != nil || !reflect.DeepEqual(c, Config{}) {
		t.Fatalf("empty file: %+v, %v", c, err)
	}
}

// Every error names the file, the line and the key in the flags' words,
// never a Go type, and all of them come at once.
func TestConfigFileErrorsNameFileLineAndKey(t *testing.T) {
	p := writeConfig(t, "bad.yaml", "targett: http://x\nhook-timeout: 30\nparallel: many\nprompt-map: [a]\nseed: 1\nseed: 2\nrequest-timeout: soon\n")
	_, err := LoadFile(p)
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{
		p + `:1: unknown key "targett" (did you mean "target"?)`,
		p + `:2: hook-timeout: 30 has no unit; write it as a duration such as 30s`,
		p + `:3: parallel: want a whole number, got "many"`,
		p + `:4: prompt-map: want a mapping`,
		p + `:6: key "seed" given twice (first on line 5)`,
		p + `:7: request-timeout: "soon" is not a duration`,
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("missing %q in:\n%s", want, msg)
		}
	}
	for _, leak := range []string{"runner.Config", "!!int", "time.Duration", "unmarshal"} {
		if strings.Contains(msg, leak) {
			t.Errorf("error leaks Go internals (%q):\n%s", leak, msg)
		}
	}
	if _, err := LoadFile(writeConfig(t, "far.yaml", "zzzzqqq: 1\n")); err == nil || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("a key far from every known one gets no suggestion: %v", err)
	}
	if _, err := LoadFile(writeConfig(t, "list.yaml", "- target\n")); err == nil || !strings.Contains(err.Error(), "list.yaml:1: the config must be a mapping") {
		t.Errorf("a list document: %v", err)
	}
	if _, err := LoadFile(writeConfig(t, "bad.json", `{"target": "x",`)); err == nil || !strings.Contains(err.Error(), "not valid YAML or JSON") {
		t.Errorf("broken JSON: %v", err)
	}
}
