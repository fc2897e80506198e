package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"
)

// MaxJSONDepth is the deepest nesting accepted in an answer: encoding/json's
// own limit, checked here first so the reason says so.
const MaxJSONDepth = 10000

// checkJSONText rejects what encoding/json would accept silently or report
// obscurely, and what RFC 8259 and I-JSON (RFC 7493) forbid or warn against:
// invalid UTF-8 (json.Unmarshal replaces it with U+FFFD), nesting deeper
// than MaxJSONDepth, duplicate member names (decoders disagree on which
// wins), and numbers beyond the IEEE 754 double range. doc must be one JSON
// value; syntax errors are left to the decoder that follows.
func checkJSONText(doc []byte) error {
	if !utf8.Valid(doc) {
		i := 0
		for i < len(doc) {
			r, n := utf8.DecodeRune(doc[i:])
			if r == utf8.RuneError && n <= 1 {
				break
			}
			i += n
		}
		return fmt.Errorf("invalid UTF-8 in the JSON text at byte %d (RFC 8259 §8.1 requires UTF-8)", i)
	}
	if !bytes.ContainsAny(doc, "{[") {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	type frame struct {
		object bool
		keys   map[string]struct{}
		expect bool // next string token in an object is a key
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return nil // a syntax error: the decoder that follows names it
		}
		var top *frame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		isKey := top != nil && top.object && top.expect
		if top != nil && top.object {
			top.expect = !top.expect
		}
		switch v := tok.(type) {
		case json.Delim:
			switch v {
			case '{', '[':
				if len(stack) >= MaxJSONDepth {
					return fmt.Errorf("JSON nested deeper than %d levels", MaxJSONDepth)
				}
				stack = append(stack, frame{object: v == '{', expect: true})
			case '}', ']':
				stack = stack[:len(stack)-1]
			}
		case string:
			if isKey {
				if top.keys == nil {
					top.keys = map[string]struct{}{}
				}
				if _, dup := top.keys[v]; dup {
					return fmt.Errorf("duplicate member name %s in a JSON object (RFC 8259 §4: names SHOULD be unique; decoders disagree on which value wins)", quoteCapped(v, 64))
				}
				top.keys[v] = struct{}{}
			}
		case json.Number:
			if _, err := strconv.ParseFloat(string(v), 64); err != nil {
				return fmt.Errorf("number %s… (%d characters) is out of the IEEE 754 double range (RFC 7493 §2.2)", capString(string(v), 16), len(v))
			}
		}
	}
}
