package client

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

func TestRawUnknownMethodJSONRPC(t *testing.T) {
	c, m := newMocked(t, a2a.BindingJSONRPC, "", rpcRaw(200, "application/json",
		`{"jsonrpc":"2.0","id":{{id}},"error":{"code":-32601,"message":"Method not found"}}`))
	r, err := c.Raw(context.Background(), "tasks/get", map[string]string{"id": "t1"})
	if err != nil {
		t.Fatal(err)
	}
	var env map[string]json.RawMessage
	json.Unmarshal(m.last().body, &env)
	jsonEqual(t, "method", env["method"], `"tasks/get"`)
	jsonEqual(t, "params", env["params"], `{"id":"t1"}`)
	if r.Status != 200 || len(r.RPCID) == 0 {
		t.Fatalf("raw %+v", r)
	}
	e := mustErr(t, c.Classify("tasks/get", r))
	if e.Class != A2A || e.Code != -32601 {
		t.Fatalf("classified %v", e)
	}
}

func TestRawMalformedBodyAndHeaders(t *testing.T) {
	c, m := newMocked(t, a2a.BindingJSONRPC, "", fixed(200, "application/json",
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`), WithHeader("Authorization", "Bearer k"))
	r, err := c.RawDo(context.Background(), RawRequest{Body: []byte(`{"jsonrpc":"2.0",`),
		Header: http.Header{"Content-Type": {}, "A2a-Version": {"0.3"}}})
	if err != nil {
		t.Fatal(err)
	}
	s := m.last()
	if string(s.body) != `{"jsonrpc":"2.0",` {
		t.Fatalf("body %q", s.body)
	}
	if _, ok := s.header["Content-Type"]; ok {
		t.Fatalf("Content-Type not removed: %v", s.header)
	}
	if s.header.Get("A2A-Version") != "0.3" || s.header.Get("Authorization") != "Bearer k" {
		t.Fatalf("headers %v", s.header)
	}
	if e := mustErr(t, c.Classify(a2a.MethodGetTask, r)); e.Code != -32700 {
		t.Fatalf("classified %v", e)
	}
}

func TestRawREST(t *testing.T) {
	c, m := newMocked(t, a2a.BindingHTTPJSON, "ten", fixed(404, "application/json", restTaskNotFound))
	r, err := c.RawDo(context.Background(), RawRequest{Method: a2a.MethodCancelTask, PathID: "t1", Params: json.RawMessage(`null`)})
	if err != nil {
		t.Fatal(err)
	}
	s := m.last()
	if s.method != "POST" || s.path != "/a2a/rest/ten/tasks/t1:cancel" || string(s.body) != "null" {
		t.Fatalf("request %s %s %q", s.method, s.path, s.body)
	}
	if e := mustErr(t, c.Classify(a2a.MethodCancelTask, r)); e.Kind != a2a.ErrTaskNotFound || len(e.Tables) != 2 {
		t.Fatalf("classified %v", e)
	}
	// Explicit verb and path, e.g. the legacy v0.3 route.
	c, m = newMocked(t, a2a.BindingHTTPJSON, "", fixed(200, "application/json", taskJSON))
	r, err = c.RawDo(context.Background(), RawRequest{Verb: "GET", Path: "/v1/tasks/t1"})
	if err != nil || m.last().path != "/a2a/rest/v1/tasks/t1" || m.last().method != "GET" {
		t.Fatalf("%v %+v", err, m.last())
	}
	if err := c.Classify(a2a.MethodGetTask, r); err != nil {
		t.Fatalf("success classified as %v", err)
	}
	if _, err := c.Raw(context.Background(), "NoSuchMethod", nil); err == nil {
		t.Fatal("REST raw with an unknown method and no path must fail")
	}
}

func TestDoAddsOnlyMissingDefaults(t *testing.T) {
	c, m := newMocked(t, a2a.BindingHTTPJSON, "", fixed(200, "text/plain", strings.Repeat("z", 50)),
		WithHeader("Authorization", "Bearer k"), WithMaxBody(10))
	req, _ := http.NewRequest("OPTIONS", restURL+"/tasks", nil)
	req.Header.Set("A2A-Version", "2.0")
	r, err := c.Do(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	h := m.last().header
	if h.Get("A2A-Version") != "2.0" || h.Get("Authorization") != "Bearer k" {
		t.Fatalf("headers %v", h)
	}
	if !r.Truncated || len(r.Body) != 10 {
		t.Fatalf("cap not applied: %d bytes truncated=%v", len(r.Body), r.Truncated)
	}
	if e := mustErr(t, c.Classify(a2a.MethodGetTask, r)); e.Class != Protocol {
		t.Fatalf("truncated raw classified %v", e)
	}
}

func TestFetchCard(t *testing.T) {
	var gotPath, gotVersion, gotINM string
	card := cardJSON
	status := 200
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotPath, gotVersion, gotINM = r.URL.Path, r.Header.Get("A2A-Version"), r.Header.Get("If-None-Match")
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", `"v1"`)
		if gotINM == `"v1"` {
			w.WriteHeader(304)
			return
		}
		w.WriteHeader(status)
		io.WriteString(w, card)
	}))
	defer srv.Close()
	ctx := context.Background()

	cr, err := FetchCard(ctx, srv.Client(), srv.URL+"/", http.Header{"A2a-Version": {"1.0"}})
	if err != nil {
		t.Fatal(err)
	}
	if gotPath != "/.well-known/agent-card.json" || gotVersion != "1.0" {
		t.Fatalf("path %s version %q", gotPath, gotVersion)
	}
	if cr.Status != 200 || cr.Card == nil || cr.Card.Name != "A" || cr.DecodeErr != nil || cr.Header.Get("ETag") != `"v1"` || string(cr.Raw) != card {
		t.Fatalf("card response %+v", cr)
	}

	cr, err = FetchCard(ctx, srv.Client(), srv.URL, http.Header{"If-None-Match": {`"v1"`}})
	if err != nil || cr.Status != 304 || cr.Card != nil || cr.DecodeErr != nil {
		t.Fatalf("304: %+v %v", cr, err)
	}

	for name, body := range map[string]string{
		"not json": "<html>", "array": "[]", "trailing": cardJSON + "}", "truncated": cardJSON[:40],
		"bom": "\xEF\xBB\xBF" + cardJSON, "wrong type": `{"name":5}`,
	} {
		card = body
		cr, err = FetchCard(ctx, srv.Client(), srv.URL, nil)
		if err != nil || cr.Card != nil || cr.DecodeErr == nil || string(cr.Raw) != body {
			t.Errorf("%s: malformed card must be data, got %+v %v", name, cr, err)
		}
	}
	card, status = `{"error":"nope"}`, 404
	cr, err = FetchCard(ctx, srv.Client(), srv.URL, nil)
	if err != nil || cr.Status != 404 || cr.Card != nil || cr.DecodeErr == nil {
		t.Fatalf("404: %+v %v", cr, err)
	}
	card, status = `{"name":"`+strings.Repeat("n", MaxCardBytes)+`"}`, 200
	cr, err = FetchCard(ctx, srv.Client(), srv.URL, nil)
	if err != nil || !cr.Truncated || len(cr.Raw) != MaxCardBytes || cr.DecodeErr == nil {
		t.Fatalf("oversized: truncated=%v len=%d err=%v", cr.Truncated, len(cr.Raw), err)
	}

	if _, err := FetchCard(ctx, nil, "not a url", nil); err == nil {
		t.Fatal("bad base URL accepted")
	}
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	_, err = FetchCard(ctx, nil, deadURL, nil)
	if e := mustErr(t, err); e.Class != Transport {
		t.Fatalf("closed server: %v", e)
	}
}

func TestDecodeCardKeepsV03Members(t *testing.T) {
	c, err := DecodeCard([]byte(`{"name":"x","url":"http://old.invalid","protocolVersion":"0.3.0","supportedInterfaces":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.V03Leftovers(); len(got) != 2 {
		t.Fatalf("v0.3 leftovers %v", got)
	}
}
