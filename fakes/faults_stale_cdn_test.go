package fakes

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
)

// The stale-CDN faults' observations (scenario 3), added to faultCases so
// that TestFaults runs each with the fault on and off: a later build, whose
// card says what it dropped, is asked for it as a client holding the
// previous generation's card would ask.
func init() {
	faultCases[faultDroppedPushConfigAccepted] = func(e *faultEnv) string {
		n := e.node(Options{Generation: 2, DisablePush: true})
		if n.card.PushNotifications() {
			e.t.Fatal("the build without push still advertises it")
		}
		task := sendTask(e.t, n.rpc(), userMsg("x"), nil)
		got, err := n.rpc().CreateTaskPushNotificationConfig(ctxT(), &a2a.TaskPushNotificationConfig{TaskID: task.ID, URL: "https://a2a-conform.invalid/hook"})
		if err == nil {
			return "generation 2 card says push false; config " + got.ID + " accepted"
		}
		return ""
	}
	faultCases[faultDroppedInterfaceServedAsJSONRPC] = func(e *faultEnv) string {
		n := e.node(Options{Generation: 2})
		if declares(n.card, PreviousBuildRESTPath) {
			e.t.Fatal("the later build still declares the previous build's interface")
		}
		b, _ := json.Marshal(a2a.SendMessageRequest{Message: userMsg("x")})
		status, _, body := rawHTTP(e.t, http.MethodPost, n.srv.URL+PreviousBuildRESTPath+"/message:send", "application/json", string(b), nil)
		if status/100 == 2 {
			return "HTTP " + http.StatusText(status) + " on the dropped HTTP+JSON path: " + truncate(string(body), 200)
		}
		return ""
	}
	faultCases[faultDroppedExtensionAccepted] = func(e *faultEnv) string {
		n := e.node(Options{Generation: 2})
		for _, x := range n.card.Capabilities.Extensions {
			if x.URI == PreviousBuildExtension {
				e.t.Fatal("the later build still declares the previous build's extension")
			}
		}
		_, h, _ := rawHTTP(e.t, http.MethodPost, n.srv.URL+JSONRPCPath, "application/json",
			`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m1","role":"ROLE_USER","parts":[{"text":"x"}]}}}`,
			map[string]string{"A2A-Extensions": PreviousBuildExtension})
		if got := h.Get("A2A-Extensions"); strings.Contains(got, PreviousBuildExtension) {
			return "the card lists no " + PreviousBuildExtension + ", yet the answer says A2A-Extensions: " + got
		}
		return ""
	}
}

func declares(card *a2a.AgentCard, path string) bool {
	for _, i := range card.SupportedInterfaces {
		if strings.HasSuffix(i.URL, path) {
			return true
		}
	}
	return false
}

// The previous build declares and serves what the next one drops: a second
// HTTP+JSON interface, last on its card, and a required extension, refused
// when undeclared, echoed as activated when declared.
func TestPreviousBuild(t *testing.T) {
	n := startNode(t, Options{PreviousBuild: true})
	ifaces := n.card.SupportedInterfaces
	last := ifaces[len(ifaces)-1]
	if last.ProtocolBinding != a2a.BindingHTTPJSON || !strings.HasSuffix(last.URL, PreviousBuildRESTPath) {
		t.Fatalf("last interface %+v, want HTTP+JSON at %s", last, PreviousBuildRESTPath)
	}
	if ifaces[0].ProtocolBinding != a2a.BindingJSONRPC || !strings.HasSuffix(ifaces[0].URL, JSONRPCPath) {
		t.Fatalf("first interface %+v: the previous build must keep the preferred one", ifaces[0])
	}
	required := false
	for _, x := range n.card.Capabilities.Extensions {
		required = required || (x.URI == PreviousBuildExtension && x.Required)
	}
	if !required {
		t.Fatalf("the card does not mark %s required: %+v", PreviousBuildExtension, n.card.Capabilities.Extensions)
	}
	// Undeclared: refused on every binding.
	for _, c := range n.clients {
		_, err := c.SendMessage(ctxT(), &a2a.SendMessageRequest{Message: userMsg("x")})
		expectKind(t, err, a2a.ErrExtensionSupportRequired)
	}
	// Declared: served through the second interface, and echoed.
	c, err := client.New(last, client.WithExtensions(PreviousBuildExtension))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Raw(ctxT(), a2a.MethodSendMessage, a2a.SendMessageRequest{Message: userMsg("x")})
	if err != nil || c.Classify(a2a.MethodSendMessage, resp) != nil {
		t.Fatalf("SendMessage through the previous build's interface: %v %v", err, c.Classify(a2a.MethodSendMessage, resp))
	}
	if got := resp.Header.Get("A2A-Extensions"); got != PreviousBuildExtension {
		t.Fatalf("A2A-Extensions %q, want %s echoed", got, PreviousBuildExtension)
	}
	var out a2a.SendMessageResponse
	if json.Unmarshal(resp.Body, &out) != nil || out.Task == nil {
		t.Fatalf("not an HTTP+JSON task answer: %s", resp.Body)
	}
	if got, err := c.GetTask(ctxT(), &a2a.GetTaskRequest{ID: out.Task.ID}); err != nil || got.ID != out.Task.ID {
		t.Fatalf("GetTask through the previous build's interface: %v", err)
	}
}

// A later build has neither: the path is not found and the extension,
// requested, is ignored (served, not echoed).
func TestLaterBuildDropsThePreviousBuildsExtras(t *testing.T) {
	n := startNode(t, Options{Generation: 2})
	b, _ := json.Marshal(a2a.SendMessageRequest{Message: userMsg("x")})
	if status, _, body := rawHTTP(t, http.MethodPost, n.srv.URL+PreviousBuildRESTPath+"/message:send", "application/json", string(b), nil); status != http.StatusNotFound {
		t.Fatalf("HTTP %d on the dropped path, want 404: %s", status, body)
	}
	c, err := client.New(n.card.SupportedInterfaces[0], client.WithExtensions(PreviousBuildExtension))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Raw(ctxT(), a2a.MethodSendMessage, a2a.SendMessageRequest{Message: userMsg("x")})
	if err != nil || c.Classify(a2a.MethodSendMessage, resp) != nil {
		t.Fatalf("a request naming the dropped extension was not served: %v %v", err, c.Classify(a2a.MethodSendMessage, resp))
	}
	if got := resp.Header.Get("A2A-Extensions"); got != "" {
		t.Fatalf("A2A-Extensions %q: the later build claims an extension it dropped", got)
	}
}
