package directive

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

func intp(i int) *int { return &i }

func TestPartRoundTrip(t *testing.T) {
	d := Directive{Version: 1, Outcome: OutcomeInputRequired, DelayMs: 250, ArtifactChunks: intp(3), Text: "héllo"}
	p, err := d.Part()
	if err != nil {
		t.Fatal(err)
	}
	wire, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"data":{"a2aConformDirective":{"version":1,"outcome":"input-required","delayMs":250,"artifactChunks":3,"text":"héllo"}},"mediaType":"application/json"}`
	if string(wire) != want {
		t.Fatalf("wire form:\n got %s\nwant %s", wire, want)
	}
	var back a2a.Part
	if err := json.Unmarshal(wire, &back); err != nil {
		t.Fatal(err)
	}
	got, found, err := Decode(back)
	if err != nil || !found {
		t.Fatalf("decode: found=%v err=%v", found, err)
	}
	if got.Outcome != d.Outcome || got.DelayMs != d.DelayMs || *got.ArtifactChunks != 3 || got.Text != d.Text {
		t.Fatalf("round trip changed the directive: %+v", got)
	}
}

func TestDecode(t *testing.T) {
	cases := []struct {
		name      string
		part      string
		found     bool
		errSubstr string
		check     func(t *testing.T, d Directive)
	}{
		{name: "text part", part: `{"text":"hi"}`},
		{name: "data part of someone else", part: `{"data":{"foo":1}}`},
		{name: "data array", part: `{"data":[1,2]}`},
		{name: "minimal", part: `{"data":{"a2aConformDirective":{"version":1}}}`, found: true,
			check: func(t *testing.T, d Directive) {
				if d.EffectiveOutcome() != OutcomeCompleted || d.Chunks() != 1 || d.Delay() != 0 {
					t.Fatalf("defaults: %+v", d)
				}
			}},
		{name: "unknown members ignored", part: `{"data":{"a2aConformDirective":{"version":1,"future":true,"outcome":"failed"}}}`, found: true,
			check: func(t *testing.T, d Directive) {
				if d.EffectiveOutcome() != OutcomeFailed || d.Chunks() != 0 {
					t.Fatalf("got %+v", d)
				}
			}},
		{name: "unknown version", part: `{"data":{"a2aConformDirective":{"version":2}}}`, found: true, errSubstr: "unsupported directive version 2"},
		{name: "missing version", part: `{"data":{"a2aConformDirective":{}}}`, found: true, errSubstr: "unsupported directive version 0"},
		{name: "unknown outcome", part: `{"data":{"a2aConformDirective":{"version":1,"outcome":"explode"}}}`, found: true, errSubstr: "unknown directive outcome"},
		{name: "negative delay", part: `{"data":{"a2aConformDirective":{"version":1,"delayMs":-1}}}`, found: true, errSubstr: "delayMs"},
		{name: "huge delay", part: `{"data":{"a2aConformDirective":{"version":1,"delayMs":86400000}}}`, found: true, errSubstr: "delayMs"},
		{name: "too many chunks", part: `{"data":{"a2aConformDirective":{"version":1,"artifactChunks":1000}}}`, found: true, errSubstr: "artifactChunks"},
		{name: "wrong type", part: `{"data":{"a2aConformDirective":{"version":"1"}}}`, found: true, errSubstr: "malformed"},
		{name: "not an object", part: `{"data":{"a2aConformDirective":7}}`, found: true, errSubstr: "malformed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p a2a.Part
			if err := json.Unmarshal([]byte(c.part), &p); err != nil {
				t.Fatal(err)
			}
			d, found, err := Decode(p)
			if found != c.found {
				t.Fatalf("found = %v, want %v", found, c.found)
			}
			if c.errSubstr == "" && err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if c.errSubstr != "" && (err == nil || !strings.Contains(err.Error(), c.errSubstr)) {
				t.Fatalf("error %v, want one containing %q", err, c.errSubstr)
			}
			if c.check != nil {
				c.check(t, d)
			}
		})
	}
}

func TestUnsupportedVersionIsTyped(t *testing.T) {
	err := Directive{Version: 9}.Validate()
	if !errors.Is(err, ErrUnsupportedVersion) {
		t.Fatalf("got %v", err)
	}
}

func TestFindRejectsTwoDirectives(t *testing.T) {
	p := Directive{Version: 1}.MustPart()
	if _, found, err := Find([]a2a.Part{a2a.TextPart("x"), p, p}); !found || err == nil {
		t.Fatalf("found=%v err=%v", found, err)
	}
	d, found, err := Find([]a2a.Part{a2a.TextPart("x"), Directive{Version: 1, Outcome: OutcomeRejected}.MustPart()})
	if !found || err != nil || d.Outcome != OutcomeRejected {
		t.Fatalf("found=%v err=%v d=%+v", found, err, d)
	}
}

func TestSteps(t *testing.T) {
	d := Directive{Version: 1, DelayMs: 10, ArtifactChunks: intp(2)}
	steps := d.Steps()
	want := []Step{
		{Delay: 10 * time.Millisecond, State: a2a.TaskStateWorking},
		{Delay: 10 * time.Millisecond, Chunk: 1, Of: 2},
		{Delay: 10 * time.Millisecond, Chunk: 2, Of: 2},
		{Delay: 10 * time.Millisecond, State: a2a.TaskStateCompleted},
	}
	if len(steps) != len(want) {
		t.Fatalf("steps %+v", steps)
	}
	for i := range want {
		if steps[i] != want[i] {
			t.Fatalf("step %d = %+v, want %+v", i, steps[i], want[i])
		}
	}
	if d.Duration() != 40*time.Millisecond {
		t.Fatalf("duration %v", d.Duration())
	}
	if got := (Directive{Version: 1, Outcome: OutcomeMessage, DelayMs: 5}); got.Steps() != nil || got.Duration() != 5*time.Millisecond {
		t.Fatalf("message outcome: steps %v duration %v", got.Steps(), got.Duration())
	}
	if s := (Directive{Version: 1, Outcome: OutcomeInputRequired}).Steps(); len(s) != 2 || s[1].State != a2a.TaskStateInputRequired {
		t.Fatalf("input-required steps %+v", s)
	}
}

func TestChunkTextConcatenates(t *testing.T) {
	text := "abcdéfghij"
	for n := 1; n <= 12; n++ {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			b.WriteString(ChunkText(text, i, n))
		}
		if b.String() != text {
			t.Fatalf("n=%d: %q", n, b.String())
		}
	}
}

func TestCardExtension(t *testing.T) {
	e := CardExtension()
	if e.URI != URI || e.Required {
		t.Fatalf("%+v", e)
	}
	b, _ := json.Marshal(e)
	if !strings.Contains(string(b), `"versions":[1]`) {
		t.Fatalf("params: %s", b)
	}
}
