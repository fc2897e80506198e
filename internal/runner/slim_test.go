package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/reports"
)

func exchanges(n, body int) []reports.Exchange {
	out := make([]reports.Exchange, n)
	for i := range out {
		out[i] = reports.Exchange{Seq: i + 1, Method: "POST", URL: "http://127.0.0.1/", RespBody: strings.Repeat("x", body)}
	}
	return out
}

// A passing spec keeps its first exchanges, within the bounds, and counts
// the rest; any other verdict keeps its transcript whole (issue 20: a clean
// run's report.json was 6–11 MB).
func TestSlimTranscriptsCapsOnlyPassingSpecs(t *testing.T) {
	r := &reports.Report{Results: []reports.Result{
		{ID: "A", Verdict: reports.Pass, Transcript: exchanges(600, 10)},
		{ID: "B", Verdict: reports.Fail, Transcript: exchanges(600, 10)},
		{ID: "C", Verdict: reports.Pass, Transcript: exchanges(5, 10)},
		{ID: "D", Verdict: reports.Pass, Transcript: exchanges(10, 20<<10)},
		{ID: "E", Verdict: reports.Pass, Transcript: exchanges(3, 100<<10)},
		{ID: "F", Verdict: reports.CouldNotRun, Transcript: exchanges(40, 10)},
		{ID: "G", Verdict: reports.NotApplicable, Transcript: exchanges(40, 10)},
	}}
	slimTranscripts(r)
	want := map[string][2]int{ // kept, omitted
		"A": {keepPassing, 600 - keepPassing}, "B": {600, 0}, "C": {5, 0},
		"D": {1, 9}, "E": {1, 2}, "F": {40, 0}, "G": {keepPassing, 40 - keepPassing},
	}
	for _, res := range r.Results {
		w := want[res.ID]
		if len(res.Transcript) != w[0] || res.TranscriptOmitted != w[1] {
			t.Errorf("%s: kept %d, omitted %d; want %v", res.ID, len(res.Transcript), res.TranscriptOmitted, w)
		}
		if len(res.Transcript) > 0 && res.Transcript[0].Seq != 1 {
			t.Errorf("%s: the first exchange is not kept", res.ID)
		}
	}
	// The written report's digest covers what the file holds.
	p := filepath.Join(t.TempDir(), "report.json")
	if err := reports.WriteJSON(p, r); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if d, err := reports.DigestOf(raw); err != nil || d != r.Digest {
		t.Fatalf("digest %s, written %s (%v)", d, r.Digest, err)
	}
	back, err := reports.ReadJSON(p)
	if err != nil || back.Results[0].TranscriptOmitted != 600-keepPassing {
		t.Fatalf("transcriptOmitted lost on the way back: %v", err)
	}
}

// An earlier run's agent.log and hooks.log do not survive into this run's
// report directory; other files there are left alone.
func TestStaleLogsRemoved(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{AgentLog, HookLog, "keep.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("old run"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := removeStaleLogs(dir); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{AgentLog, HookLog} {
		if _, err := os.Stat(filepath.Join(dir, n)); !os.IsNotExist(err) {
			t.Errorf("%s survived: %v", n, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "keep.txt")); err != nil {
		t.Errorf("another file was removed: %v", err)
	}
	if err := removeStaleLogs(filepath.Join(dir, "none")); err != nil {
		t.Errorf("a directory without logs: %v", err)
	}
}
