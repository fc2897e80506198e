package fakes

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

func fetchCard(t *testing.T, n *node, hdr map[string]string) *client.CardResponse {
	t.Helper()
	h := http.Header{}
	for k, v := range hdr {
		h.Set(k, v)
	}
	cr, err := client.FetchCard(ctxT(), nil, n.srv.URL, h)
	if err != nil {
		t.Fatal(err)
	}
	return cr
}

func TestCardCaching(t *testing.T) {
	n := startNode(t, Options{Name: "cache-a", CardMaxAge: 7 * time.Second})
	cr := fetchCard(t, n, nil)
	etag := cr.Header.Get("ETag")
	if cr.Status != 200 || !strings.HasPrefix(etag, `"`) || cr.Header.Get("Cache-Control") != "max-age=7" ||
		cr.Header.Get("Vary") != "A2A-Version" || cr.Header.Get(InstanceHeader) != "cache-a" {
		t.Fatalf("status %d headers %v", cr.Status, cr.Header)
	}
	if ct := cr.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("content type %q", ct)
	}
	for _, inm := range []string{etag, "W/" + etag, `"other", ` + etag, "*", `"a,b", W/` + etag} {
		if got := fetchCard(t, n, map[string]string{"If-None-Match": inm}); got.Status != 304 || got.Header.Get("ETag") != etag || len(got.Raw) != 0 {
			t.Fatalf("If-None-Match %s: status %d, etag %q, %d bytes", inm, got.Status, got.Header.Get("ETag"), len(got.Raw))
		}
	}
	for _, inm := range []string{`"other"`, "garbage", `W/"x"`} {
		if got := fetchCard(t, n, map[string]string{"If-None-Match": inm}); got.Status != 200 {
			t.Fatalf("If-None-Match %s: status %d", inm, got.Status)
		}
	}
	// Same content, same ETag; a rotation changes version and ETag.
	if again := fetchCard(t, n, nil); again.Header.Get("ETag") != etag {
		t.Fatal("ETag changed without a change")
	}
	if gen := n.agent.Rotate(Rotation{}); gen != 2 {
		t.Fatalf("generation %d", gen)
	}
	rotated := fetchCard(t, n, map[string]string{"If-None-Match": etag})
	if rotated.Status != 200 || rotated.Header.Get("ETag") == etag || rotated.Card.Version != "1.2.0" {
		t.Fatalf("after rotation: status %d etag %q version %q", rotated.Status, rotated.Header.Get("ETag"), rotated.Card.Version)
	}
	status, hdr, body := rawHTTP(t, http.MethodHead, n.srv.URL+a2a.WellKnownCardPath, "", "", nil)
	if status != 200 || hdr.Get("ETag") != rotated.Header.Get("ETag") || len(body) != 0 {
		t.Fatalf("HEAD: %d %v", status, hdr)
	}
	if status, hdr, _ := rawHTTP(t, http.MethodPost, n.srv.URL+a2a.WellKnownCardPath, "application/json", "{}", nil); status != 405 || hdr.Get("Allow") == "" {
		t.Fatalf("POST card: %d", status)
	}
}

func TestRotationMovesInterfacesAndAuth(t *testing.T) {
	n := startNode(t, Options{})
	oldRPC := n.rpc()
	task := sendTask(t, oldRPC, scripted(directive.Directive{DelayMs: 50}), immediate())
	n.agent.Rotate(Rotation{MoveInterfaces: true, AuthScheme: "Bearer", Version: "2.0.0"})
	n.loadCard()
	if n.card.Version != "2.0.0" || !strings.Contains(n.card.SupportedInterfaces[0].URL, "/g2/") {
		t.Fatalf("rotated card: %s %+v", n.card.Version, n.card.SupportedInterfaces)
	}
	if s := n.card.SecuritySchemes["a2a-conform"]; s.HTTPAuth == nil || s.HTTPAuth.Scheme != "Bearer" {
		t.Fatalf("security schemes %+v", n.card.SecuritySchemes)
	}
	// The task started through the old interface is reachable through both.
	waitState(t, oldRPC, task.ID, a2a.TaskStateCompleted)
	bothBindings(t, n, func(t *testing.T, c *client.Client) {
		if got := getTask(t, c, task.ID); got.Status.State != a2a.TaskStateCompleted {
			t.Fatalf("through the new interface: %s", got.Status.State)
		}
	})
	n.agent.Rotate(Rotation{AuthScheme: "none"})
	n.loadCard()
	if _, ok := n.card.SecuritySchemes["a2a-conform"]; ok || n.card.Version != "1.3.0" {
		t.Fatalf("auth withdrawn: %+v %s", n.card.SecuritySchemes, n.card.Version)
	}
}

func TestBaseURLFromConfigOrForwardedHost(t *testing.T) {
	n := startNode(t, Options{BaseURL: "https://agent.example/"})
	if u := n.card.SupportedInterfaces[0].URL; u != "https://agent.example"+JSONRPCPath {
		t.Fatalf("configured base: %s", u)
	}
	m := startNode(t, Options{})
	cr := fetchCard(t, m, map[string]string{"X-Forwarded-Host": "lb.local:8443", "X-Forwarded-Proto": "https"})
	if u := cr.Card.SupportedInterfaces[1].URL; u != "https://lb.local:8443"+RESTPath {
		t.Fatalf("forwarded base: %s", u)
	}
}

func TestWarmUpAnswers503(t *testing.T) {
	a, err := New(fastOpts(Options{WarmUp: time.Hour}))
	if err != nil {
		t.Fatal(err)
	}
	n := &node{t: t, agent: a, srv: httptest.NewServer(a)}
	t.Cleanup(n.stop)
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan error, 1)
	go func() { started <- a.Start(ctx) }()
	for _, path := range []string{a2a.WellKnownCardPath, JSONRPCPath, RESTPath + "/tasks"} {
		method := http.MethodGet
		if path == JSONRPCPath {
			method = http.MethodPost
		}
		status, hdr, body := rawHTTP(t, method, n.srv.URL+path, "application/json", `{"jsonrpc":"2.0","id":1,"method":"ListTasks"}`, nil)
		if status != 503 || hdr.Get("Retry-After") == "" || len(body) == 0 {
			t.Fatalf("%s during warm-up: %d Retry-After %q body %s", path, status, hdr.Get("Retry-After"), body)
		}
	}
	cancel()
	if err := <-started; err == nil {
		t.Fatal("Start returned nil after its context was canceled during warm-up")
	}
}

func TestAdminEndpoint(t *testing.T) {
	off := startNode(t, Options{})
	if status, _, _ := rawHTTP(t, "POST", off.srv.URL+AdminPath+"rotate", "", "", nil); status != 404 {
		t.Fatalf("admin endpoint answered %d while disabled", status)
	}
	n := startNode(t, Options{Admin: true, Name: "adm"})
	status, _, body := rawHTTP(t, "POST", n.srv.URL+AdminPath+"rotate", "application/json", `{"version":"9.0.0"}`, nil)
	if status != 200 || string(body) != `{"generation":2}` {
		t.Fatalf("rotate: %d %s", status, body)
	}
	if cr := fetchCard(t, n, nil); cr.Card.Version != "9.0.0" {
		t.Fatalf("version after admin rotate: %s", cr.Card.Version)
	}
	status, _, body = rawHTTP(t, "GET", n.srv.URL+AdminPath+"state", "", "", nil)
	if status != 200 || !strings.Contains(string(body), `"generation":2`) || !strings.Contains(string(body), `"ready":true`) {
		t.Fatalf("state: %d %s", status, body)
	}
}

func TestExtensionActivationEchoed(t *testing.T) {
	n := startNode(t, Options{})
	_, hdr, _ := rawHTTP(t, "GET", n.srv.URL+RESTPath+"/tasks", "", "", map[string]string{"A2A-Extensions": "urn:other, " + directive.URI})
	if hdr.Get("A2A-Extensions") != directive.URI {
		t.Fatalf("A2A-Extensions %q", hdr.Get("A2A-Extensions"))
	}
	_, hdr, _ = rawHTTP(t, "GET", n.srv.URL+RESTPath+"/tasks", "", "", map[string]string{"A2A-Extensions": "urn:other"})
	if hdr.Get("A2A-Extensions") != "" {
		t.Fatalf("echoed an extension the agent does not implement: %q", hdr.Get("A2A-Extensions"))
	}
}
