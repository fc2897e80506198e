package schemas

import (
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
)

// v03TaskStateLocation is where the schema rejects a v0.3 state spelling; a
// violation there also names the v1.0 state meant.
var v03TaskStateLocation = schemaLocation("/$defs/v03TaskState")

// maxActual bounds every Actual (and each echoed value inside an Expected): a
// vendor's document is untrusted and may be megabytes long.
const maxActual = 200

// flatten turns the validator's error tree into one violation per failing leaf.
// Group and $ref nodes are structure only. A node whose schema carries an
// x-a2a-expected text for its keyword becomes one violation with that text and
// is not descended into: "exactly one of text, raw, url, data" says more than
// the four "missing property" errors beneath a oneOf.
func (c *compiled) flatten(e *jsonschema.ValidationError, doc any, out *[]invariants.Violation) {
	switch e.ErrorKind.(type) {
	case *kind.Group, *kind.Reference:
		for _, cause := range e.Causes {
			c.flatten(cause, doc, out)
		}
		return
	}
	value, _ := valueAt(doc, e.InstanceLocation)
	where := pointer(e.InstanceLocation)
	if text, ok := c.annotation(e.SchemaURL, keyword(e.ErrorKind)); ok {
		if s, isString := value.(string); isString && e.SchemaURL == v03TaskStateLocation {
			if v1, known := a2a.TaskState(s).V03Equivalent(); known && v1 != a2a.TaskStateUnspecified {
				text += "; the v1.0 name for it is " + string(v1)
			}
		}
		*out = append(*out, invariants.Violation{Invariant: Invariant, Where: where, Expected: text, Actual: describe(value)})
		return
	}
	if req, ok := e.ErrorKind.(*kind.Required); ok {
		obj, _ := value.(map[string]any)
		for _, name := range req.Missing {
			*out = append(*out, invariants.Violation{
				Invariant: Invariant, Where: where + "/" + escapeToken(name),
				Expected: fmt.Sprintf("required property '%s'", name),
				Actual:   absent(obj, name),
			})
		}
		return
	}
	if len(e.Causes) > 0 {
		for _, cause := range e.Causes {
			c.flatten(cause, doc, out)
		}
		return
	}
	expected, actual := explain(e.ErrorKind, value)
	*out = append(*out, invariants.Violation{Invariant: Invariant, Where: where, Expected: expected, Actual: actual})
}

func (c *compiled) annotation(schemaURL, keyword string) (string, bool) {
	if keyword == "" {
		return "", false
	}
	text, ok := c.expected[schemaURL][keyword]
	return text, ok
}

// keyword names the schema keyword that failed. jsonschema v6 gives no keyword
// path for 'not', so it is named here.
func keyword(k jsonschema.ErrorKind) string {
	if _, ok := k.(*kind.Not); ok {
		return "not"
	}
	if p := k.KeywordPath(); len(p) > 0 {
		return p[0]
	}
	return ""
}

// absent says a REQUIRED member is missing, and names the snake_case spelling
// when that is what the document used instead (spec §5.5: JSON names MUST be
// camelCase).
func absent(obj map[string]any, name string) string {
	if snake := camelToSnake(name); snake != name {
		if _, ok := obj[snake]; ok {
			return fmt.Sprintf("absent; '%s' is present, but JSON member names MUST be camelCase (spec §5.5)", snake)
		}
	}
	return "absent"
}

func camelToSnake(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r >= 'A' && r <= 'Z' {
			b.WriteByte('_')
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// explain states what a leaf keyword wanted and what the value was instead.
func explain(k jsonschema.ErrorKind, value any) (expected, actual string) {
	actual = describe(value)
	switch k := k.(type) {
	case *kind.Type:
		return "a JSON " + orList(k.Want), actual
	case *kind.Enum:
		vals := make([]string, len(k.Want))
		for i, w := range k.Want {
			vals[i] = render(w, 40)
			if s, ok := w.(string); ok {
				vals[i] = s
			}
		}
		return clip("one of "+strings.Join(vals, ", "), 400), actual
	case *kind.Const:
		return "the value " + render(k.Want, 60), actual
	case *kind.MinItems:
		return fmt.Sprintf("at least %d %s", k.Want, plural(k.Want, "item", "items")), fmt.Sprintf("%d %s", k.Got, plural(k.Got, "item", "items"))
	case *kind.MaxItems:
		return fmt.Sprintf("at most %d %s", k.Want, plural(k.Want, "item", "items")), fmt.Sprintf("%d %s", k.Got, plural(k.Got, "item", "items"))
	case *kind.MinLength:
		if k.Want == 1 {
			return "a non-empty string", actual
		}
		return fmt.Sprintf("a string of at least %d characters", k.Want), actual
	case *kind.MaxLength:
		return fmt.Sprintf("a string of at most %d characters", k.Want), actual
	case *kind.Pattern:
		return "a string matching " + clip(k.Want, 100), actual
	case *kind.Format:
		return formatName(k.Want), clip(actual+" ("+fmt.Sprint(k.Err)+")", maxActual)
	case *kind.ContentEncoding:
		return k.Want + " content", clip(fmt.Sprint(k.Err), maxActual)
	case *kind.Minimum:
		return "a number ≥ " + k.Want.RatString(), actual
	case *kind.Maximum:
		return "a number ≤ " + k.Want.RatString(), actual
	case *kind.ExclusiveMinimum:
		return "a number > " + k.Want.RatString(), actual
	case *kind.ExclusiveMaximum:
		return "a number < " + k.Want.RatString(), actual
	case *kind.OneOf:
		if len(k.Subschemas) == 2 {
			return "exactly one matching alternative (oneOf)", fmt.Sprintf("alternatives %d and %d both match: %s", k.Subschemas[0], k.Subschemas[1], actual)
		}
		return "exactly one matching alternative (oneOf)", actual
	case *kind.AnyOf:
		return "at least one matching alternative (anyOf)", actual
	case *kind.Not:
		return "a value that does not match the 'not' schema", actual
	case *kind.FalseSchema:
		return "no value here", actual
	case *kind.AdditionalProperties:
		return "no members besides the declared ones", "extra: " + clip(strings.Join(k.Properties, ", "), maxActual)
	}
	return "to satisfy the JSON Schema keyword '" + strings.Join(k.KeywordPath(), "/") + "'", actual
}

func formatName(f string) string {
	switch f {
	case "uri":
		return "an absolute URI (RFC 3986)"
	case "date-time":
		return "an RFC 3339 date-time"
	}
	return "a valid " + f
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// orList renders JSON type names as "string", "string or null", "string, number or null".
func orList(types []string) string {
	switch len(types) {
	case 0:
		return "value"
	case 1:
		return types[0]
	}
	return strings.Join(types[:len(types)-1], ", ") + " or " + types[len(types)-1]
}

// describe renders a value for Actual within maxActual: scalars as JSON,
// objects by their member names (more telling than a clipped excerpt), arrays
// by their length.
func describe(v any) string {
	switch v := v.(type) {
	case map[string]any:
		if len(v) == 0 {
			return "an empty object"
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return clip("an object with members "+strings.Join(keys, ", "), maxActual)
	case []any:
		if len(v) == 0 {
			return "an empty array"
		}
		return fmt.Sprintf("an array of %d %s", len(v), plural(len(v), "item", "items"))
	case string:
		if v == "" {
			return "an empty string"
		}
	}
	return render(v, maxActual)
}

// render writes a scalar as JSON, clipping a long string before it is quoted
// so that a megabyte of base64 is never copied into a report.
func render(v any, max int) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		if len(v) > max {
			return strconv.Quote(clip(v, max-2))
		}
		return strconv.Quote(v)
	case json.Number:
		return clip(v.String(), max)
	case bool:
		return strconv.FormatBool(v)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%T", v)
	}
	return clip(string(b), max)
}

// clip cuts s to at most max bytes on a rune boundary, marking the cut.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max - len("…")
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func valueAt(doc any, loc []string) (any, bool) {
	v := doc
	for _, tok := range loc {
		switch cur := v.(type) {
		case map[string]any:
			next, ok := cur[tok]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(cur) {
				return nil, false
			}
			v = cur[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// pointer renders an instance location as an RFC 6901 JSON pointer; the root
// is "".
func pointer(loc []string) string {
	var b strings.Builder
	for _, tok := range loc {
		b.WriteByte('/')
		b.WriteString(escapeToken(tok))
	}
	return b.String()
}

func escapeToken(tok string) string {
	tok = strings.ReplaceAll(tok, "~", "~0")
	return strings.ReplaceAll(tok, "/", "~1")
}

// schemaLocation renders a pointer into the schema document the way the
// validator names subschemas (jsonschema v6: $id + "#" + path-escaped tokens),
// so that annotations can be found from an error's SchemaURL.
func schemaLocation(ptr string) string {
	toks := strings.Split(ptr, "/")
	for i, t := range toks {
		toks[i] = url.PathEscape(t)
	}
	return SchemaID + "#" + strings.Join(toks, "/")
}

// sortViolations orders by location (array indexes numerically, so /parts/2
// comes before /parts/10), then by text, and drops exact duplicates, which a
// value failing two keywords of one annotated schema produces.
func sortViolations(vs []invariants.Violation) []invariants.Violation {
	sort.SliceStable(vs, func(i, j int) bool {
		if c := comparePointers(vs[i].Where, vs[j].Where); c != 0 {
			return c < 0
		}
		if vs[i].Expected != vs[j].Expected {
			return vs[i].Expected < vs[j].Expected
		}
		return vs[i].Actual < vs[j].Actual
	})
	out := vs[:0]
	for _, v := range vs {
		if len(out) > 0 && v == out[len(out)-1] {
			continue
		}
		out = append(out, v)
	}
	return out
}

func comparePointers(a, b string) int {
	at, bt := strings.Split(a, "/"), strings.Split(b, "/")
	for i := 0; i < len(at) && i < len(bt); i++ {
		if at[i] == bt[i] {
			continue
		}
		ai, aerr := strconv.Atoi(at[i])
		bi, berr := strconv.Atoi(bt[i])
		if aerr == nil && berr == nil {
			if ai < bi {
				return -1
			}
			return 1
		}
		if at[i] < bt[i] {
			return -1
		}
		return 1
	}
	return len(at) - len(bt)
}
