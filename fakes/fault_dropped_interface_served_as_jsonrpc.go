package fakes

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// faultDroppedInterfaceServedAsJSONRPC: a build that dropped the previous
// build's second HTTP+JSON interface (PreviousBuildRESTPath) kept a
// "compatibility" route on its path that hands every request to the JSON-RPC
// handler: a client acting on the stale card's HTTP+JSON interface is
// accepted and answered HTTP 200 with a JSON-RPC envelope (a task inside),
// not refused and not served as the binding that card declared (scenario 3).
var faultDroppedInterfaceServedAsJSONRPC = register(FaultInfo{
	Name:        "dropped-interface-served-as-jsonrpc",
	Scenario:    scenarioStaleCDN,
	Description: "A later build that dropped the previous build's second HTTP+JSON interface still answers on its path, through a shim that wraps each request into a JSON-RPC call: a client acting on the stale card's interface gets HTTP 200 with a JSON-RPC envelope (the task created) instead of a refusal or an HTTP+JSON answer.",
	Specs:       []string{"ROLL-007"},
})

// previousRESTAsJSONRPC wraps an HTTP+JSON request on the dropped path into
// the JSON-RPC call of its route (SendMessage for anything it cannot match)
// and serves that.
func (a *Agent) previousRESTAsJSONRPC(w http.ResponseWriter, r *http.Request) {
	method := a2a.MethodSendMessage
	if route, ok := matchREST(strings.TrimPrefix(stripGeneration(r.URL.EscapedPath()), PreviousBuildRESTPath)); ok {
		method = route.method
	}
	params, _ := io.ReadAll(io.LimitReader(r.Body, a.opts.MaxBodyBytes))
	if !json.Valid(params) {
		params = []byte("{}")
	}
	body, _ := json.Marshal(a2a.JSONRPCRequest{JSONRPC: "2.0", ID: json.RawMessage("1"), Method: method, Params: params})
	out := rerouted(r, JSONRPCPath)
	out.Method = http.MethodPost
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.ContentLength = int64(len(body))
	out.Header = r.Header.Clone()
	out.Header.Set("Content-Type", JSONRPCContentType)
	a.serveJSONRPCBinding(w, out)
}
