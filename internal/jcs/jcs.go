// Package jcs is the RFC 8785 JSON Canonicalization Scheme: one byte string
// per JSON value, so that a hash or a signature over JSON does not depend on
// the writer's layout, key order or number formatting. Report digests and
// Agent Card signatures (spec §8.4.1) both rest on it.
//
// Parse refuses what would make the canonical form ambiguous between readers:
// invalid UTF-8, duplicate object keys, integers beyond ±(2^53−1), nesting
// deeper than MaxDepth, trailing data.
package jcs

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth bounds nesting while parsing: a report nests about eight levels
// deep and a card a dozen more.
const MaxDepth = 256

// maxSafeInteger is 2^53−1, the largest integer every JSON reader (I-JSON,
// RFC 7493 §2.2) holds exactly. Larger integers would canonicalise
// differently in different languages, so they are refused.
const maxSafeInteger = 1<<53 - 1

// Parse reads one JSON value into a generic tree: map[string]any, []any,
// string, float64, bool and nil.
func Parse(raw []byte) (any, error) {
	if !utf8.Valid(raw) {
		return nil, errors.New("not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := parseValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the top-level value")
	}
	return v, nil
}

// Marshal writes a tree as Parse returns it in canonical form.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := writeCanonical(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Canonicalize is Parse then Marshal.
func Canonicalize(raw []byte) ([]byte, error) {
	v, err := Parse(raw)
	if err != nil {
		return nil, err
	}
	return Marshal(v)
}

// parseValue builds a generic tree from the token stream, which (unlike
// json.Unmarshal into a map) lets it notice duplicate keys.
func parseValue(dec *json.Decoder, depth int) (any, error) {
	if depth > MaxDepth {
		return nil, fmt.Errorf("nested deeper than %d levels", MaxDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, fmt.Errorf("malformed JSON: %w", err)
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := map[string]any{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, fmt.Errorf("malformed JSON: %w", err)
				}
				k, ok := kt.(string)
				if !ok {
					return nil, errors.New("malformed JSON: object key is not a string")
				}
				if _, dup := obj[k]; dup {
					return nil, fmt.Errorf("duplicate object key %q", k)
				}
				v, err := parseValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				obj[k] = v
			}
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("malformed JSON: %w", err)
			}
			return obj, nil
		case '[':
			arr := []any{}
			for dec.More() {
				v, err := parseValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, v)
			}
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("malformed JSON: %w", err)
			}
			return arr, nil
		}
		return nil, fmt.Errorf("malformed JSON: unexpected %v", t)
	case json.Number:
		f, err := numberValue(string(t))
		if err != nil {
			return nil, err
		}
		return f, nil
	default: // string, bool, nil
		return t, nil
	}
}

func numberValue(lit string) (float64, error) {
	if !strings.ContainsAny(lit, ".eE") {
		n, err := strconv.ParseInt(lit, 10, 64)
		if err != nil || n > maxSafeInteger || n < -maxSafeInteger {
			return 0, fmt.Errorf("integer %s is outside ±(2^53−1), the range every JSON reader holds exactly (I-JSON)", lit)
		}
		return float64(n), nil
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil {
		return 0, fmt.Errorf("number %s does not fit an IEEE-754 double", lit)
	}
	return f, nil
}

func writeCanonical(b *bytes.Buffer, v any) error {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		slices.SortFunc(keys, compareUTF16)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeCanonicalString(b, k)
			b.WriteByte(':')
			if err := writeCanonical(b, t[k]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeCanonical(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case string:
		writeCanonicalString(b, t)
	case float64:
		s, err := FormatNumber(t)
		if err != nil {
			return err
		}
		b.WriteString(s)
	case bool:
		if t {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case nil:
		b.WriteString("null")
	default:
		return fmt.Errorf("unexpected JSON value %T", v)
	}
	return nil
}

// compareUTF16 orders object keys by their UTF-16 code units (RFC 8785 §3.2.3),
// which differs from byte order only for characters beyond U+FFFF.
func compareUTF16(a, b string) int {
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

// writeCanonicalString escapes only what RFC 8785 §3.2.2.2 requires: the
// quote, the backslash and control characters; everything else is literal
// UTF-8.
func writeCanonicalString(b *bytes.Buffer, s string) {
	const hexDigits = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xf])
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
}

// FormatNumber writes a double the way ECMAScript's Number.prototype.toString
// does (ECMA-262 §7.1.12.1), which RFC 8785 §3.2.2.3 adopts: the shortest
// digits that round-trip, plain notation for exponents in [-6, 21), otherwise
// d.ddde±x.
func FormatNumber(f float64) (string, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", errors.New("NaN or infinity cannot be written in JSON")
	}
	if f == 0 {
		return "0", nil // also −0
	}
	sign := ""
	if f < 0 {
		sign, f = "-", -f
	}
	mant, expPart, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
	exp, err := strconv.Atoi(expPart)
	if err != nil {
		return "", err
	}
	digits := strings.Replace(mant, ".", "", 1)
	k, n := len(digits), exp+1 // value = 0.digits × 10^n
	var out string
	switch {
	case k <= n && n <= 21:
		out = digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		out = digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		out = "0." + strings.Repeat("0", -n) + digits
	default:
		e := n - 1
		es := "+"
		if e < 0 {
			es, e = "-", -e
		}
		out = digits[:1]
		if k > 1 {
			out += "." + digits[1:]
		}
		out += "e" + es + strconv.Itoa(e)
	}
	return sign + out, nil
}
