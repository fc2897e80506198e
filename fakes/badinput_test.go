package fakes

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

type rpcErrBody struct {
	ID    json.RawMessage `json:"id"`
	Error *struct {
		Code int               `json:"code"`
		Data []json.RawMessage `json:"data"`
	} `json:"error"`
}

func TestJSONRPCBadInput(t *testing.T) {
	n := startNode(t, Options{MaxBodyBytes: 4096})
	url := n.srv.URL + JSONRPCPath
	cases := []struct {
		name        string
		contentType string
		body        string
		hdr         map[string]string
		status      int
		code        int
		id          string
		reason      string
	}{
		{"malformed JSON", "application/json", `{"jsonrpc":"2.0",`, nil, 200, -32700, "null", ""},
		{"empty body", "application/json", ``, nil, 200, -32700, "null", ""},
		{"batch", "application/json", `[{"jsonrpc":"2.0","id":1,"method":"GetTask"}]`, nil, 200, -32600, "null", ""},
		{"not an object", "application/json", `"GetTask"`, nil, 200, -32600, "null", ""},
		{"wrong jsonrpc version", "application/json", `{"jsonrpc":"1.0","id":7,"method":"GetTask"}`, nil, 200, -32600, "7", ""},
		{"no id", "application/json", `{"jsonrpc":"2.0","method":"GetTask","params":{"id":"x"}}`, nil, 200, -32600, "null", ""},
		{"object id", "application/json", `{"jsonrpc":"2.0","id":{},"method":"GetTask"}`, nil, 200, -32600, "null", ""},
		{"no method", "application/json", `{"jsonrpc":"2.0","id":"a"}`, nil, 200, -32600, `"a"`, ""},
		{"unknown method", "application/json", `{"jsonrpc":"2.0","id":1,"method":"Frobnicate"}`, nil, 200, -32601, "1", ""},
		{"v0.3 method name", "application/json", `{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"x"}}`, nil, 200, -32601, "1", ""},
		{"params array", "application/json", `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":[1]}`, nil, 200, -32602, "1", ""},
		{"wrong type", "application/json", `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":5}}`, nil, 200, -32602, "1", ""},
		{"missing id param", "application/json", `{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{}}`, nil, 200, -32602, "1", ""},
		{"missing message", "application/json", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{}}`, nil, 200, -32602, "1", ""},
		{"no messageId", "application/json", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"role":"ROLE_USER","parts":[{"text":"x"}]}}}`, nil, 200, -32602, "1", ""},
		{"no parts", "application/json", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[]}}}`, nil, 200, -32602, "1", ""},
		{"two content keys", "application/json", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x","url":"http://x"}]}}}`, nil, 200, -32602, "1", ""},
		{"agent role", "application/json", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"x"}]}}}`, nil, 200, -32602, "1", ""},
		{"unsupported media type", "application/json", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"raw":"AAAA","mediaType":"image/png"}]}}}`, nil, 200, -32005, "1", "CONTENT_TYPE_NOT_SUPPORTED"},
		{"unsupported version", "application/json", `{"jsonrpc":"2.0","id":1,"method":"ListTasks"}`, map[string]string{"A2A-Version": "9.9"}, 200, -32009, "1", "VERSION_NOT_SUPPORTED"},
		{"form content type", "application/x-www-form-urlencoded", `a=b`, nil, 415, -32600, "null", ""},
		{"oversized", "application/json", `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"` + strings.Repeat("x", 5000) + `"}]}}}`, nil, 413, -32600, "null", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, hdr, body := rawHTTP(t, http.MethodPost, url, c.contentType, c.body, c.hdr)
			if status != c.status {
				t.Fatalf("HTTP %d, want %d: %s", status, c.status, body)
			}
			if ct := hdr.Get("Content-Type"); ct != "application/json" {
				t.Fatalf("Content-Type %q", ct)
			}
			var resp rpcErrBody
			if err := json.Unmarshal(body, &resp); err != nil || resp.Error == nil {
				t.Fatalf("not a JSON-RPC error: %s", body)
			}
			if resp.Error.Code != c.code || string(resp.ID) != c.id {
				t.Fatalf("code %d id %s, want %d id %s: %s", resp.Error.Code, resp.ID, c.code, c.id, body)
			}
			if c.reason != "" {
				info, ok := a2a.FindErrorInfo(resp.Error.Data)
				if !ok || info.Reason != c.reason || info.Domain != a2a.ErrorDomain {
					t.Fatalf("ErrorInfo %+v in %s", info, body)
				}
			}
		})
	}
	if status, hdr, _ := rawHTTP(t, http.MethodGet, url, "", "", nil); status != 405 || hdr.Get("Allow") != "POST" {
		t.Fatalf("GET on the JSON-RPC endpoint: %d", status)
	}
}

func TestVersionNegotiation(t *testing.T) {
	lenient := startNode(t, Options{})
	strict := startNode(t, Options{StrictVersion: true})
	body := `{"jsonrpc":"2.0","id":1,"method":"ListTasks"}`
	check := func(n *node, version, query string, wantCode int) {
		t.Helper()
		_, _, b := rawHTTP(t, http.MethodPost, n.srv.URL+JSONRPCPath+query, "application/json", body, map[string]string{"A2A-Version": version})
		var resp rpcErrBody
		json.Unmarshal(b, &resp)
		got := 0
		if resp.Error != nil {
			got = resp.Error.Code
		}
		if got != wantCode {
			t.Fatalf("A2A-Version %q%s: code %d, want %d (%s)", version, query, got, wantCode, b)
		}
	}
	check(lenient, "1.0", "", 0)
	check(lenient, "1.0.7", "", 0) // patch numbers are ignored
	check(lenient, "", "", 0)      // absent: accepted (documented choice)
	check(lenient, "0.3", "", -32009)
	check(lenient, "9.9", "", -32009)
	check(lenient, "", "?A2A-Version=9.9", -32009)
	check(strict, "", "", -32009)
	check(strict, "1.0", "", 0)
	status, _, b := rawHTTP(t, http.MethodGet, lenient.srv.URL+RESTPath+"/tasks", "", "", map[string]string{"A2A-Version": "9.9"})
	var st a2a.HTTPErrorBody
	json.Unmarshal(b, &st)
	if status != 400 || st.Error == nil {
		t.Fatalf("REST version error: %d %s", status, b)
	}
	if info, ok := a2a.FindErrorInfo(st.Error.Details); !ok || info.Reason != "VERSION_NOT_SUPPORTED" {
		t.Fatalf("REST version error body %s", b)
	}
}

func TestRESTBadInput(t *testing.T) {
	n := startNode(t, Options{MaxBodyBytes: 4096})
	base := n.srv.URL + RESTPath
	msg := `{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}]}}`
	cases := []struct {
		name, method, path, contentType, body string
		status                                int
		grpc                                  string
	}{
		{"malformed JSON", "POST", "/message:send", "application/json", `{"message":`, 400, "INVALID_ARGUMENT"},
		{"wrong type", "POST", "/message:send", "application/json", `{"message":"hello"}`, 400, "INVALID_ARGUMENT"},
		{"missing message", "POST", "/message:send", "application/json", `{}`, 400, "INVALID_ARGUMENT"},
		{"unknown route", "GET", "/nothing/here", "", "", 404, "NOT_FOUND"},
		{"unknown task verb", "POST", "/tasks/x:explode", "application/json", "{}", 404, "NOT_FOUND"},
		{"wrong verb", "DELETE", "/message:send", "", "", 405, ""},
		{"bad historyLength", "GET", "/tasks/x?historyLength=abc", "", "", 400, "INVALID_ARGUMENT"},
		{"bad includeArtifacts", "GET", "/tasks?includeArtifacts=maybe", "", "", 400, "INVALID_ARGUMENT"},
		{"text/plain body", "POST", "/message:send", "text/plain", msg, 415, ""},
		{"oversized", "POST", "/message:send", "application/json", `{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"` + strings.Repeat("y", 5000) + `"}]}}`, 413, ""},
		{"unknown task", "GET", "/tasks/does-not-exist", "", "", 404, "NOT_FOUND"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, hdr, body := rawHTTP(t, c.method, base+c.path, c.contentType, c.body, nil)
			if status != c.status {
				t.Fatalf("HTTP %d, want %d: %s", status, c.status, body)
			}
			var st a2a.HTTPErrorBody
			if err := json.Unmarshal(body, &st); err != nil || st.Error == nil || st.Error.Code != c.status || st.Error.Message == "" {
				t.Fatalf("not a google.rpc.Status body: %s", body)
			}
			if c.grpc != "" && st.Error.Status != c.grpc {
				t.Fatalf("status %q, want %q", st.Error.Status, c.grpc)
			}
			if ct := hdr.Get("Content-Type"); ct != RESTContentType {
				t.Fatalf("Content-Type %q", ct)
			}
			if c.status == 405 && hdr.Get("Allow") != "POST" {
				t.Fatalf("Allow %q", hdr.Get("Allow"))
			}
		})
	}
	// Both request content types are accepted.
	for _, ct := range []string{"application/json", "application/a2a+json; charset=utf-8"} {
		if status, _, body := rawHTTP(t, "POST", base+"/message:send", ct, msg, nil); status != 200 {
			t.Fatalf("%s: %d %s", ct, status, body)
		}
	}
}

type panicReader struct{}

func (panicReader) Read([]byte) (int, error) { panic("boom") }

// The recover middleware is the last resort: a panic becomes -32603 (or a
// 500 Status body), logged, never a dropped connection.
func TestPanicIsRecovered(t *testing.T) {
	var logs strings.Builder
	a, err := New(Options{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	a.Start(ctxT())
	defer a.Shutdown(ctxT())
	for _, path := range []string{JSONRPCPath, RESTPath + "/message:send"} {
		req := httptest.NewRequest(http.MethodPost, path, io.NopCloser(panicReader{}))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		a.ServeHTTP(rec, req)
		body := rec.Body.String()
		if path == JSONRPCPath && (rec.Code != 200 || !strings.Contains(body, `"code":-32603`)) {
			t.Fatalf("JSON-RPC panic: %d %s", rec.Code, body)
		}
		if path != JSONRPCPath && (rec.Code != 500 || !strings.Contains(body, `"INTERNAL"`)) {
			t.Fatalf("REST panic: %d %s", rec.Code, body)
		}
	}
	if !strings.Contains(logs.String(), "boom") {
		t.Fatalf("the panic was not logged: %s", logs.String())
	}
}

// Garbage in any shape never gets a 5xx.
func TestGarbageNeverServerError(t *testing.T) {
	n := startNode(t, Options{})
	bodies := []string{"", "null", "0", "[]", "{}", `{"params":null}`, `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":null}}`,
		`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"parts":[{}]}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"data":{"a2aConformDirective":null}}]}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":9,"parts":[{"text":"x"}]},"configuration":{"taskPushNotificationConfig":{"url":""}}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{"pageSize":"x"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"CreateTaskPushNotificationConfig","params":{"taskId":"x","url":"http://[::1"}}`,
		"\xff\xfe", `{"a":` + strings.Repeat("[", 5000) + `}`}
	paths := []string{JSONRPCPath, RESTPath + "/message:send", RESTPath + "/message:stream", RESTPath + "/tasks/x:cancel",
		RESTPath + "/tasks/x/pushNotificationConfigs", RESTPath + "/tasks/%2F%3A:subscribe"}
	for _, p := range paths {
		for _, b := range bodies {
			status, _, body := rawHTTP(t, http.MethodPost, n.srv.URL+p, "application/json", b, nil)
			if status >= 500 {
				t.Fatalf("POST %s %q: HTTP %d %s", p, b, status, body)
			}
		}
	}
}
