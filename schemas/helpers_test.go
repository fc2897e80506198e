package schemas

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
)

// example loads testdata/valid/<name>.json as a generic JSON tree.
func example(t testing.TB, name string) any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "valid", name+".json"))
	if err != nil {
		t.Fatalf("no valid example for %s: %v", name, err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("example %s: %v", name, err)
	}
	return v
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func tokens(ptr string) []string {
	if ptr == "" {
		return nil
	}
	toks := strings.Split(ptr[1:], "/")
	for i, tok := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
	}
	return toks
}

// edit applies fn to the container holding the member or item ptr names.
func edit(t testing.TB, doc any, ptr string, fn func(parent any, last string)) {
	t.Helper()
	toks := tokens(ptr)
	if len(toks) == 0 {
		t.Fatalf("cannot edit the root")
	}
	cur := doc
	for _, tok := range toks[:len(toks)-1] {
		switch c := cur.(type) {
		case map[string]any:
			next, ok := c[tok]
			if !ok {
				t.Fatalf("%s: no member %q", ptr, tok)
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i >= len(c) {
				t.Fatalf("%s: no item %q", ptr, tok)
			}
			cur = c[i]
		default:
			t.Fatalf("%s: %q is inside a scalar", ptr, tok)
		}
	}
	fn(cur, toks[len(toks)-1])
}

func remove(t testing.TB, doc any, ptr string) {
	t.Helper()
	edit(t, doc, ptr, func(parent any, last string) {
		obj, ok := parent.(map[string]any)
		if !ok {
			t.Fatalf("%s: parent is not an object", ptr)
		}
		if _, ok := obj[last]; !ok {
			t.Fatalf("%s: nothing to remove", ptr)
		}
		delete(obj, last)
	})
}

func set(t testing.TB, doc any, ptr string, v any) {
	t.Helper()
	edit(t, doc, ptr, func(parent any, last string) {
		switch p := parent.(type) {
		case map[string]any:
			p[last] = v
		case []any:
			i, _ := strconv.Atoi(last)
			p[i] = v
		default:
			t.Fatalf("%s: parent is a scalar", ptr)
		}
	})
}

func validate(t testing.TB, name string, doc []byte) []invariants.Violation {
	t.Helper()
	vs, err := Validate(name, doc)
	if err != nil {
		t.Fatalf("Validate(%s): %v", name, err)
	}
	return vs
}

func find(vs []invariants.Violation, where, expectedSubstring string) bool {
	for _, v := range vs {
		if v.Where == where && strings.Contains(v.Expected, expectedSubstring) {
			return true
		}
	}
	return false
}

func dump(vs []invariants.Violation) string {
	if len(vs) == 0 {
		return "(no violations)"
	}
	return invariants.Summarize(vs, 0)
}
