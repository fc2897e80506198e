package runner

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	yaml "go.yaml.in/yaml/v3"
)

// decodeConfig reads a config document (YAML, or JSON, which is YAML) key
// by key, so that every problem names the file, the line and the key in the
// words of the flags, never a Go type: an unknown key gets the nearest known
// one as a suggestion, a duration without a unit says how to write it, and
// the list keys (suite, focus, fault, header, second-header) take a single
// scalar as the flag does ("suite: discovery", or "discovery,lifecycle" for
// suite, focus and fault). Every problem in the file is reported at once.
func decodeConfig(path string, data []byte) (Config, error) {
	var c Config
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return c, fmt.Errorf("%s: not valid YAML or JSON: %s", path, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return c, nil // an empty file sets nothing
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return c, fmt.Errorf("%s:%d: the config must be a mapping of flag names to values (e.g. \"target: https://agent.example.com\")", path, root.Line)
	}
	fields := configFields()
	var problems []string
	seen := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		key := k.Value
		at := fmt.Sprintf("%s:%d", path, k.Line)
		if line, dup := seen[key]; dup {
			problems = append(problems, fmt.Sprintf("%s: key %q given twice (first on line %d)", at, key, line))
			continue
		}
		seen[key] = k.Line
		idx, ok := fields[key]
		if !ok {
			msg := fmt.Sprintf("%s: unknown key %q", at, key)
			if s := nearestKey(key, fields); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			problems = append(problems, msg+"; the keys are the flags of `a2a-conform run` without their dashes (docs/config-reference.md)")
			continue
		}
		if err := setField(reflect.ValueOf(&c).Elem().Field(idx), key, v); err != nil {
			problems = append(problems, fmt.Sprintf("%s:%d: %s: %s", path, v.Line, key, err))
		}
	}
	if len(problems) > 0 {
		return c, fmt.Errorf("%s", strings.Join(problems, "\n"))
	}
	return c, nil
}

// configFields maps each config key (its yaml tag) to the field's index.
func configFields() map[string]int {
	out := map[string]int{}
	t := reflect.TypeOf(Config{})
	for i := range t.NumField() {
		tag := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
		if tag != "" && tag != "-" {
			out[tag] = i
		}
	}
	return out
}

// commaLists are the keys whose flag takes comma-separated values.
var commaLists = map[string]bool{"suite": true, "focus": true, "fault": true}

var durationType = reflect.TypeOf(time.Duration(0))

func setField(f reflect.Value, key string, v *yaml.Node) error {
	kind := map[yaml.Kind]string{yaml.MappingNode: "a mapping", yaml.SequenceNode: "a list", yaml.ScalarNode: "a single value", yaml.AliasNode: "an alias"}[v.Kind]
	switch {
	case f.Type() == durationType:
		if v.Kind != yaml.ScalarNode {
			return fmt.Errorf("want a duration such as 30s or 2m, got %s", kind)
		}
		if _, err := strconv.ParseFloat(v.Value, 64); err == nil {
			return fmt.Errorf("%s has no unit; write it as a duration such as %ss or %sms", v.Value, v.Value, v.Value)
		}
		d, err := time.ParseDuration(v.Value)
		if err != nil || d < 0 {
			return fmt.Errorf("%q is not a duration; write it such as 30s, 1m30s or 500ms", v.Value)
		}
		f.SetInt(int64(d))
	case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.String:
		var items []string
		switch v.Kind {
		case yaml.ScalarNode:
			items = []string{v.Value}
			if commaLists[key] {
				items = nil
				for _, p := range strings.Split(v.Value, ",") {
					if p = strings.TrimSpace(p); p != "" {
						items = append(items, p)
					}
				}
			}
		case yaml.SequenceNode:
			for _, it := range v.Content {
				if it.Kind != yaml.ScalarNode {
					return fmt.Errorf("want a list of single values, got an item that is not one (line %d)", it.Line)
				}
				items = append(items, it.Value)
			}
		default:
			return fmt.Errorf("want a value or a list of values, got %s", kind)
		}
		f.Set(reflect.ValueOf(items))
	case f.Kind() == reflect.Map:
		if v.Kind != yaml.MappingNode {
			return fmt.Errorf("want a mapping of names to text (e.g. \"complete: say hello\"), got %s", kind)
		}
		m := map[string]string{}
		for i := 0; i+1 < len(v.Content); i += 2 {
			if v.Content[i+1].Kind != yaml.ScalarNode {
				return fmt.Errorf("%s: want text, got %s (line %d)", v.Content[i].Value, "a structure", v.Content[i+1].Line)
			}
			m[v.Content[i].Value] = v.Content[i+1].Value
		}
		f.Set(reflect.ValueOf(m))
	case f.Kind() == reflect.Bool:
		b, err := strconv.ParseBool(v.Value)
		if v.Kind != yaml.ScalarNode || err != nil {
			return fmt.Errorf("want true or false, got %q", v.Value)
		}
		f.SetBool(b)
	case f.Kind() == reflect.Int || f.Kind() == reflect.Int64:
		n, err := strconv.ParseInt(v.Value, 10, 64)
		if v.Kind != yaml.ScalarNode || err != nil {
			return fmt.Errorf("want a whole number, got %q", v.Value)
		}
		f.SetInt(n)
	case f.Kind() == reflect.String:
		if v.Kind != yaml.ScalarNode {
			return fmt.Errorf("want a single value, got %s", kind)
		}
		f.SetString(v.Value)
	default:
		return fmt.Errorf("cannot be set from the config file")
	}
	return nil
}

// nearestKey is the known key closest to key (Nearest).
func nearestKey(key string, fields map[string]int) string {
	names := make([]string, 0, len(fields))
	for n := range fields {
		names = append(names, n)
	}
	return Nearest(strings.ToLower(key), names)
}

// Nearest is the name in names closest to name by edit distance, if close
// enough to be a typo (at most a third of name's length, and at least 1),
// else "". Ties go to the first in sorted order. The config file's keys and
// the CLI's flags both suggest with it.
func Nearest(name string, names []string) string {
	names = slices.Sorted(slices.Values(names))
	best, bestD := "", max(1, len(name)/3)+1
	for _, n := range names {
		if d := editDistance(name, n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Args is the run's configuration as `a2a-conform run` flags, the way a
// reader re-runs it: every key set, lists repeated, secrets left out. The
// header values (--header, --second-header) are never written: the
// reproduction reads them from $A2A_CONFORM_HEADERS and
// $A2A_CONFORM_SECOND_HEADERS, and the report says so. --out is left out
// (a re-run writes elsewhere), and so is the prompt map (a file's worth of
// text: the reproduction names --config instead), and --previous (a view of
// report.html, not part of how the run was made).
func (c Config) Args() []string {
	var out []string
	v := reflect.ValueOf(c)
	t := v.Type()
	for i := range t.NumField() {
		key := strings.Split(t.Field(i).Tag.Get("yaml"), ",")[0]
		switch key {
		case "", "-", "out", "header", "second-header", "prompt-map", "previous":
			continue
		}
		f := v.Field(i)
		switch {
		case f.IsZero():
		case f.Type() == durationType:
			out = append(out, "--"+key+"="+time.Duration(f.Int()).String())
		case f.Kind() == reflect.Slice:
			for j := range f.Len() {
				out = append(out, "--"+key+"="+f.Index(j).String())
			}
		case f.Kind() == reflect.Bool:
			out = append(out, "--"+key)
		default:
			out = append(out, fmt.Sprintf("--%s=%v", key, f.Interface()))
		}
	}
	return out
}
