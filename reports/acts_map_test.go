package reports

import (
	"flag"
	"os"
	"slices"
	"strings"
	"testing"
)

var updateACTSDoc = flag.Bool("update-acts-doc", false, "rewrite docs/acts-mapping.md from ACTSTests")

const actsMappingDoc = "../docs/acts-mapping.md"

// docs/acts-mapping.md is ACTSMappingDoc of the table the ACTS report uses,
// so the published table cannot drift from what the reports carry.
func TestACTSMappingDocIsCurrent(t *testing.T) {
	want := ACTSMappingDoc()
	if *updateACTSDoc {
		if err := os.WriteFile(actsMappingDoc, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(actsMappingDoc)
	if err != nil {
		t.Fatalf("%v: run `go test ./reports -run TestACTSMappingDocIsCurrent -update-acts-doc`", err)
	}
	if string(got) != want {
		g, w := strings.Split(string(got), "\n"), strings.Split(want, "\n")
		for i := range max(len(g), len(w)) {
			var a, b string
			if i < len(g) {
				a = g[i]
			}
			if i < len(w) {
				b = w[i]
			}
			if a != b {
				t.Fatalf("%s is stale: run `go test ./reports -run TestACTSMappingDocIsCurrent -update-acts-doc` and commit it.\nline %d:\n  committed: %s\n  expected:  %s", actsMappingDoc, i+1, a, b)
			}
		}
	}
}

// The table lists each of the draft's 103 agent-side tests once, with the
// draft's level and transports, and every row says why it is (or is not)
// mapped. The suites package checks the specs it names against the
// registry (suites.TestACTSMappingMatchesTheRegistry).
func TestACTSTableIsWellFormed(t *testing.T) {
	if len(ACTSTests) != 103 {
		t.Errorf("%d ACTS tests, the draft has 103 agent-side ones", len(ACTSTests))
	}
	seen := map[string]bool{}
	for _, x := range ACTSTests {
		if seen[x.ID] {
			t.Errorf("%s listed twice", x.ID)
		}
		seen[x.ID] = true
		if strings.HasPrefix(x.ID, "CLIENT-") {
			t.Errorf("%s is a client test", x.ID)
		}
		if !slices.Contains([]string{"must", "should", "may"}, x.Level) {
			t.Errorf("%s: level %q", x.ID, x.Level)
		}
		for _, tr := range x.Transports {
			if !slices.ContainsFunc(actsTransports, func(a struct{ name, binding string }) bool { return a.name == tr }) {
				t.Errorf("%s: transport %q", x.ID, tr)
			}
		}
		if x.Name == "" || x.Suite == "" || x.Why == "" {
			t.Errorf("%s: name, suite and why are required", x.ID)
		}
		if x.Spec != "" && len(x.Part) > 0 {
			t.Errorf("%s: mapped to %s and partial %v", x.ID, x.Spec, x.Part)
		}
		if x.Spec == "" && len(x.Part) == 0 && !strings.HasPrefix(x.Why, "not covered: ") {
			t.Errorf("%s: neither mapped nor partial, and why does not start \"not covered: \"", x.ID)
		}
	}
}

// A spec mapped to a transport-filtered ACTS test keeps its own ID in the
// other transports' reports; one mapped to two unfiltered tests is both.
func TestACTSTestsForFollowsTheDraftsTransports(t *testing.T) {
	ids := func(spec, tr string) string {
		var out []string
		for _, x := range actsTestsFor(spec, tr) {
			out = append(out, x.ID)
		}
		return strings.Join(out, ",")
	}
	for _, c := range []struct{ spec, tr, want string }{
		{"DISC-010", "jsonrpc", "VER-NEG-001"},
		{"DISC-010", "grpc", ""},
		{"LIFE-008", "rest", "CORE-SEND-002,CORE-ERR-004"},
		{"LIFE-001", "jsonrpc", ""},
	} {
		if got := ids(c.spec, c.tr); got != c.want {
			t.Errorf("%s on %s: %q, want %q", c.spec, c.tr, got, c.want)
		}
	}
}
