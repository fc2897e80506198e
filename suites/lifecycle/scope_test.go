package lifecycle

import (
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
)

// secondConfig, against agents that check the webhook URL before the
// caller's access (an exact-URL allow-list, a strict SSRF rule), with and
// without the ownership hole: a URL refusal never stands for a refusal of
// the task; the URL the agent accepted from the run's identity is retried;
// without one the part is unknown.
func TestSecondConfigRetriesARefusedURL(t *testing.T) {
	const own, accepted, task, fresh = "http://127.0.0.1:1/hook/second", "http://127.0.0.1:1/hook/first", "task-1", "no-such-task"
	badURL := &client.Error{Class: client.A2A, Binding: a2a.BindingJSONRPC, Code: a2a.CodeInvalidParams, HTTPStatus: 200, Message: "webhook URL not allowed"}
	badURLREST := &client.Error{Class: client.A2A, Binding: a2a.BindingHTTPJSON, HTTPStatus: 400, Status: "INVALID_ARGUMENT", Message: "webhook URL not allowed"}
	notFound := &client.Error{Class: client.A2A, Binding: a2a.BindingJSONRPC, Kind: a2a.ErrTaskNotFound, Code: -32001, HTTPStatus: 200}
	// agent answers a create: allowed URLs, and whether the task is served
	// to this caller (the ownership hole).
	agent := func(allowed map[string]bool, hole bool, refusal *client.Error) func(id, url string) answer {
		return func(id, url string) answer {
			switch {
			case !allowed[url]:
				return answerOf(refusal, nil)
			case id == task && hole:
				return answerOf(nil, func() string { return "config created on it" })
			}
			return answerOf(notFound, nil)
		}
	}
	for _, c := range []struct {
		name     string
		allowed  map[string]bool
		hole     bool
		accepted string
		refusal  *client.Error
		// want: "served", "same" (both refused alike, judged) or "unknown".
		want string
	}{
		{"any URL, correct", map[string]bool{own: true, accepted: true}, false, accepted, badURL, "same"},
		{"any URL, hole", map[string]bool{own: true, accepted: true}, true, accepted, badURL, "served"},
		{"exact allow-list, correct", map[string]bool{accepted: true}, false, accepted, badURL, "same"},
		{"exact allow-list, hole", map[string]bool{accepted: true}, true, accepted, badURL, "served"},
		{"exact allow-list, hole, HTTP 400", map[string]bool{accepted: true}, true, accepted, badURLREST, "served"},
		{"nothing accepted, hole", map[string]bool{}, true, "", badURL, "unknown"},
		{"nothing accepted, correct", map[string]bool{}, false, "", badURL, "unknown"},
		{"per-identity allow-list, hole", map[string]bool{}, true, accepted, badURL, "unknown"},
	} {
		t.Run(c.name, func(t *testing.T) {
			other, unknown := secondConfig(agent(c.allowed, c.hole, c.refusal), task, fresh, own, c.accepted)
			got := "same"
			switch {
			case other.served != "":
				got = "served"
			case other.unknown != "" || unknown.unknown != "":
				got = "unknown"
			case other.shape() != unknown.shape():
				got = "differ: " + other.shape() + " / " + unknown.shape()
			}
			if got != c.want {
				t.Fatalf("got %s, want %s (other %q, unknown id %q)", got, c.want, other.shape(), unknown.shape())
			}
			if got == "unknown" && !strings.Contains(other.unknown, "refused") {
				t.Errorf("the unknown part does not say the URL was refused: %q", other.unknown)
			}
		})
	}
}
