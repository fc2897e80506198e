package reports

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
)

// sampleReport builds a report with every verdict, violations, observations,
// a transcript with SSE events and a card: what a real run produces.
func sampleReport(name, version string) *Report {
	start := time.Date(2026, 3, 14, 9, 26, 53, 0, time.UTC)
	card := map[string]any{
		"name":        name,
		"description": "Books flights and hotels.",
		"version":     version,
		"supportedInterfaces": []any{map[string]any{
			"url": "https://agent.example.test/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0",
		}},
		"capabilities":       map[string]any{"streaming": true, "pushNotifications": false},
		"defaultInputModes":  []string{"text/plain"},
		"defaultOutputModes": []string{"text/plain"},
		"skills":             []any{map[string]any{"id": "book", "name": "Book", "description": "Books a trip.", "tags": []string{"travel"}}},
	}
	cardJSON, _ := json.Marshal(card)
	stream := Exchange{
		Seq: 7, AtMs: 1520.25, DurMs: 812.5, Direction: "out", Method: "POST", URL: "http://127.0.0.1:41833/a2a",
		Status: 200, Instance: "b",
		ReqHeader:  http.Header{"Content-Type": {"application/json"}, "A2a-Version": {"1.0"}, "Authorization": {"[redacted]"}},
		ReqBody:    `{"jsonrpc":"2.0","id":3,"method":"SendStreamingMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"text":"book a trip"}]}}}`,
		RespHeader: http.Header{"Content-Type": {"text/event-stream"}},
		Events: []Event{
			{AtMs: 1530.1, Data: `{"jsonrpc":"2.0","id":3,"result":{"task":{"id":"t-9","status":{"state":"TASK_STATE_WORKING"}}}}`},
			{AtMs: 1802.7, Data: `{"jsonrpc":"2.0","id":3,"result":{"statusUpdate":{"taskId":"t-9","status":{"state":"TASK_STATE_COMPLETED"}}}}`},
			{AtMs: 2010.0, Data: `{"jsonrpc":"2.0","id":3,"result":{"statusUpdate":{"taskId":"t-9","status":{"state":"TASK_STATE_WORKING"}}}}`},
		},
	}
	get := Exchange{
		Seq: 8, AtMs: 2100, DurMs: 3.25, Direction: "out", Method: "POST", URL: "http://127.0.0.1:41833/a2a", Status: 200, Instance: "a",
		ReqBody:  `{"jsonrpc":"2.0","id":4,"method":"GetTask","params":{"id":"t-9"}}`,
		RespBody: `{"jsonrpc":"2.0","id":4,"result":{"id":"t-9","status":{"state":"TASK_STATE_WORKING"}}}`,
	}
	results := []Result{
		{ID: "DISC-001", Title: "The agent card is served at /.well-known/agent-card.json", Suite: "discovery", Level: LevelMust, Sections: []string{"8.2"}, Verdict: Pass, DurationMs: 41},
		{ID: "DISC-002", Title: "The card validates against the v1.0 AgentCard schema", Suite: "discovery", Level: LevelMust, Sections: []string{"4.4"}, Verdict: Pass, DurationMs: 12,
			Observations: map[string]string{"card.bytes": "1840"}},
		{ID: "DISC-004", Title: "The card response carries Cache-Control and ETag", Suite: "discovery", Level: LevelShould, Sections: []string{"8.6"}, Verdict: Warn, DurationMs: 18,
			Reason: "expected an ETag header on the card response so clients can revalidate; the response had Cache-Control: no-store and no ETag"},
		{ID: "DISC-007", Title: "An extended card is served only to authenticated clients", Suite: "discovery", Level: LevelMust, Sections: []string{"4.4", "7.10"}, Verdict: NotApplicable, DurationMs: 2,
			Reason: "the card does not set capabilities.extendedAgentCard; GetExtendedAgentCard was refused with -32007 as required"},
		{ID: "LIFE-001", Title: "SendMessage returns a task or a message", Suite: "lifecycle", Level: LevelMust, Sections: []string{"7.1"},
			TCK: []string{"CORE-SEND-001"}, TCKLevel: LevelMust, Verdict: Pass, DurationMs: 230},
		{ID: "LIFE-012", Title: "A terminal task never changes state again", Suite: "lifecycle", Level: LevelInvariant, Sections: []string{"4.2"}, Scenario: "stream then poll", Verdict: Fail, DurationMs: 2480,
			Reason: "task t-9 reached TASK_STATE_COMPLETED at +1802.7 ms on stream 1, then went back to TASK_STATE_WORKING at +2010.0 ms (207 ms later); GetTask on instance a still said TASK_STATE_WORKING at +2100 ms",
			Violations: []invariants.Violation{
				{Invariant: "terminal-immutable", Where: "task t-9, event 3 of stream 1", Expected: "no state after TASK_STATE_COMPLETED", Actual: "TASK_STATE_WORKING"},
				{Invariant: "terminal-immutable", Where: "task t-9, GetTask #8 (instance a)", Expected: "TASK_STATE_COMPLETED", Actual: "TASK_STATE_WORKING"},
			},
			Observations: map[string]string{"instances.seen": "a,b"},
			Transcript:   []Exchange{stream, get},
		},
		{ID: "LIFE-020", Title: "Cancel racing completion ends in exactly one terminal state", Suite: "lifecycle", Level: LevelInvariant, Sections: []string{"7.4"}, Verdict: Indeterminate, DurationMs: 30000,
			Reason:       "after 200 trials the race window was never hit (the agent completed every task within 0.4 ms of the cancel); the bound needs at least 5 overlapping trials",
			Observations: map[string]string{"race.trials": "200", "race.overlaps": "0"},
			Transcript:   []Exchange{get}},
		{ID: "PUSH-003", Title: "Webhook deliveries carry the configured credentials", Suite: "webhook", Level: LevelMust, Sections: []string{"9.5"}, Verdict: CouldNotRun, DurationMs: 0,
			Reason: "the harness's webhook receiver is not reachable from the agent; set --webhook-url to an address the agent can reach (e.g. --webhook-url http://host.docker.internal:9000)"},
		{ID: "PUSH-004", Title: "A failed delivery is retried", Suite: "webhook", Level: LevelShould, Sections: []string{"9.5"}, Verdict: Pass, DurationMs: 5400},
		{ID: "ROLL-001", Title: "Tasks survive a rolling restart", Suite: "rollout", Level: LevelInvariant, Sections: []string{"11"}, Verdict: Pass, DurationMs: 9100},
		{ID: "ROLL-002", Title: "A stale card from a CDN does not break a running task", Suite: "rollout", Level: LevelInvariant, Sections: []string{"8.6"}, Verdict: Fail, DurationMs: 4100,
			Reason: "after the card rotated, the stale card's URL (generation 1) answered -32001 TaskNotFoundError for task t-3 created on generation 1",
			Violations: []invariants.Violation{
				{Invariant: "task-survives-rotation", Where: "task t-3, GetTask via stale card", Expected: "the task", Actual: "error -32001 TaskNotFoundError"},
			},
			Transcript: []Exchange{get},
		},
	}
	return &Report{
		APIVersion:      APIVersion,
		Kind:            Kind,
		Implementation:  Implementation{Name: name, Version: version, URL: "https://agent.example.test"},
		Harness:         Harness{Name: "a2a-conform", Version: "0.1.0"},
		ProtocolVersion: "1.0",
		Run: Run{Start: start, DurationMs: 64_712, Seed: 42, Suites: []string{"discovery", "lifecycle", "webhook", "rollout"},
			Topology: "process", Target: "http://127.0.0.1:41833"},
		Card:    cardJSON,
		Results: results,
	}
}

// TestWriteSample renders the sample outputs; with A2A_CONFORM_SAMPLE_DIR set
// they are kept there for a person to look at.
func TestWriteSample(t *testing.T) {
	dir := os.Getenv("A2A_CONFORM_SAMPLE_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	r := sampleReport("Acme Travel Agent", "2.3.1")
	for _, w := range []struct {
		name string
		fn   func(string, *Report) error
	}{{"report.json", WriteJSON}, {"report.html", WriteHTML}, {"junit.xml", WriteJUnit}} {
		p := filepath.Join(dir, w.name)
		if err := w.fn(p, r); err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		st, err := os.Stat(p)
		if err != nil || st.Size() == 0 {
			t.Fatalf("%s not written: %v", w.name, err)
		}
	}
	if ps := Verify(r, nil); len(ps) > 0 {
		t.Fatalf("sample does not verify: %v", ps)
	}
	var reps []*Report
	for i, n := range []string{"Acme Travel Agent", "Globex Agent", "../../etc"} {
		x := sampleReport(n, fmt.Sprintf("1.%d", i))
		if i == 1 {
			x.Results[5].Verdict, x.Results[5].Violations = Pass, nil
			x.Results = x.Results[:9]
		}
		if i == 2 {
			x.Run.Unreachable = true
			for j := range x.Results {
				x.Results[j].Verdict, x.Results[j].Reason = CouldNotRun, "the target did not answer: dial tcp 127.0.0.1:1: connection refused"
			}
		}
		if err := WriteJSON(filepath.Join(t.TempDir(), "r.json"), x); err != nil {
			t.Fatal(err)
		}
		reps = append(reps, x)
	}
	sc, err := BuildScorecard(reps)
	if err != nil {
		t.Fatal(err)
	}
	explain := func(id string) string { return "What " + id + " checks, why, and how to enable it." }
	if err := WriteScorecard(filepath.Join(dir, "scorecard"), sc, explain); err != nil {
		t.Fatal(err)
	}
}
