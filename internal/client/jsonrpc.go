package client

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
)

// rpcOutcome is a validated JSON-RPC 2.0 response: either a result (possibly
// absent, for the one operation that allows it) or an error.
type rpcOutcome struct {
	id        json.RawMessage
	result    json.RawMessage
	hasResult bool
	rpcErr    *errorFields
}

// decodeJSONRPCResponse checks one response object against JSON-RPC 2.0 §5:
// an object, "jsonrpc" exactly "2.0", an "id" equal to wantID (null allowed
// only with an error, for requests the server could not read), and exactly one
// of "result" and "error", where error has an integer code and a string
// message. allowNoResult admits neither member, which a2a-go sends for
// DeleteTaskPushNotificationConfig (A2A v1.0 §9). wantID nil skips the id
// comparison. Any violation is returned as an error describing it; the caller
// makes it a Protocol error with the body.
func decodeJSONRPCResponse(body []byte, wantID json.RawMessage, allowNoResult bool) (rpcOutcome, error) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return rpcOutcome{}, fmt.Errorf("empty body where a JSON-RPC response was expected")
	}
	if trimmed[0] != '{' {
		return rpcOutcome{}, fmt.Errorf("JSON-RPC response is not a JSON object")
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &m); err != nil {
		return rpcOutcome{}, fmt.Errorf("JSON-RPC response is not valid JSON: %v", err)
	}
	ver, ok := m["jsonrpc"]
	if !ok {
		return rpcOutcome{}, fmt.Errorf(`JSON-RPC response has no "jsonrpc" member`)
	}
	var v string
	if json.Unmarshal(ver, &v) != nil || v != "2.0" {
		return rpcOutcome{}, fmt.Errorf(`"jsonrpc" is %s, want "2.0"`, snippet(ver))
	}
	out := rpcOutcome{}
	id, ok := m["id"]
	if !ok {
		return out, fmt.Errorf(`JSON-RPC response has no "id" member`)
	}
	out.id = id
	res, hasRes := m["result"]
	errRaw, hasErr := m["error"]
	switch {
	case hasRes && hasErr:
		return out, fmt.Errorf(`JSON-RPC response has both "result" and "error"`)
	case !hasRes && !hasErr && !allowNoResult:
		return out, fmt.Errorf(`JSON-RPC response has neither "result" nor "error"`)
	}
	idNull := bytes.Equal(bytes.TrimSpace(id), []byte("null"))
	if hasErr {
		f, err := parseErrorObject(errRaw)
		if err != nil {
			return out, err
		}
		if !f.hasCode {
			return out, fmt.Errorf(`JSON-RPC error has no "code"`)
		}
		var em map[string]json.RawMessage
		_ = json.Unmarshal(errRaw, &em)
		if _, ok := em["message"]; !ok {
			return out, fmt.Errorf(`JSON-RPC error has no "message"`)
		}
		out.rpcErr = &f
		if wantID != nil && !idNull && !sameID(id, wantID) {
			return out, fmt.Errorf("JSON-RPC error id %s does not match request id %s", snippet(id), snippet(wantID))
		}
		return out, nil
	}
	if wantID != nil && !sameID(id, wantID) {
		return out, fmt.Errorf("JSON-RPC response id %s does not match request id %s", snippet(id), snippet(wantID))
	}
	out.result, out.hasResult = res, hasRes
	return out, nil
}

// sameID compares two JSON-RPC ids by value: strings by content, numbers
// numerically, anything else (or a string against a number) as different.
func sameID(a, b json.RawMessage) bool {
	var x, y any
	da := json.NewDecoder(bytes.NewReader(a))
	da.UseNumber()
	db := json.NewDecoder(bytes.NewReader(b))
	db.UseNumber()
	if da.Decode(&x) != nil || db.Decode(&y) != nil {
		return false
	}
	switch xv := x.(type) {
	case string:
		yv, ok := y.(string)
		return ok && xv == yv
	case json.Number:
		yv, ok := y.(json.Number)
		if !ok {
			return false
		}
		if xv == yv {
			return true
		}
		fx, err1 := strconv.ParseFloat(string(xv), 64)
		fy, err2 := strconv.ParseFloat(string(yv), 64)
		return err1 == nil && err2 == nil && fx == fy
	}
	return false
}

// snippet renders at most 64 bytes of agent-supplied JSON for a message.
func snippet(b []byte) string {
	b = bytes.TrimSpace(b)
	if len(b) > 64 {
		return fmt.Sprintf("%q…", b[:64])
	}
	return fmt.Sprintf("%q", b)
}
