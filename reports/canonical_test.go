package reports

import (
	"crypto/sha256"
	"encoding/hex"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The worked example of RFC 8785 §3.2.2 (numbers, string escapes, literals)
// and its §3.2.3 key-ordering example (UTF-16 order puts U+1F600 before U+FB33).
func TestCanonicalRFC8785Examples(t *testing.T) {
	tests := []struct{ in, want string }{
		{
			in:   `{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001], "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/", "literals": [null, true, false]}`,
			want: `{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`,
		},
		{
			in:   `{"\u20ac":"Euro Sign","\r":"Carriage Return","\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\ud83d\ude00":"Emoji: Grinning Face","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis"}`,
			want: "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"ö\":\"Latin Small Letter O With Diaeresis\",\"€\":\"Euro Sign\",\"😀\":\"Emoji: Grinning Face\",\"דּ\":\"Hebrew Letter Dalet With Dagesh\"}",
		},
	}
	for _, tc := range tests {
		got, err := canonicalReport([]byte(tc.in))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("canonical form\n got %s\nwant %s", got, tc.want)
		}
	}
}

func TestDigestIgnoresLayoutAndTheDigestMember(t *testing.T) {
	a := `{"b":[1,2,{"y":true,"x":null}],"a":"é","digest":"sha256:whatever"}`
	b := "{\n  \"a\": \"\\u00e9\",\n  \"b\": [1.0, 2e0, {\"x\": null, \"y\": true}]\n}\n"
	da, err := DigestOf([]byte(a))
	if err != nil {
		t.Fatal(err)
	}
	db, err := DigestOf([]byte(b))
	if err != nil {
		t.Fatal(err)
	}
	if da != db {
		t.Fatalf("same content, different digests: %s vs %s", da, db)
	}
	sum := sha256.Sum256([]byte(`{"a":"é","b":[1,2,{"x":null,"y":true}]}`))
	if want := DigestPrefix + hex.EncodeToString(sum[:]); da != want {
		t.Fatalf("digest = %s, want sha256 of the canonical text %s", da, want)
	}
}

func TestDigestRefusesAmbiguousInput(t *testing.T) {
	tests := map[string]string{
		"duplicate key":         `{"a":1,"a":2}`,
		"nested duplicate":      `{"r":[{"verdict":"fail","verdict":"pass"}]}`,
		"integer beyond I-JSON": `{"seed":9007199254740993}`,
		"invalid UTF-8":         "{\"a\":\"\xff\"}",
		"not an object":         `[1,2]`,
		"trailing data":         `{"a":1} {"b":2}`,
		"malformed":             `{"a":}`,
		"too deep":              `{"a":` + strings.Repeat("[", maxJSONDepth+2) + strings.Repeat("]", maxJSONDepth+2) + `}`,
	}
	for name, in := range tests {
		if d, err := DigestOf([]byte(in)); err == nil {
			t.Errorf("%s: accepted, digest %s", name, d)
		}
	}
	if _, err := DigestOf([]byte(`{"seed":9007199254740991,"neg":-9007199254740991}`)); err != nil {
		t.Errorf("largest safe integers refused: %v", err)
	}
}

// nodeDigest is the recipe docs/report-format.md gives third parties; JS's
// JSON.stringify and default sort are exactly RFC 8785 for parsed JSON.
const nodeDigest = `const fs = require("fs"), crypto = require("crypto");
const canon = v => Array.isArray(v) ? "[" + v.map(canon).join(",") + "]"
  : v !== null && typeof v === "object"
    ? "{" + Object.keys(v).sort().map(k => JSON.stringify(k) + ":" + canon(v[k])).join(",") + "}"
    : JSON.stringify(v);
const report = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
delete report.digest;
console.log("sha256:" + crypto.createHash("sha256").update(canon(report), "utf8").digest("hex"));`

// TestDigestMatchesDocumentedRecipe checks the documented recipe against
// ours on a report with awkward content: keys beyond U+FFFF, control
// characters, fractions. It needs node; without it the RFC vectors above
// still pin the format.
func TestDigestMatchesDocumentedRecipe(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not on PATH: the documented third-party recipe is not cross-checked")
	}
	r := sampleReport("Acme \U0001F600 \u2028 \x01", "1")
	r.Results[5].Observations = map[string]string{"\U0001F600": "a", "\uFB33": "b", "\u00e9": "c\u0000\t"}
	r.Results[5].Transcript[0].AtMs = 0.000123
	r.Results[5].Transcript[0].DurMs = 123456789.125
	p := filepath.Join(t.TempDir(), "report.json")
	if err := WriteJSON(p, r); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, "-e", nodeDigest, p).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	if got := strings.TrimSpace(string(out)); got != r.Digest {
		t.Fatalf("documented recipe gives %s, report says %s", got, r.Digest)
	}
}
