package a2a

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func TestTaskRoundTripIsProtoJSON(t *testing.T) {
	task := Task{
		ID: "t1", ContextID: "c1",
		Status:    TaskStatus{State: TaskStateWorking, Timestamp: "2026-01-02T03:04:05.678Z"},
		History:   []Message{{MessageID: "m1", Role: RoleUser, Parts: []Part{TextPart("")}}},
		Artifacts: []Artifact{{ArtifactID: "a1", Parts: []Part{{Raw: Bytes("hi"), MediaType: "text/plain"}}}},
	}
	b, err := json.Marshal(task)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_WORKING","timestamp":"2026-01-02T03:04:05.678Z"},` +
		`"artifacts":[{"artifactId":"a1","parts":[{"raw":"aGk=","mediaType":"text/plain"}]}],` +
		`"history":[{"messageId":"m1","role":"ROLE_USER","parts":[{"text":""}]}]}`
	if string(b) != want {
		t.Fatalf("marshal:\n got %s\nwant %s", b, want)
	}
	var back Task
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, task) {
		t.Fatalf("round trip changed the task:\n%#v\n%#v", back, task)
	}
}

func TestLenientRead(t *testing.T) {
	cases := []struct {
		name  string
		in    string
		check func(t *testing.T, task Task)
	}{
		{"snake_case members", `{"id":"x","context_id":"c","status":{"state":"TASK_STATE_COMPLETED"}}`,
			func(t *testing.T, task Task) {
				if task.ContextID != "c" || len(task.Extra) != 0 {
					t.Fatalf("contextId %q extra %v", task.ContextID, task.Extra.Keys())
				}
			}},
		{"enum by number", `{"id":"x","status":{"state":5}}`,
			func(t *testing.T, task Task) {
				if task.Status.State != TaskStateCanceled {
					t.Fatalf("state %q", task.Status.State)
				}
			}},
		{"v0.3 kind and lowercase state kept", `{"id":"x","kind":"task","status":{"state":"completed"}}`,
			func(t *testing.T, task Task) {
				if _, ok := task.Extra["kind"]; !ok {
					t.Fatalf("kind not kept: %v", task.Extra.Keys())
				}
				if task.Status.State.Valid() {
					t.Fatal("lowercase state reported valid")
				}
				if v, ok := task.Status.State.V03Equivalent(); !ok || v != TaskStateCompleted {
					t.Fatalf("v0.3 equivalent %q %v", v, ok)
				}
			}},
		{"artifacts presence", `{"id":"x","status":{"state":"TASK_STATE_WORKING"},"artifacts":[]}`,
			func(t *testing.T, task Task) {
				if task.Artifacts == nil {
					t.Fatal("present empty artifacts read as absent")
				}
			}},
		{"unknown enum number kept", `{"id":"x","status":{"state":42}}`,
			func(t *testing.T, task Task) {
				if task.Status.State != "42" {
					t.Fatalf("state %q", task.Status.State)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var task Task
			if err := json.Unmarshal([]byte(c.in), &task); err != nil {
				t.Fatal(err)
			}
			c.check(t, task)
		})
	}
}

func TestMalformedIsAnErrorNotAPanic(t *testing.T) {
	for _, in := range []string{`[]`, `"task"`, `{"id":5}`, `{"status":[]}`, `{"history":[1]}`, `{`, ``} {
		var task Task
		if err := json.Unmarshal([]byte(in), &task); err == nil {
			t.Errorf("%q decoded without error", in)
		}
	}
}

func TestStringListBothShapes(t *testing.T) {
	var r SecurityRequirement
	if err := json.Unmarshal([]byte(`{"schemes":{"a":{"list":["x"]},"b":["y"]}}`), &r); err != nil {
		t.Fatal(err)
	}
	if r.Schemes["a"].Bare || !r.Schemes["b"].Bare || r.Schemes["b"].List[0] != "y" {
		t.Fatalf("%+v", r)
	}
	b, _ := json.Marshal(r)
	if !strings.Contains(string(b), `"b":{"list":["y"]}`) {
		t.Fatalf("not written as ProtoJSON: %s", b)
	}
}

func TestCardV03Leftovers(t *testing.T) {
	var c AgentCard
	in := `{"name":"n","description":"d","url":"http://x","protocolVersion":"0.3.0","capabilities":{"streaming":true}}`
	if err := json.Unmarshal([]byte(in), &c); err != nil {
		t.Fatal(err)
	}
	if got := c.V03Leftovers(); !reflect.DeepEqual(got, []string{"url", "protocolVersion"}) {
		t.Fatalf("leftovers %v", got)
	}
	if !c.Streaming() || c.PushNotifications() {
		t.Fatal("capability flags misread")
	}
}

func TestRESTExpand(t *testing.T) {
	r := RESTRoutes[MethodGetTaskPushNotificationConfig]
	if got := r.Expand("t/1", "task 1", "cfg"); got != "/t%2F1/tasks/task%201/pushNotificationConfigs/cfg" {
		t.Fatal(got)
	}
}
