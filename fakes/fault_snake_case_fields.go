package fakes

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode"
)

// faultSnakeCaseFields: JSON results, stream events and pushes use snake_case member names (context_id, message_id)
// instead of ProtoJSON lowerCamelCase.
var faultSnakeCaseFields = register(FaultInfo{
	Name:        "snake-case-fields",
	Scenario:    "",
	Description: "JSON results, stream events and pushes use snake_case member names (context_id, message_id) instead of ProtoJSON lowerCamelCase.",
	Specs:       []string{"LIFE-001"},
})

// snakeCaseKeys renames every object member of a JSON document from
// lowerCamelCase to snake_case (ProtoJSON parsers accept both; a v1.0 writer
// must use camelCase). A document that does not parse is returned unchanged.
func snakeCaseKeys(b []byte) []byte {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return b
	}
	out, err := json.Marshal(snakeValue(v))
	if err != nil {
		return b
	}
	return out
}

func snakeValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			m[camelToSnake(k)] = snakeValue(e)
		}
		return m
	case []any:
		for i := range t {
			t[i] = snakeValue(t[i])
		}
		return t
	}
	return v
}

func camelToSnake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) && i > 0 {
			b.WriteByte('_')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}
