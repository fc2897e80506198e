package jcs

import (
	"math"
	"testing"
)

func TestFormatNumber(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{1, "1"},
		{-1.5, "-1.5"},
		{0.1, "0.1"},
		{4.5, "4.5"},
		{0.002, "0.002"},
		{0.000001, "0.000001"},
		{0.000001234, "0.000001234"},
		{1e-7, "1e-7"},
		{1.5e-7, "1.5e-7"},
		{1e-27, "1e-27"},
		{1e20, "100000000000000000000"},
		{1.2345678901234568e20, "123456789012345680000"},
		{1e21, "1e+21"},
		{1e30, "1e+30"},
		{333333333.33333329, "333333333.3333333"},
		{9007199254740991, "9007199254740991"},
		{5e-324, "5e-324"},
		{1.7976931348623157e308, "1.7976931348623157e+308"},
		{1520.25, "1520.25"},
	}
	for _, tc := range tests {
		got, err := FormatNumber(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("FormatNumber(%v) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := FormatNumber(math.NaN()); err == nil {
		t.Error("NaN accepted")
	}
}

func TestCanonicalizeRFC8785Example(t *testing.T) {
	in := `{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/", "literals": [null, true, false]}`
	want := `{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`
	got, err := Canonicalize([]byte(in))
	if err != nil || string(got) != want {
		t.Fatalf("Canonicalize = %s, %v\nwant %s", got, err, want)
	}
}

func TestParseRefusesAmbiguousInput(t *testing.T) {
	for name, in := range map[string]string{
		"duplicate key": `{"a":1,"a":2}`,
		"big integer":   `[9007199254740993]`,
		"invalid UTF-8": "\"\xff\"",
		"trailing data": `{} {}`,
		"malformed":     `{"a":}`,
	} {
		if _, err := Parse([]byte(in)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if v, err := Parse([]byte(`"top-level string"`)); err != nil || v != "top-level string" {
		t.Errorf("a non-object top level is a JSON value too: %v %v", v, err)
	}
}
