package a2a

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// Extras holds the members of a JSON object that the v1.0 proto does not define
// for that message: v0.3 leftovers such as "kind", vendor additions, typos. They
// are kept (never dropped silently) so that checks can report them, and they are
// never written back out by MarshalJSON.
type Extras map[string]json.RawMessage

// Keys returns the unknown member names in sorted order.
func (e Extras) Keys() []string {
	keys := make([]string, 0, len(e))
	for k := range e {
		keys = append(keys, k)
	}
	sortStrings(keys)
	return keys
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// fieldNames caches, per struct type, the set of JSON member names its tags declare.
var fieldNames sync.Map // reflect.Type -> map[string]bool

func knownNames(t reflect.Type) map[string]bool {
	if v, ok := fieldNames.Load(t); ok {
		return v.(map[string]bool)
	}
	names := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		tag := t.Field(i).Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "" || name == "-" {
			continue
		}
		names[name] = true
	}
	fieldNames.Store(t, names)
	return names
}

// SnakeToCamel maps a proto field name (context_id) to its ProtoJSON name (contextId).
func SnakeToCamel(s string) string {
	if !strings.Contains(s, "_") {
		return s
	}
	var b strings.Builder
	upper := false
	for _, r := range s {
		if r == '_' {
			upper = true
			continue
		}
		if upper && r >= 'a' && r <= 'z' {
			r -= 'a' - 'A'
		}
		upper = false
		b.WriteRune(r)
	}
	return b.String()
}

// decodeLenient decodes one JSON object into target (a pointer to a struct whose
// own UnmarshalJSON is not called: pass a pointer to an alias type). Members named
// in snake_case are accepted as their camelCase equivalent, as ProtoJSON parsers
// must. Members the struct does not declare are returned as Extras. A JSON null
// leaves target untouched.
func decodeLenient(data []byte, target any) (Extras, error) {
	trimmed := bytes.TrimSpace(data)
	if bytes.Equal(trimmed, []byte("null")) {
		return nil, nil
	}
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return nil, fmt.Errorf("expected a JSON object, got %s", describeJSON(trimmed))
	}
	// Fast path: most documents use only the names the struct declares, and
	// one strict decode is then all it takes. Any unknown member (snake_case,
	// v0.3 leftovers, vendor additions) sends the document down the slow path.
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	err := dec.Decode(target)
	if err == nil {
		if dec.More() {
			return nil, fmt.Errorf("unexpected data after the JSON object")
		}
		return nil, nil
	}
	if !strings.HasPrefix(err.Error(), "json: unknown field ") {
		return nil, err
	}
	reflect.ValueOf(target).Elem().SetZero()
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &raw); err != nil {
		return nil, err
	}
	known := knownNames(reflect.TypeOf(target).Elem())
	var extras Extras
	renamed := false
	for k, v := range raw {
		if known[k] {
			continue
		}
		if c := SnakeToCamel(k); c != k && known[c] {
			if _, dup := raw[c]; !dup {
				raw[c] = v
			}
			delete(raw, k)
			renamed = true
			continue
		}
		if extras == nil {
			extras = Extras{}
		}
		extras[k] = v
		delete(raw, k)
		renamed = true
	}
	if !renamed {
		return nil, json.Unmarshal(trimmed, target)
	}
	norm, err := json.Marshal(raw)
	if err != nil {
		return extras, err
	}
	return extras, json.Unmarshal(norm, target)
}

// describeJSON names the kind of a JSON value for error messages without echoing
// an unbounded amount of it.
func describeJSON(b []byte) string {
	if len(b) == 0 {
		return "nothing"
	}
	kind := "a value"
	switch b[0] {
	case '[':
		kind = "an array"
	case '"':
		kind = "a string"
	case 't', 'f':
		kind = "a boolean"
	case 'n':
		kind = "null"
	default:
		if (b[0] >= '0' && b[0] <= '9') || b[0] == '-' {
			kind = "a number"
		}
	}
	snippet := b
	if len(snippet) > 64 {
		snippet = snippet[:64]
	}
	return fmt.Sprintf("%s (%q)", kind, snippet)
}
