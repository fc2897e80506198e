package runner

import (
	"slices"
	"testing"
	"time"
)

// Args gives back the run's flags, never a header value or the prompt map.
func TestConfigArgsLeaveSecretsOut(t *testing.T) {
	c := Config{Target: "https://a.example", Suites: []string{"lifecycle", "webhook"}, Seed: 7, Out: "dir",
		Headers: []string{"Authorization: Bearer s3cret"}, SecondHeaders: []string{"Authorization: Bearer other"},
		PromptMap: map[string]string{"complete": "hi"}, HookTimeout: 2 * time.Minute, NoDirective: true, Parallel: 3}
	got := c.Args()
	want := []string{"--target=https://a.example", "--suite=lifecycle", "--suite=webhook", "--seed=7",
		"--hook-timeout=2m0s", "--parallel=3", "--no-directive"}
	if !slices.Equal(got, want) {
		t.Fatalf("Args() = %q\nwant     %q", got, want)
	}
}
