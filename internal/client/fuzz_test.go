package client

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// FuzzDecodeJSONRPCResponse feeds arbitrary bytes to the JSON-RPC envelope
// decoder and the classification built on it: no panic, and every accepted
// envelope honours JSON-RPC 2.0's exactly-one-of result and error.
func FuzzDecodeJSONRPCResponse(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t","status":{"state":"TASK_STATE_WORKING"}}}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"x","data":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TASK_NOT_FOUND","domain":"a2a-protocol.org"}]}}`,
		`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`,
		`{"jsonrpc":"2.0","id":"1","result":null}`,
		`{"jsonrpc":"2.0","id":1}`,
		`{"jsonrpc":"1.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1.0,"result":{},"error":{}}`,
		`{"jsonrpc":"2.0","id":1,"error":{"code":1e99,"message":"x","data":{"v03":true}}}`,
		`[]`, `null`, ``, `{"jsonrpc":"2.0","id":1,"error":{"code":"-32001","message":1}}`,
	} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, body []byte, allowNoResult bool) {
		out, err := decodeJSONRPCResponse(body, json.RawMessage(`1`), allowNoResult)
		if err != nil {
			return
		}
		if out.rpcErr != nil && out.hasResult {
			t.Fatal("accepted both result and error")
		}
		if out.rpcErr == nil && !out.hasResult && !allowNoResult {
			t.Fatal("accepted neither result nor error")
		}
		if out.rpcErr != nil {
			e := a2aError(a2a.BindingJSONRPC, "GetTask", 200, false, *out.rpcErr, body)
			_ = e.Error()
		}
		// The full unary path must not panic either.
		c := &Client{iface: a2a.AgentInterface{ProtocolBinding: a2a.BindingJSONRPC}, maxBody: DefaultMaxBody}
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}}
		if res, err := c.unaryResult("GetTask", resp, body, json.RawMessage(`1`), allowNoResult); err == nil && res != nil {
			var task a2a.Task
			_ = c.decodeInto("GetTask", 200, res, body, &task)
		} else if err != nil {
			_ = err.Error()
		}
	})
}

// FuzzDecodeCard feeds arbitrary bytes to card decoding and to what the
// harness does next with a card (choose an interface, re-encode it).
func FuzzDecodeCard(f *testing.F) {
	for _, s := range []string{
		cardJSON,
		`{"name":"x","supportedInterfaces":[{"url":"grpc.invalid:1","protocolBinding":"GRPC"},{"url":"http://a.invalid/","protocolBinding":"HTTP+JSON","tenant":"t"}]}`,
		`{"name":"x","url":"http://a.invalid","preferredTransport":"JSONRPC","protocolVersion":"0.3.0","security":[{"x":[]}]}`,
		`{"securitySchemes":{"k":{"apiKeySecurityScheme":{"location":"header","name":"X"}}},"securityRequirements":[{"schemes":{"k":["a"]}}]}`,
		`{"supported_interfaces":[{"url":"http://[::1]:1/","protocol_binding":"JSONRPC"}]}`,
		`{"capabilities":{"streaming":"yes"}}`,
		"\xEF\xBB\xBF{}", `{} {}`, `[]`, `null`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		card, err := DecodeCard(raw)
		if err != nil {
			if card != nil {
				t.Fatal("card returned with an error")
			}
			return
		}
		_ = card.V03Leftovers()
		if c, err := FromCard(card); err == nil {
			if !Speaks(c.Binding()) {
				t.Fatalf("picked unsupported binding %q", c.Binding())
			}
			if !c.grpc {
				_ = c.restURL("/tasks/x", nil)
			}
		}
		b, err := json.Marshal(card)
		if err != nil {
			t.Fatalf("a decoded card does not re-encode: %v", err)
		}
		if _, err := DecodeCard(b); err != nil {
			t.Fatalf("re-encoded card does not decode: %v\n%s", err, b)
		}
	})
}
