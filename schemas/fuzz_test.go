package schemas

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzValidate feeds arbitrary bytes to the StreamResponse and AgentCard
// schemas (the objects an agent sends most and least predictably) and checks
// that validation never panics, never reports a harness error, and that every
// violation is well formed: invariant set, a root-or-pointer location, both
// texts present and bounded.
func FuzzValidate(f *testing.F) {
	for _, name := range []string{StreamResponse, AgentCard, Task, Part} {
		b, err := os.ReadFile(filepath.Join("testdata", "valid", name+".json"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, s := range []string{
		`{}`, `[]`, `null`, `{"task":{"kind":"task","status":{"state":"completed"}}}`,
		`{"message":{"parts":[{"text":"a","raw":"!!"}],"role":"user"}}`,
		`{"statusUpdate":{"status":{"timestamp":"2026-01-01T00:00:00+02:00"}},"artifactUpdate":{}}`,
		`{"url":"https://a.example.com","skills":[]}`, `{"a/b~c":{"x":1}}`, "\xff\xfe", `{"id":`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		for _, name := range []string{StreamResponse, AgentCard} {
			vs, err := Validate(name, doc)
			if err != nil {
				t.Fatalf("%s: harness error %v", name, err)
			}
			for _, v := range vs {
				if v.Invariant != Invariant {
					t.Fatalf("%s: invariant %q", name, v.Invariant)
				}
				if v.Where != "" && !strings.HasPrefix(v.Where, "/") {
					t.Fatalf("%s: location %q is neither the root nor a pointer", name, v.Where)
				}
				if v.Expected == "" || v.Actual == "" {
					t.Fatalf("%s: empty text in %#v", name, v)
				}
				if len(v.Actual) > 2*maxActual {
					t.Fatalf("%s: Actual of %d bytes", name, len(v.Actual))
				}
			}
		}
	})
}
