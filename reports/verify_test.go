package reports

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// written writes the sample report and returns it as read back, with its bytes.
func written(t *testing.T, r *Report) (*Report, []byte) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "report.json")
	if err := WriteJSON(p, r); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadJSON(p)
	if err != nil {
		t.Fatal(err)
	}
	return back, raw
}

// edit changes a report.json the way a person with a text editor would: the
// document is decoded generically, changed, and encoded again.
func edit(t *testing.T, raw []byte, change func(doc map[string]any)) []byte {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	change(doc)
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// redigest recomputes the digest after an edit, as someone who read
// docs/report-format.md could; the content checks must still catch the edit.
func redigest(t *testing.T, raw []byte) []byte {
	t.Helper()
	d, err := DigestOf(raw)
	if err != nil {
		t.Fatal(err)
	}
	return edit(t, raw, func(doc map[string]any) { doc["digest"] = d })
}

func verifyBytes(t *testing.T, raw []byte) []Problem {
	t.Helper()
	r, err := decodeReport(raw)
	if err != nil {
		t.Fatal(err)
	}
	return Verify(r, raw)
}

func results(doc map[string]any) []any { return doc["results"].([]any) }

func result(doc map[string]any, i int) map[string]any { return results(doc)[i].(map[string]any) }

// hasProblem reports whether some problem is at where and mentions text.
func hasProblem(ps []Problem, where, text string) bool {
	for _, p := range ps {
		if p.Where == where && strings.Contains(p.Message, text) {
			return true
		}
	}
	return false
}

func TestDigestRoundTrip(t *testing.T) {
	r := sampleReport("Acme Travel Agent", "2.3.1")
	back, raw := written(t, r)
	if !strings.HasPrefix(back.Digest, DigestPrefix) || len(back.Digest) != len(DigestPrefix)+64 {
		t.Fatalf("digest %q is not sha256:<hex>", back.Digest)
	}
	if back.Digest != r.Digest {
		t.Fatalf("digest read back %s, written %s", back.Digest, r.Digest)
	}
	if ps := Verify(back, nil); ps != nil {
		t.Fatalf("fresh report does not verify: %v", ps)
	}
	if ps := Verify(r, nil); ps != nil {
		t.Fatalf("in-memory report does not verify: %v", ps)
	}
	// Whitespace and member order are not content.
	compact := edit(t, raw, func(map[string]any) {})
	if ps := verifyBytes(t, compact); ps != nil {
		t.Fatalf("re-encoded report does not verify: %v", ps)
	}
	// Writing again gives the same bytes: the output is deterministic.
	_, raw2 := written(t, back)
	if !bytes.Equal(raw, raw2) {
		t.Fatal("writing the same report twice gave different bytes")
	}
}

func TestWriteJSONFillsWhatTheWriterOwns(t *testing.T) {
	r := sampleReport("Acme", "1")
	r.APIVersion, r.Kind, r.Summary = "", "", Summary{}
	r.Results[0].Verdict = Fail // the summary is recomputed, not trusted
	back, _ := written(t, r)
	if back.APIVersion != APIVersion || back.Kind != Kind {
		t.Fatalf("apiVersion/kind = %q/%q", back.APIVersion, back.Kind)
	}
	if back.Summary.ByVerdict[Fail] != 3 || back.Summary.Total != len(r.Results) {
		t.Fatalf("summary not recomputed: %+v", back.Summary)
	}
	empty := &Report{Implementation: Implementation{Name: "x"}}
	_, raw := written(t, empty)
	if !bytes.Contains(raw, []byte(`"results": []`)) {
		t.Fatalf("results written as null, want []:\n%s", raw)
	}
}

func TestWriteJSONRefusesUnsafeIntegers(t *testing.T) {
	r := sampleReport("Acme", "1")
	r.Run.Seed = 1 << 60
	err := WriteJSON(filepath.Join(t.TempDir(), "r.json"), r)
	if err == nil || !strings.Contains(err.Error(), "I-JSON") {
		t.Fatalf("seed 2^60 written without complaint: %v", err)
	}
}

func TestVerifyCatchesEdits(t *testing.T) {
	_, raw := written(t, sampleReport("Acme Travel Agent", "2.3.1"))
	const failIdx = 5 // LIFE-012, a fail
	if v := result(mustDoc(t, raw), failIdx)["verdict"]; v != "fail" {
		t.Fatalf("sample changed: result %d is %v", failIdx, v)
	}

	tests := []struct {
		name      string
		change    func(doc map[string]any)
		redigest  bool
		where     string
		mentions  string
		alsoWhere string
	}{
		{
			name:   "flip a verdict",
			change: func(doc map[string]any) { result(doc, failIdx)["verdict"] = "pass" },
			where:  "/summary", mentions: "does not match the results", alsoWhere: "/digest",
		},
		{
			name: "flip a verdict and fix the summary and digest",
			change: func(doc map[string]any) {
				result(doc, failIdx)["verdict"] = "pass"
			},
			redigest: true,
			where:    "/summary", mentions: "does not match the results",
		},
		{
			name:   "change a reason",
			change: func(doc map[string]any) { result(doc, failIdx)["reason"] = "all good really" },
			where:  "/digest", mentions: "edited",
		},
		{
			name: "delete a result",
			change: func(doc map[string]any) {
				rs := results(doc)
				doc["results"] = append(rs[:failIdx:failIdx], rs[failIdx+1:]...)
			},
			where: "/summary", mentions: "total is 11, want 10", alsoWhere: "/digest",
		},
		{
			name: "edit a transcript body",
			change: func(doc map[string]any) {
				result(doc, failIdx)["transcript"].([]any)[1].(map[string]any)["responseBody"] = "{}"
			},
			where: "/digest", mentions: "edited",
		},
		{
			name: "edit a member this version does not know",
			change: func(doc map[string]any) {
				doc["x-future"] = "b"
			},
			where: "/digest", mentions: "edited",
		},
		{
			name:     "wrong apiVersion",
			change:   func(doc map[string]any) { doc["apiVersion"] = "a2a-conform.dev/v9" },
			redigest: true,
			where:    "/apiVersion", mentions: "this harness reads",
		},
		{
			name:     "wrong kind",
			change:   func(doc map[string]any) { doc["kind"] = "Scorecard" },
			redigest: true,
			where:    "/kind", mentions: "want",
		},
		{
			name:     "missing implementation name",
			change:   func(doc map[string]any) { doc["implementation"].(map[string]any)["name"] = "" },
			redigest: true,
			where:    "/implementation/name", mentions: "required",
		},
		{
			name:     "missing run start",
			change:   func(doc map[string]any) { delete(doc["run"].(map[string]any), "start") },
			redigest: true,
			where:    "/run/start", mentions: "required",
		},
		{
			name:     "missing results",
			change:   func(doc map[string]any) { delete(doc, "results") },
			redigest: true,
			where:    "/results", mentions: "required",
		},
		{
			name:     "unknown topology",
			change:   func(doc map[string]any) { doc["run"].(map[string]any)["topology"] = "k8s" },
			redigest: true,
			where:    "/run/topology", mentions: "want one of",
		},
		{
			name:     "unknown verdict",
			change:   func(doc map[string]any) { result(doc, 0)["verdict"] = "passed" },
			redigest: true,
			where:    "/results/0/verdict", mentions: "unknown verdict",
		},
		{
			name:     "unknown level",
			change:   func(doc map[string]any) { result(doc, 0)["level"] = "OPTIONAL" },
			redigest: true,
			where:    "/results/0/level", mentions: "want one of",
		},
		{
			name:     "unknown TCK level",
			change:   func(doc map[string]any) { result(doc, 0)["tckLevel"] = "INVARIANT" },
			redigest: true,
			where:    "/results/0/tckLevel", mentions: "want one of",
		},
		{
			name:     "duplicate spec ID",
			change:   func(doc map[string]any) { result(doc, 1)["id"] = result(doc, 0)["id"] },
			redigest: true,
			where:    "/results/1/id", mentions: "appears again",
		},
		{
			name:     "malformed spec ID",
			change:   func(doc map[string]any) { result(doc, 1)["id"] = "../x" },
			redigest: true,
			where:    "/results/1/id", mentions: "not a spec ID",
		},
		{
			name:     "non-pass without a reason",
			change:   func(doc map[string]any) { delete(result(doc, failIdx), "reason") },
			redigest: true,
			where:    "/results/5/reason", mentions: "must say why",
		},
		{
			name: "a pass in an unreachable run",
			change: func(doc map[string]any) {
				doc["run"].(map[string]any)["unreachable"] = true
			},
			redigest: true,
			where:    "/results/0/verdict", mentions: "unreachable",
		},
		{
			name:   "digest removed",
			change: func(doc map[string]any) { delete(doc, "digest") },
			where:  "/digest", mentions: "missing",
		},
		{
			name:   "digest not sha256",
			change: func(doc map[string]any) { doc["digest"] = "md5:abc" },
			where:  "/digest", mentions: "sha256",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := edit(t, raw, tc.change)
			if tc.redigest {
				b = redigest(t, b)
			}
			ps := verifyBytes(t, b)
			if !hasProblem(ps, tc.where, tc.mentions) {
				t.Fatalf("want a problem at %s mentioning %q; got %v", tc.where, tc.mentions, ps)
			}
			if tc.alsoWhere != "" && !hasProblem(ps, tc.alsoWhere, "") {
				t.Fatalf("want also a problem at %s; got %v", tc.alsoWhere, ps)
			}
			if tc.redigest && hasProblem(ps, "/digest", "") {
				t.Fatalf("re-digested edit still reported as a digest mismatch: %v", ps)
			}
		})
	}
}

func mustDoc(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestVerifyAcceptsMembersItDoesNotKnow(t *testing.T) {
	_, raw := written(t, sampleReport("Acme", "1"))
	b := redigest(t, edit(t, raw, func(doc map[string]any) {
		doc["x-future"] = map[string]any{"added": "by a newer harness"}
		result(doc, 0)["x-extra"] = 1
	}))
	if ps := verifyBytes(t, b); ps != nil {
		t.Fatalf("unknown members made an honest report fail: %v", ps)
	}
}

func TestVerifyRejectsDuplicateJSONKeys(t *testing.T) {
	_, raw := written(t, sampleReport("Acme", "1"))
	// Two "verdict" members: readers disagree on which one counts.
	b := bytes.Replace(raw, []byte(`"verdict": "fail"`), []byte(`"verdict": "fail", "verdict": "fail"`), 1)
	if ps := verifyBytes(t, b); !hasProblem(ps, "", "duplicate object key") {
		t.Fatalf("duplicate key accepted: %v", ps)
	}
}

func TestVerifyUnreachableReportWrittenHonestly(t *testing.T) {
	r := sampleReport("Dead", "1")
	r.Run.Unreachable = true
	for i := range r.Results {
		r.Results[i].Verdict, r.Results[i].Reason = CouldNotRun, "connection refused"
	}
	back, _ := written(t, r)
	if ps := Verify(back, nil); ps != nil {
		t.Fatalf("honest unreachable report rejected: %v", ps)
	}
	if back.Summary.Score.Passed != 0 || back.Summary.Score.Denominator != len(r.Results) {
		t.Fatalf("unreachable score = %+v", back.Summary.Score)
	}
	// Someone adds a pass to the honest report by hand, and fixes the digest.
	_, raw := written(t, r)
	b := redigest(t, edit(t, raw, func(doc map[string]any) {
		doc["results"] = append(results(doc), map[string]any{
			"id": "LIFE-999", "title": "added", "suite": "lifecycle", "level": "MUST", "verdict": "pass", "durationMs": 1,
		})
	}))
	ps := verifyBytes(t, b)
	if !hasProblem(ps, "/results/11/verdict", "unreachable") || !hasProblem(ps, "/summary", "total is 11, want 12") {
		t.Fatalf("added pass in unreachable run not caught: %v", ps)
	}

	// A buggy runner that recorded passes still writes a 0 score, and verify
	// names each pass.
	r.Results[0].Verdict = Pass
	back, _ = written(t, r)
	if back.Summary.Score.Passed != 0 {
		t.Fatalf("unreachable report scored %d", back.Summary.Score.Passed)
	}
	if ps := Verify(back, nil); !hasProblem(ps, "/results/0/verdict", "unreachable") {
		t.Fatalf("pass in unreachable run not flagged: %v", ps)
	}
}

func TestVerifyNoticesMemoryAndBytesDisagree(t *testing.T) {
	back, _ := written(t, sampleReport("Acme", "1"))
	back.Results[0].Title = "changed in memory after reading"
	if ps := Verify(back, nil); !hasProblem(ps, "", "differs from the bytes") {
		t.Fatalf("in-memory change after ReadJSON not noticed: %v", ps)
	}
}

func TestReadJSONBounds(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	// A sparse file: MaxReportBytes+1 bytes without writing them.
	if err := f.Truncate(MaxReportBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := ReadJSON(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("oversized file: %v", err)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"apiVersion": 3}`), 0o644)
	if _, err := ReadJSON(bad); err == nil {
		t.Fatal("ill-typed report decoded")
	}
	if _, _, err := VerifyFile(filepath.Join(dir, "absent.json")); err == nil {
		t.Fatal("absent file verified")
	}
}

func TestVerifyProblemsAreBounded(t *testing.T) {
	r := sampleReport("Acme", "1")
	for i := 0; i < 500; i++ {
		r.Results = append(r.Results, Result{ID: "bad", Verdict: "nope"})
	}
	ps := Verify(r, nil)
	if len(ps) != maxProblems+1 || !strings.Contains(ps[len(ps)-1].Message, "left out") {
		t.Fatalf("got %d problems, want %d and a note", len(ps), maxProblems+1)
	}
}
