package suites

import (
	"os"
	"strings"
	"testing"
)

// TestGoldenList fails when a spec is added, removed or renamed without the
// reviewed golden list changing with it (Kubernetes' conformance habit). To
// accept a deliberate change: UPDATE_GOLDEN=1 go test ./suites -run TestGoldenList
func TestGoldenList(t *testing.T) {
	var lines []string
	for _, i := range All() {
		lines = append(lines, i.GoldenLine())
	}
	got := strings.Join(lines, "\n") + "\n"
	if os.Getenv("UPDATE_GOLDEN") == "1" {
		if err := os.WriteFile("specs.golden", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("specs.golden")
	if err != nil {
		t.Fatalf("reading specs.golden: %v", err)
	}
	if got != string(want) {
		t.Fatalf("the spec registry and specs.golden differ.\n--- registry\n%s--- specs.golden\n%s"+
			"If the change is deliberate, run UPDATE_GOLDEN=1 go test ./suites -run TestGoldenList and commit specs.golden.",
			got, want)
	}
}

// TestRegistryIsWellFormed checks what every report and `explain` relies on.
func TestRegistryIsWellFormed(t *testing.T) {
	for _, i := range All() {
		if !idPattern(i.ID) {
			t.Errorf("%s: ID must be AREA-NNN with AREA one of DISC, LIFE, PUSH, ROLL, CLI", i.ID)
		}
		area := map[string]string{"DISC": Discovery, "LIFE": Lifecycle, "PUSH": Webhook, "ROLL": Rollout, "CLI-": Client}[i.ID[:4]]
		if i.Suite != area {
			t.Errorf("%s: suite %q, want %q for its area", i.ID, i.Suite, area)
		}
		if i.Title == "" || i.Why == "" || len(i.Sections) == 0 {
			t.Errorf("%s: needs a title, a why and at least one spec section", i.ID)
		}
		switch i.Level {
		case MUST, SHOULD, MAY, INVARIANT:
		default:
			t.Errorf("%s: unknown level %q", i.ID, i.Level)
		}
		if len(i.Needs) > 0 && i.Enable == "" {
			t.Errorf("%s: needs %v but does not say how to enable it", i.ID, i.Needs)
		}
		for _, l := range i.Labels() {
			if strings.ContainsAny(l, "&|!,()/") {
				t.Errorf("%s: label %q has a character Ginkgo forbids", i.ID, l)
			}
		}
	}
}

func idPattern(id string) bool {
	if len(id) == 7 && id[:4] == "CLI-" {
		id = "CLIX" + id[3:]
	}
	if len(id) != 8 || id[4] != '-' {
		return false
	}
	switch id[:4] {
	case "DISC", "LIFE", "PUSH", "ROLL", "CLIX":
	default:
		return false
	}
	for _, c := range id[5:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
