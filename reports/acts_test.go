package reports

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// actsSchema compiles testdata/acts-report.schema.json, our JSON Schema
// transcription of the ACTS draft's §13 CDDL.
func actsSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	raw, err := os.ReadFile("testdata/acts-report.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	const id = "https://github.com/a2a-conform/a2a-conform/reports/testdata/acts-report.schema.json"
	if err := c.AddResource(id, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(id)
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

func validateACTS(t *testing.T, sch *jsonschema.Schema, path string) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("%s does not match the draft's §13 schema: %v", filepath.Base(path), err)
	}
	var m map[string]any
	json.Unmarshal(raw, &m)
	return m
}

// The schema is faithful enough to reject what §13 rejects: the draft's own
// example (§13.4) passes, and a test result "indeterminate" or a missing
// by_level does not.
func TestACTSSchemaJudgesTheDraftsExample(t *testing.T) {
	sch := actsSchema(t)
	example := `{"acts_version":"1.0","spec_version":"1.0","generated_at":"2025-05-25T21:00:00Z",
	"sdk":{"name":"a2a-python","version":"0.3.1","language":"python","repository":"https://github.com/a2aproject/a2a-python"},
	"transport":"jsonrpc","environment":{"os":"ubuntu-24.04"},
	"summary":{"total":1,"passed":0,"failed":1,"skipped":0,"errors":0,"duration_ms":12345,
	  "by_level":{"must":{"total":1,"passed":0,"failed":1,"skipped":0,"errors":0},"should":{"total":0,"passed":0,"failed":0,"skipped":0,"errors":0},"may":{"total":0,"passed":0,"failed":0,"skipped":0,"errors":0}}},
	"suites":[{"id":"core-operations","name":"Core Operations","tests":[{"id":"CORE-GET-001","name":"GetTask returns current state","level":"must","result":"fail","duration_ms":156,
	  "failure":{"message":"Expected state TASK_STATE_COMPLETED but got TASK_STATE_WORKING","step_id":"verify","expected":"TASK_STATE_COMPLETED","actual":"TASK_STATE_WORKING","assertion_path":"status.state"}}]}]}`
	for name, doc := range map[string]string{
		"example":       example,
		"indeterminate": strings.Replace(example, `"result":"fail"`, `"result":"indeterminate"`, 1),
		"no by_level":   strings.Replace(example, `"by_level"`, `"levels"`, 1),
	} {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		err = sch.Validate(inst)
		if (err == nil) != (name == "example") {
			t.Errorf("%s: validation error %v", name, err)
		}
	}
}

// One run gives one ACTS report per declared transport, each valid against
// the draft's schema, each result where its transcript spoke, the rest in
// every one, our verdicts mapped without turning a non-pass into a pass or a
// skip, and mapped specs under the draft's test IDs.
func TestACTSReportMatchesTheDraftSchema(t *testing.T) {
	card := `{"name":"x","supportedInterfaces":[
	 {"url":"http://127.0.0.1:9/a2a/jsonrpc","protocolBinding":"JSONRPC"},
	 {"url":"http://127.0.0.1:9/a2a/rest","protocolBinding":"HTTP+JSON"},
	 {"url":"127.0.0.1:10","protocolBinding":"GRPC"}]}`
	jsonrpc := Exchange{Method: "POST", URL: "http://127.0.0.1:11/a2a/jsonrpc", ReqBody: `{"jsonrpc":"2.0","id":1,"method":"SendMessage"}`}
	rest := Exchange{Method: "GET", URL: "http://127.0.0.1:11/a2a/rest/tasks/1"}
	grpc := Exchange{Method: "GetTask", URL: "grpc://127.0.0.1:10/lf.a2a.v1.A2AService/GetTask"}
	cardFetch := Exchange{Method: "GET", URL: "http://127.0.0.1:9/.well-known/agent-card.json"}
	r := &Report{
		Implementation: Implementation{Name: "Acme Agent/Pro", Version: "2.1"},
		Harness:        Harness{Name: "a2a-conform", Version: "t"}, ProtocolVersion: "1.0",
		Card: json.RawMessage(card), Digest: "sha256:00",
		Run: Run{Seed: 3, DurationMs: 1234, Topology: "embedded"},
		Results: []Result{
			{ID: "DISC-001", Suite: "discovery", Level: "MUST", Title: "card", Verdict: Pass, Transcript: []Exchange{cardFetch}},
			{ID: "LIFE-013", Suite: "lifecycle", Level: "MUST", Title: "cancel terminal", Verdict: Fail, Reason: "got 200", Transcript: []Exchange{jsonrpc}},
			{ID: "LIFE-024", Suite: "lifecycle", Level: "SHOULD", Title: "history", Verdict: Warn, Reason: "reversed", Transcript: []Exchange{rest, grpc}},
			{ID: "LIFE-004", Suite: "lifecycle", Level: "MUST", Title: "blocks", Verdict: Indeterminate, Reason: "waited 10s", Transcript: []Exchange{grpc}},
			{ID: "PUSH-001", Suite: "webhook", Level: "MUST", Title: "push", Verdict: CouldNotRun, Reason: "no receiver"},
			{ID: "DISC-016", Suite: "discovery", Level: "MUST", Title: "ext", Verdict: NotApplicable, Reason: "none required"},
			{ID: "LIFE-011", Suite: "lifecycle", Level: "INVARIANT", Title: "terminal", Verdict: Pass, Transcript: []Exchange{jsonrpc, grpc}},
			{ID: "DISC-010", Suite: "discovery", Level: "MUST", Title: "version", Verdict: Pass, Transcript: []Exchange{jsonrpc, grpc}},
		},
	}
	dir := t.TempDir()
	now := time.Date(2026, 12, 1, 18, 30, 5, 0, time.UTC)
	files, err := WriteACTS(dir, r, now)
	if err != nil {
		t.Fatal(err)
	}
	sch := actsSchema(t)
	want := map[string][]string{ // transport → test IDs, grouped by suite in order of appearance
		"jsonrpc": {"DISC-001", "DISC-016", "VER-NEG-001", "CORE-CANCEL-002", "CORE-ERR-003", "LIFE-011", "PUSH-001"},
		"rest":    {"DISC-001", "DISC-016", "LIFE-024", "PUSH-001"},
		"grpc":    {"DISC-001", "DISC-016", "DISC-010", "LIFE-024", "LIFE-004", "LIFE-011", "PUSH-001"},
	}
	if len(files) != 3 {
		t.Fatalf("files %v", files)
	}
	results := map[string]string{}
	names := map[string]string{}
	for _, f := range files {
		m := validateACTS(t, sch, f)
		tr := m["transport"].(string)
		if filepath.Base(f) != "acts-report-acme-agent-pro-"+tr+"-20261201T183005Z.json" {
			t.Errorf("file name %s", filepath.Base(f))
		}
		var ids []string
		for _, s := range m["suites"].([]any) {
			for _, x := range s.(map[string]any)["tests"].([]any) {
				tm := x.(map[string]any)
				ids = append(ids, tm["id"].(string))
				results[tm["id"].(string)] = tm["level"].(string) + " " + tm["result"].(string)
				names[tm["id"].(string)] = tm["name"].(string)
			}
		}
		if total := m["summary"].(map[string]any)["total"].(float64); int(total) != len(ids) {
			t.Errorf("%s: summary total %v for %d tests", tr, total, len(ids))
		}
		if strings.Join(ids, ",") != strings.Join(want[tr], ",") {
			t.Errorf("%s: tests %v, want %v", tr, ids, want[tr])
		}
		if env := m["environment"].(map[string]any); env["source_digest"] != "sha256:00" {
			t.Errorf("%s: environment %v does not name the source report", tr, env)
		}
	}
	for id, w := range map[string]string{
		"DISC-001": "must pass", "CORE-ERR-003": "must fail", "CORE-CANCEL-002": "must fail", "LIFE-024": "should fail",
		"LIFE-004": "must error", "PUSH-001": "must error", "DISC-016": "must skip", "LIFE-011": "must pass",
		"VER-NEG-001": "must pass", "DISC-010": "must pass",
	} {
		if results[id] != w {
			t.Errorf("%s: %q, want %q", id, results[id], w)
		}
	}
	// A mapped test carries the draft's name and ours.
	if n := names["CORE-ERR-003"]; n != "CancelTask on completed task returns TaskNotCancelableError (a2a-conform LIFE-013)" {
		t.Errorf("CORE-ERR-003 name %q", n)
	}
}

// Without a card (the target was unreachable) no transport is known, and no
// ACTS report is written rather than one that guesses.
func TestACTSWithoutCardWritesNothing(t *testing.T) {
	r := &Report{Run: Run{Unreachable: true}, Results: []Result{{ID: "DISC-001", Verdict: CouldNotRun}}}
	files, err := WriteACTS(t.TempDir(), r, time.Now())
	if err != nil || len(files) != 0 {
		t.Errorf("files %v err %v", files, err)
	}
}
