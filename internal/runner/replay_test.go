package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/reports"
)

// Every fail's result says where its replay bundle is, or why it has none;
// a pass says nothing.
func TestReplayNoteOnEveryFail(t *testing.T) {
	card := "http://127.0.0.1:9/.well-known/agent-card.json"
	r := &reports.Report{Run: reports.Run{Target: "http://127.0.0.1:9"}, Results: []reports.Result{
		{ID: "ROLL-001", Verdict: reports.Fail, Violations: []invariants.Violation{{Invariant: "etag-tracks-card"}},
			Steps:      []reports.Step{{AtMs: 2, DurMs: 1, Kind: "hook", Point: "rotate-card"}},
			Transcript: []reports.Exchange{{Seq: 1, AtMs: 1, Method: "GET", URL: card}, {Seq: 2, AtMs: 4, Method: "GET", URL: card}}},
		{ID: "ROLL-009", Verdict: reports.Fail, Violations: []invariants.Violation{{Invariant: "push-delivered-mid-rollout"}},
			Transcript: []reports.Exchange{{Seq: 1, AtMs: 1, Method: "GET", URL: card}}},
		{ID: "DISC-001", Verdict: reports.Pass},
	}}
	dir := t.TempDir()
	files, err := writeReplays(dir, r)
	if err != nil || len(files) != 1 {
		t.Fatalf("files %v, err %v", files, err)
	}
	if n := r.Results[0].Replay; n == nil || n.Bundle != "replay/ROLL-001.json" {
		t.Errorf("ROLL-001: %+v", n)
	} else if _, err := os.Stat(filepath.Join(dir, n.Bundle)); err != nil {
		t.Error(err)
	}
	if n := r.Results[1].Replay; n == nil || n.Bundle != "" || !strings.Contains(n.None, "webhook receiver") {
		t.Errorf("ROLL-009: %+v, want why there is no bundle", n)
	}
	if r.Results[2].Replay != nil {
		t.Errorf("a pass: %+v", r.Results[2].Replay)
	}
}
