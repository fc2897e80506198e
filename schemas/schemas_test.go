package schemas

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

func TestEveryEntryPointHasAValidExample(t *testing.T) {
	names := Names()
	if len(names) == 0 {
		t.Fatal("no entry points compiled")
	}
	files, err := filepath.Glob(filepath.Join("testdata", "valid", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var examples []string
	for _, f := range files {
		examples = append(examples, strings.TrimSuffix(filepath.Base(f), ".json"))
	}
	for _, n := range names {
		if !slices.Contains(examples, n) {
			t.Errorf("entry point %s has no testdata/valid/%s.json", n, n)
		}
	}
	for _, e := range examples {
		if !slices.Contains(names, e) {
			t.Errorf("testdata/valid/%s.json names no entry point", e)
		}
	}
}

func TestValidExamplesPass(t *testing.T) {
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("testdata", "valid", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			if vs := validate(t, name, b); len(vs) != 0 {
				t.Fatalf("valid example rejected:\n%s", dump(vs))
			}
		})
	}
}

// The exported constants must all name compiled entry points.
func TestConstantsNameEntryPoints(t *testing.T) {
	consts := []string{
		AgentCard, AgentInterface, AgentProvider, AgentCapabilities, AgentExtension, AgentSkill,
		AgentCardSignature, SecurityScheme, APIKeySecurityScheme, HTTPAuthSecurityScheme,
		OAuth2SecurityScheme, OpenIDConnectSecurityScheme, MutualTLSSecurityScheme, OAuthFlows,
		AuthorizationCodeOAuthFlow, ClientCredentialsOAuthFlow, ImplicitOAuthFlow, PasswordOAuthFlow,
		DeviceCodeOAuthFlow, SecurityRequirement, StringList, TaskState, Role, Part, Message, Task,
		TaskStatus, Artifact, TaskStatusUpdateEvent, TaskArtifactUpdateEvent, StreamResponse,
		SendMessageResponse, AuthenticationInfo, TaskPushNotificationConfig, SendMessageConfiguration,
		SendMessageRequest, GetTaskRequest, ListTasksRequest, ListTasksResponse, CancelTaskRequest,
		SubscribeToTaskRequest, GetTaskPushNotificationConfigRequest,
		DeleteTaskPushNotificationConfigRequest, ListTaskPushNotificationConfigsRequest,
		ListTaskPushNotificationConfigsResponse, GetExtendedAgentCardRequest, JSONRPCRequest,
		JSONRPCResponse, JSONRPCError, HTTPErrorBody, HTTPErrorStatus, Any, ErrorInfo,
	}
	for _, c := range consts {
		if _, err := Validate(c, []byte(`{}`)); err != nil {
			t.Errorf("constant %q: %v", c, err)
		}
	}
}

func TestUnknownMembersAreIgnored(t *testing.T) {
	for _, name := range Names() {
		doc := example(t, name)
		obj, ok := doc.(map[string]any)
		if !ok {
			continue
		}
		obj["vendorExtension"] = map[string]any{"anything": []any{1, "two", nil}}
		obj["x_vendor_flag"] = true
		if vs := validate(t, name, mustJSON(t, doc)); len(vs) != 0 {
			t.Errorf("%s with unknown members rejected:\n%s", name, dump(vs))
		}
	}
	// Nested, and v0.3 leftovers the spec lets a hybrid emitter keep.
	nested := []struct{ object, pointer string }{
		{Task, "/status/vendorNote"},
		{Task, "/history/0/parts/0/vendorNote"},
		{AgentCard, "/capabilities/stateTransitionHistory"},
		{AgentCard, "/url"},
		{AgentCard, "/preferredTransport"},
		{AgentCard, "/protocolVersion"},
		{AgentCard, "/securitySchemes/apiKey/apiKeySecurityScheme/vendorNote"},
		{TaskStatusUpdateEvent, "/final"},
	}
	for _, n := range nested {
		doc := example(t, n.object)
		set(t, doc, n.pointer, "x")
		if vs := validate(t, n.object, mustJSON(t, doc)); len(vs) != 0 {
			t.Errorf("%s with %s rejected:\n%s", n.object, n.pointer, dump(vs))
		}
	}
}

func TestV03ShapesFailSayingSo(t *testing.T) {
	cases := []struct {
		name, object, doc, where string
	}{
		{"part with kind", Part, `{"kind":"text","text":"hi"}`, "/kind"},
		{"message with kind", Message, `{"kind":"message","messageId":"m","role":"ROLE_USER","parts":[{"text":"hi"}]}`, "/kind"},
		{"nested part with kind", Message, `{"messageId":"m","role":"ROLE_USER","parts":[{"text":"a"},{"kind":"text","text":"hi"}]}`, "/parts/1/kind"},
		{"task with kind", Task, `{"kind":"task","id":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}`, "/kind"},
		{"state completed", Task, `{"id":"t","status":{"state":"completed"}}`, "/status/state"},
		{"state input-required", Task, `{"id":"t","status":{"state":"input-required"}}`, "/status/state"},
		{"state in a status update", StreamResponse, `{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"canceled"}}}`, "/statusUpdate/status/state"},
		{"double-L cancelled", TaskStatus, `{"state":"TASK_STATE_CANCELLED"}`, "/state"},
		{"list filter", ListTasksRequest, `{"status":"working"}`, "/status"},
		{"role user", Message, `{"messageId":"m","role":"user","parts":[{"text":"hi"}]}`, "/role"},
		{"status-update with kind and final", TaskStatusUpdateEvent, `{"kind":"status-update","taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"},"final":false}`, "/kind"},
		{"unwrapped v0.3 stream event", StreamResponse, `{"kind":"task","id":"t","contextId":"c","status":{"state":"submitted"}}`, "/kind"},
		{"unwrapped v0.3 send result", SendMessageResponse, `{"kind":"message","messageId":"m","role":"agent","parts":[{"kind":"text","text":"hi"}]}`, "/kind"},
		{"v0.3 card", AgentCard, `{"name":"A","description":"d","url":"https://agent.example.com/a2a","preferredTransport":"JSONRPC","protocolVersion":"0.3.0","version":"1","capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[{"id":"s","name":"s","description":"d","tags":["t"]}]}`, ""},
		{"v0.3 security scheme", SecurityScheme, `{"type":"openIdConnect","openIdConnectUrl":"https://auth.example.com/.well-known/openid-configuration"}`, ""},
		{"v0.3 nested push config", TaskPushNotificationConfig, `{"taskId":"t","pushNotificationConfig":{"url":"https://hooks.example.com/a2a"}}`, ""},
		{"v0.3 authentication schemes", AuthenticationInfo, `{"schemes":["Bearer"]}`, ""},
		{"v0.3 error data object", JSONRPCResponse, `{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Task not found","data":{"taskId":"t"}}}`, "/error/data"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vs := validate(t, c.object, []byte(c.doc))
			if !find(vs, c.where, "v0.3") {
				t.Fatalf("want a violation at %q saying v0.3, got:\n%s", c.where, dump(vs))
			}
		})
	}
}

func TestV03StateNamesItsV1Equivalent(t *testing.T) {
	vs := validate(t, TaskStatus, []byte(`{"state":"input-required"}`))
	if len(vs) != 1 || !strings.Contains(vs[0].Expected, "TASK_STATE_INPUT_REQUIRED") || vs[0].Actual != `"input-required"` {
		t.Fatalf("got:\n%s", dump(vs))
	}
}

// A hybrid card (v1.0 plus v0.3 keys, as a2a-python serves it) is v1.0.
func TestHybridCardPasses(t *testing.T) {
	card := example(t, AgentCard)
	set(t, card, "/url", "https://agent.example.com/a2a/jsonrpc")
	set(t, card, "/additionalInterfaces", []any{map[string]any{"url": "https://x.example.com", "transport": "JSONRPC"}})
	if vs := validate(t, AgentCard, mustJSON(t, card)); len(vs) != 0 {
		t.Fatalf("hybrid card rejected:\n%s", dump(vs))
	}
}

func TestTimestamps(t *testing.T) {
	cases := []struct {
		ts    string
		valid bool
	}{
		{"2026-03-12T09:15:30.250Z", true},
		{"2026-03-12T09:15:30Z", true},
		{"2026-03-12T09:15:30.123456789Z", true},
		{"2026-03-12T09:15:30+02:00", false},
		{"2026-03-12T09:15:30.250+00:00", false},
		{"2026-03-12T09:15:30", false},
		{"2026-03-12t09:15:30z", false},
		{"2026-13-12T09:15:30Z", false},
		{"2026-02-30T09:15:30Z", false},
		{"yesterday", false},
	}
	for _, c := range cases {
		for _, where := range []struct{ object, pointer string }{
			{TaskStatus, "/timestamp"},
			{ListTasksRequest, "/statusTimestampAfter"},
		} {
			doc := example(t, where.object)
			set(t, doc, where.pointer, c.ts)
			vs := validate(t, where.object, mustJSON(t, doc))
			if c.valid && len(vs) != 0 {
				t.Errorf("%s %s rejected:\n%s", where.object, c.ts, dump(vs))
			}
			if !c.valid && (len(vs) != 1 || vs[0].Where != where.pointer || !strings.Contains(vs[0].Expected, "ending in Z")) {
				t.Errorf("%s %s: want one violation at %s, got:\n%s", where.object, c.ts, where.pointer, dump(vs))
			}
		}
	}
}

func TestOneofs(t *testing.T) {
	cases := []struct {
		name, object, doc, want string
	}{
		{"part with two content keys", Part, `{"text":"a","raw":"aGk="}`, "exactly one of the members text, raw, url, data"},
		{"part with no content key", Part, `{"mediaType":"text/plain"}`, "exactly one of the members text, raw, url, data"},
		{"part with all four", Part, `{"text":"a","raw":"aGk=","url":"https://x.example.com/f","data":1}`, "exactly one of the members text, raw, url, data"},
		{"stream response with no member", StreamResponse, `{}`, "exactly one of the members task, message, statusUpdate, artifactUpdate"},
		{"stream response with two members", StreamResponse, `{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"hi"}]},"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}`, "exactly one of the members task, message, statusUpdate, artifactUpdate"},
		{"send response with both", SendMessageResponse, `{"task":{"id":"t","status":{"state":"TASK_STATE_WORKING"}},"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"hi"}]}}`, "exactly one of the members task, message"},
		{"security scheme with two", SecurityScheme, `{"mtlsSecurityScheme":{},"httpAuthSecurityScheme":{"scheme":"Bearer"}}`, "exactly one of the members apiKeySecurityScheme"},
		{"security scheme with none", SecurityScheme, `{}`, "exactly one of the members apiKeySecurityScheme"},
		{"oauth flows with none", OAuthFlows, `{}`, "exactly one of the members authorizationCode"},
		{"jsonrpc response with neither", JSONRPCResponse, `{"jsonrpc":"2.0","id":1}`, "exactly one of the members result, error"},
		{"jsonrpc response with both", JSONRPCResponse, `{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}`, "exactly one of the members result, error"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			vs := validate(t, c.object, []byte(c.doc))
			if len(vs) != 1 || vs[0].Where != "" || !strings.Contains(vs[0].Expected, c.want) {
				t.Fatalf("want one root violation %q, got:\n%s", c.want, dump(vs))
			}
		})
	}
	// Each Part kind alone is fine, including a data part holding null.
	for _, p := range []string{`{"text":""}`, `{"raw":""}`, `{"url":"https://x.example.com/f"}`, `{"data":null}`, `{"data":[1,"a"]}`} {
		if vs := validate(t, Part, []byte(p)); len(vs) != 0 {
			t.Errorf("%s rejected:\n%s", p, dump(vs))
		}
	}
}

func TestRawIsBase64(t *testing.T) {
	cases := []struct {
		raw   string
		valid bool
	}{
		{"aGk=", true},
		{"aGk", true},     // unpadded
		{"aGk_", true},    // URL-safe alphabet
		{"+/+/", true},    // standard alphabet
		{"", true},        // zero bytes
		{"a+b_", false},   // mixed alphabets
		{"aGk===", false}, // too much padding
		{"aGkx=", false},  // padding on a full group
		{"a", false},      // 6 bits
		{"aGk!", false},   // not base64
		{"aGk= ", false},  // trailing space
		{"aG\nk=", false}, // line break
	}
	for _, c := range cases {
		doc := mustJSON(t, map[string]any{"raw": c.raw})
		vs := validate(t, Part, doc)
		if c.valid != (len(vs) == 0) {
			t.Errorf("raw %q: valid=%v, got:\n%s", c.raw, c.valid, dump(vs))
		}
		if !c.valid && (len(vs) != 1 || vs[0].Where != "/raw" || !strings.Contains(vs[0].Expected, "base64")) {
			t.Errorf("raw %q: want one base64 violation at /raw, got:\n%s", c.raw, dump(vs))
		}
	}
}

func TestEnumsAreNames(t *testing.T) {
	cases := []struct {
		object, doc, where, want string
	}{
		{TaskStatus, `{"state":3}`, "/state", "TaskState name string"},
		{TaskStatus, `{"state":"TASK_STATE_UNSPECIFIED"}`, "/state", "one of TASK_STATE_SUBMITTED"},
		{TaskStatus, `{"state":"TASK_STATE_DONE"}`, "/state", "one of TASK_STATE_SUBMITTED"},
		{Message, `{"messageId":"m","role":2,"parts":[{"text":"a"}]}`, "/role", "Role name string"},
		{Message, `{"messageId":"m","role":"ROLE_UNSPECIFIED","parts":[{"text":"a"}]}`, "/role", "one of ROLE_USER, ROLE_AGENT"},
	}
	for _, c := range cases {
		vs := validate(t, c.object, []byte(c.doc))
		if len(vs) != 1 || !find(vs, c.where, c.want) {
			t.Errorf("%s: want one violation at %s saying %q, got:\n%s", c.doc, c.where, c.want, dump(vs))
		}
	}
	if vs := validate(t, ListTasksRequest, []byte(`{"status":"TASK_STATE_UNSPECIFIED"}`)); len(vs) != 0 {
		t.Errorf("UNSPECIFIED as a list filter (no filter) rejected:\n%s", dump(vs))
	}
}

func TestStringListShape(t *testing.T) {
	vs := validate(t, SecurityRequirement, []byte(`{"schemes":{"oauth":["read"]}}`))
	if len(vs) != 1 || vs[0].Where != "/schemes/oauth" || !strings.Contains(vs[0].Expected, `{"list"`) {
		t.Fatalf("bare scope array: got:\n%s", dump(vs))
	}
}

func TestErrorBodies(t *testing.T) {
	cases := []struct {
		object, doc, where, want string
	}{
		{JSONRPCError, `{"code":-32001,"message":"x","data":[{"reason":"TASK_NOT_FOUND"}]}`, "/data/0/@type", "required property '@type'"},
		{JSONRPCError, `{"code":-32001,"message":"x","data":"oops"}`, "/data", "array of detail objects"},
		{JSONRPCError, `{"code":"-32001","message":"x"}`, "/code", "a JSON integer"},
		{HTTPErrorBody, `{"error":{"code":404,"status":"not found","message":"x"}}`, "/error/status", "one of OK"},
		{HTTPErrorBody, `{"error":{"code":200,"message":"x"}}`, "/error/code", "≥ 400"},
		{HTTPErrorBody, `{"code":404,"message":"x"}`, "/error", "required property 'error'"},
		{ErrorInfo, `{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TaskNotFound","domain":"a2a-protocol.org"}`, "/reason", "UPPER_SNAKE_CASE"},
		{JSONRPCRequest, `{"jsonrpc":"1.0","method":"SendMessage"}`, "/jsonrpc", `the value "2.0"`},
		{JSONRPCRequest, `{"jsonrpc":"2.0","id":{"a":1},"method":"SendMessage"}`, "/id", "a string, a number or null"},
	}
	for _, c := range cases {
		vs := validate(t, c.object, []byte(c.doc))
		if !find(vs, c.where, c.want) {
			t.Errorf("%s %s: want %q at %s, got:\n%s", c.object, c.doc, c.want, c.where, dump(vs))
		}
	}
	ok := []struct{ object, doc string }{
		{JSONRPCResponse, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Invalid JSON payload"}}`},
		{JSONRPCResponse, `{"jsonrpc":"2.0","id":"7","result":null}`},
		{JSONRPCRequest, `{"jsonrpc":"2.0","id":1,"method":"GetExtendedAgentCard"}`},
		{HTTPErrorBody, `{"error":{"code":400,"message":"bad"}}`},
	}
	for _, c := range ok {
		if vs := validate(t, c.object, []byte(c.doc)); len(vs) != 0 {
			t.Errorf("%s %s rejected:\n%s", c.object, c.doc, dump(vs))
		}
	}
}

func TestSnakeCaseMemberIsNamed(t *testing.T) {
	vs := validate(t, Task, []byte(`{"id":"t","status":{"state":"TASK_STATE_WORKING"},"history":[{"message_id":"m","role":"ROLE_USER","parts":[{"text":"a"}]}]}`))
	if len(vs) != 1 || vs[0].Where != "/history/0/messageId" || !strings.Contains(vs[0].Actual, "'message_id' is present") {
		t.Fatalf("got:\n%s", dump(vs))
	}
}

func TestSkillsEmptyIsUnsure(t *testing.T) {
	card := example(t, AgentCard)
	set(t, card, "/skills", []any{})
	vs := validate(t, AgentCard, mustJSON(t, card))
	if len(vs) != 1 {
		t.Fatalf("got:\n%s", dump(vs))
	}
	if reason, ok := Unsure(AgentCard, vs[0]); !ok || !strings.Contains(reason, "§8.4.1") {
		t.Fatalf("empty skills not reported as UNSURE: %q %v", reason, ok)
	}
	// Missing skills, or an empty list elsewhere, is not unsure.
	remove(t, card, "/skills")
	for _, v := range validate(t, AgentCard, mustJSON(t, card)) {
		if _, ok := Unsure(AgentCard, v); ok {
			t.Errorf("missing skills reported as UNSURE: %v", v)
		}
	}
	set(t, card, "/skills", []any{map[string]any{"id": "s", "name": "n", "description": "d", "tags": []any{}}})
	for _, v := range validate(t, AgentCard, mustJSON(t, card)) {
		if _, ok := Unsure(AgentCard, v); ok {
			t.Errorf("empty tags reported as UNSURE: %v", v)
		}
	}
}

func TestMalformedDocumentsAreViolations(t *testing.T) {
	for _, doc := range []string{``, `{"id":`, `{"id":"t"} {"id":"u"}`, `{"id":"t"}x`, "\x00", `[1,]`} {
		vs, err := Validate(Task, []byte(doc))
		if err != nil {
			t.Errorf("%q: error %v, want a violation", doc, err)
			continue
		}
		if len(vs) != 1 || vs[0].Where != "" || !strings.Contains(vs[0].Expected, "well-formed JSON") || vs[0].Actual == "" {
			t.Errorf("%q: got:\n%s", doc, dump(vs))
		}
	}
	big := make([]byte, MaxDocumentSize+1)
	vs, err := Validate(Task, big)
	if err != nil || len(vs) != 1 || !strings.Contains(vs[0].Expected, "at most") {
		t.Errorf("oversized document: %v\n%s", err, dump(vs))
	}
	// Not an object at all.
	vs = validate(t, Task, []byte(`[]`))
	if len(vs) != 1 || vs[0].Where != "" || vs[0].Expected != "a JSON object" || vs[0].Actual != "an empty array" {
		t.Errorf("array as a Task: got:\n%s", dump(vs))
	}
}

func TestHarnessBugsAreErrors(t *testing.T) {
	if _, err := Validate("NoSuchObject", []byte(`{}`)); err == nil {
		t.Error("unknown schema name: no error")
	}
	if _, err := Validate("timestamp", []byte(`""`)); err == nil {
		t.Error("building block used as an entry point: no error")
	}
	if _, err := ValidateValue(Task, make(chan int)); err == nil {
		t.Error("unmarshallable value: no error")
	}
}

func TestValidateValue(t *testing.T) {
	task := a2a.Task{
		ID: "t1", ContextID: "c1",
		Status:    a2a.TaskStatus{State: a2a.TaskStateWorking, Timestamp: "2026-01-02T03:04:05.678Z"},
		History:   []a2a.Message{{MessageID: "m1", Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart("hi")}}},
		Artifacts: []a2a.Artifact{{ArtifactID: "a1", Parts: []a2a.Part{{Raw: a2a.Bytes("hi"), MediaType: "text/plain"}}}},
	}
	vs, err := ValidateValue(Task, task)
	if err != nil || len(vs) != 0 {
		t.Fatalf("a2a.Task as the harness writes it: %v\n%s", err, dump(vs))
	}
	vs, err = ValidateValue(Task, json.RawMessage(`{"id":"t"}`))
	if err != nil || !find(vs, "/status", "required property 'status'") {
		t.Fatalf("raw message: %v\n%s", err, dump(vs))
	}
	// The reference agent's card as internal/a2a writes it.
	yes := true
	card := a2a.AgentCard{
		Name: "ref", Description: "reference agent", Version: "1",
		SupportedInterfaces: []a2a.AgentInterface{{URL: "http://127.0.0.1:1/", ProtocolBinding: a2a.BindingJSONRPC, ProtocolVersion: a2a.ProtocolVersion}},
		Capabilities:        a2a.AgentCapabilities{Streaming: &yes},
		DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills:               []a2a.AgentSkill{{ID: "echo", Name: "echo", Description: "echoes", Tags: []string{"test"}}},
		SecurityRequirements: []a2a.SecurityRequirement{{Schemes: map[string]a2a.StringList{"bearer": {List: []string{}}}}},
	}
	if vs, err := ValidateValue(AgentCard, card); err != nil || len(vs) != 0 {
		t.Fatalf("a2a.AgentCard: %v\n%s", err, dump(vs))
	}
}

func TestActualIsBounded(t *testing.T) {
	long := strings.Repeat("é", 5000)
	keys := map[string]any{}
	for i := 0; i < 500; i++ {
		keys[strings.Repeat("k", 20)+string(rune('a'+i%26))+strings.Repeat("z", i%7)] = i
	}
	docs := []struct {
		object string
		doc    any
	}{
		{Message, map[string]any{"messageId": "m", "role": long, "parts": []any{map[string]any{"text": "a"}}}},
		{Part, map[string]any{"raw": long}},
		{TaskStatus, map[string]any{"state": "TASK_STATE_WORKING", "timestamp": long}},
		{Part, keys},
		{Task, map[string]any{"id": "t", "status": map[string]any{"state": "TASK_STATE_WORKING"}, "metadata": long}},
	}
	for _, d := range docs {
		vs := validate(t, d.object, mustJSON(t, d.doc))
		if len(vs) == 0 {
			t.Fatalf("%s: no violation", d.object)
		}
		for _, v := range vs {
			if len(v.Actual) > maxActual+8 || len(v.Expected) > 500 {
				t.Errorf("%s: unbounded violation (%d/%d bytes): %.300s", d.object, len(v.Expected), len(v.Actual), v)
			}
			if !utf8.ValidString(v.Actual) {
				t.Errorf("clipped Actual is not valid UTF-8: %q", v.Actual)
			}
		}
	}
}

func TestViolationsAreSortedAndComplete(t *testing.T) {
	parts := make([]any, 12)
	for i := range parts {
		parts[i] = map[string]any{"text": "ok"}
	}
	parts[10] = map[string]any{}
	parts[2] = map[string]any{"text": 1}
	doc := mustJSON(t, map[string]any{
		"id": "", "status": map[string]any{"state": "done", "timestamp": "now"},
		"history": []any{map[string]any{"messageId": "m", "role": "ROLE_USER", "parts": parts}},
	})
	want := []string{"/history/0/parts/2/text", "/history/0/parts/10", "/id", "/status/state", "/status/timestamp"}
	first := validate(t, Task, doc)
	var got []string
	for _, v := range first {
		got = append(got, v.Where)
		if v.Invariant != Invariant {
			t.Errorf("invariant %q", v.Invariant)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("locations %v, want %v:\n%s", got, want, dump(first))
	}
	for i := 0; i < 20; i++ {
		if again := validate(t, Task, doc); !reflect.DeepEqual(again, first) {
			t.Fatalf("run %d differs:\n%s\nvs\n%s", i, dump(again), dump(first))
		}
	}
}

func TestConcurrentUse(t *testing.T) {
	task, _ := os.ReadFile(filepath.Join("testdata", "valid", "Task.json"))
	bad := []byte(`{"id":"t","status":{"state":"completed"}}`)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if vs, err := Validate(Task, task); err != nil || len(vs) != 0 {
					errs <- "valid task rejected"
					return
				}
				if vs, err := Validate(Task, bad); err != nil || len(vs) != 1 {
					errs <- "invalid task: " + dump(vs)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestForMethod(t *testing.T) {
	for _, m := range a2a.Methods {
		params, result, ok := ForMethod(m)
		if !ok || params == "" {
			t.Errorf("%s: no params schema", m)
			continue
		}
		for _, n := range []string{params, result} {
			if n == "" {
				continue
			}
			if _, err := Validate(n, []byte(`{}`)); err != nil {
				t.Errorf("%s: %v", m, err)
			}
		}
	}
	if _, _, ok := ForMethod("message/send"); ok {
		t.Error("v0.3 method name accepted")
	}
}

func TestNullIsNotUnset(t *testing.T) {
	vs := validate(t, Task, []byte(`{"id":"t","contextId":null,"status":{"state":"TASK_STATE_WORKING"},"metadata":{"k":null}}`))
	if len(vs) != 1 || vs[0].Where != "/contextId" || vs[0].Actual != "null" {
		t.Fatalf("got:\n%s", dump(vs))
	}
	vs = validate(t, Task, []byte(`{"id":null,"status":{"state":"TASK_STATE_WORKING"}}`))
	if len(vs) != 1 || vs[0].Where != "/id" || vs[0].Expected != "a JSON string" {
		t.Fatalf("got:\n%s", dump(vs))
	}
}
