package fakes

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// JSONRPCContentType is the Content-Type of JSON-RPC requests and responses
// (spec §9.2; unchanged by v1.0.1).
const JSONRPCContentType = "application/json"

// readBody reads a request body under the size limit and checks its media
// type: application/json, application/a2a+json (or any +json), or none at
// all (lenient: curl -d sends a form type, which is refused, but a client
// that sends no type gets the benefit of the doubt).
func (a *Agent) readBody(w http.ResponseWriter, r *http.Request) ([]byte, *opError) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || !(mt == "application/json" || mt == "application/a2a+json" || strings.HasSuffix(mt, "+json")) {
			return nil, errInvalidRequest("Content-Type %q is not accepted: send application/json or application/a2a+json",
				truncate(ct, 100)).withHTTP(http.StatusUnsupportedMediaType)
		}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, a.opts.MaxBodyBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, errInvalidRequest("request body larger than %d bytes", a.opts.MaxBodyBytes).withHTTP(http.StatusRequestEntityTooLarge)
		}
		return nil, errInvalidRequest("reading the request body: %v", err)
	}
	return body, nil
}

// decodeParams decodes a JSON object into one of the a2a request types.
// Absent or null params decode as an empty object; any other non-object is
// InvalidParams, as are members of the wrong type.
func decodeParams(raw json.RawMessage, into any) *opError {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		raw = []byte("{}")
	}
	if !json.Valid(raw) {
		return errParse("the body is not valid JSON")
	}
	if raw[0] != '{' {
		return errInvalidParams("params", "params must be a JSON object")
	}
	if err := json.Unmarshal(raw, into); err != nil {
		return errInvalidParams("params", "invalid params: %s", truncate(err.Error(), 300))
	}
	return nil
}

func (a *Agent) serveJSONRPC(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST")
		a.writeRPC(w, http.StatusMethodNotAllowed, nil, nil,
			errInvalidRequest("JSON-RPC requests are POSTed").withHTTP(http.StatusMethodNotAllowed))
		return
	}
	body, oe := a.readBody(w, r)
	if oe != nil {
		a.writeRPC(w, oe.httpStatusForRPC(), nil, nil, oe)
		return
	}
	if !json.Valid(body) {
		a.writeRPC(w, http.StatusOK, nil, nil, errParse("the body is not valid JSON"))
		return
	}
	trimmed := bytes.TrimSpace(body)
	if trimmed[0] != '{' {
		msg := "a JSON-RPC request must be a JSON object"
		if trimmed[0] == '[' {
			msg = "JSON-RPC batches are not supported"
		}
		a.writeRPC(w, http.StatusOK, nil, nil, errInvalidRequest("%s", msg))
		return
	}
	var env map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &env); err != nil {
		a.writeRPC(w, http.StatusOK, nil, nil, errParse(err.Error()))
		return
	}
	id, idOK := rpcID(env["id"])
	if !idOK {
		a.writeRPC(w, http.StatusOK, nil, nil, errInvalidRequest("id must be a string or a number (notifications are not supported: every A2A method has a result)"))
		return
	}
	var version, method string
	if json.Unmarshal(env["jsonrpc"], &version) != nil || version != "2.0" {
		a.writeRPC(w, http.StatusOK, id, nil, errInvalidRequest(`jsonrpc must be "2.0"`))
		return
	}
	if json.Unmarshal(env["method"], &method) != nil || method == "" {
		a.writeRPC(w, http.StatusOK, id, nil, errInvalidRequest("method must be a non-empty string"))
		return
	}
	if oe := a.checkServiceParams(r); oe != nil {
		a.writeRPC(w, http.StatusOK, id, nil, oe)
		return
	}
	result, stream, oe := a.invoke(r, method, env["params"])
	if oe != nil {
		a.writeRPC(w, oe.httpStatusForRPC(), id, nil, oe)
		return
	}
	if stream != nil {
		out := startSSE(w)
		prefix := append(append([]byte(`{"jsonrpc":"2.0","id":`), id...), []byte(`,"result":`)...)
		a.pump(r.Context(), stream, out, func(b []byte) []byte {
			framed := make([]byte, 0, len(prefix)+len(b)+1)
			return append(append(append(framed, prefix...), b...), '}')
		})
		return
	}
	a.writeRPC(w, http.StatusOK, id, a.rewrite(result), nil)
}

// rpcID validates the request id: a string or a number (JSON-RPC 2.0 §4).
// Absent, null, and other types are refused; the error response then carries
// id null.
func rpcID(raw json.RawMessage) (json.RawMessage, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, false
	}
	switch raw[0] {
	case '"':
		var s string
		return raw, json.Unmarshal(raw, &s) == nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		var n json.Number
		return raw, json.Unmarshal(raw, &n) == nil
	}
	return nil, false
}

// writeRPC writes one JSON-RPC response; id nil renders as null.
func (a *Agent) writeRPC(w http.ResponseWriter, status int, id json.RawMessage, result []byte, oe *opError) {
	if id == nil {
		id = json.RawMessage("null")
	}
	resp := a2a.JSONRPCResponse{JSONRPC: "2.0", ID: id}
	if oe != nil {
		resp.Error = oe.jsonrpcError()
		if a.faults.has(faultJSONRPCErrorDataObject) {
			resp.Error.Data = v03ErrorData(oe)
		}
	} else {
		resp.Result = result
	}
	b, _ := json.Marshal(resp)
	if oe != nil && oe.httpStatus == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", retryAfterSeconds)
	}
	challenge(w, oe)
	writeJSON(w, status, JSONRPCContentType, b)
}

// invoke runs one A2A operation named by its method (JSON-RPC method and
// gRPC rpc names are the same, §9.1) with ProtoJSON params, for either
// binding: a result document, a stream to pump, or an error. r carries the
// request's headers (on gRPC, a view of its metadata: grpc.go).
func (a *Agent) invoke(r *http.Request, method string, params json.RawMessage) (result []byte, stream *eventStream, oe *opError) {
	ctx := r.Context()
	switch method {
	case a2a.MethodSendMessage, a2a.MethodSendStreamingMessage:
		var req a2a.SendMessageRequest
		if oe = decodeParams(params, &req); oe == nil {
			result, stream, oe = a.sendOrStream(ctx, &req, method == a2a.MethodSendStreamingMessage)
		}
	case a2a.MethodGetTask:
		var req a2a.GetTaskRequest
		if oe = decodeParams(params, &req); oe == nil {
			result, oe = a.getTask(ctx, &req)
		}
	case a2a.MethodListTasks:
		var req a2a.ListTasksRequest
		if oe = decodeParams(params, &req); oe == nil {
			result, oe = a.listTasks(ctx, &req)
		}
	case a2a.MethodCancelTask:
		var req a2a.CancelTaskRequest
		if oe = decodeParams(params, &req); oe == nil {
			result, oe = a.cancel(ctx, &req)
		}
	case a2a.MethodSubscribeToTask:
		var req a2a.SubscribeToTaskRequest
		if oe = decodeParams(params, &req); oe == nil {
			stream, oe = a.subscribe(ctx, &req)
		}
	case a2a.MethodCreateTaskPushNotificationConfig:
		var req a2a.TaskPushNotificationConfig
		if oe = a.createGate(); oe == nil {
			if oe = decodeParams(params, &req); oe == nil {
				result, oe = a.createConfig(ctx, &req)
			}
		}
	case a2a.MethodGetTaskPushNotificationConfig:
		var req a2a.TaskPushNotificationConfigRef
		if oe = a.pushGate(); oe == nil {
			if oe = decodeParams(params, &req); oe == nil {
				result, oe = a.getConfigOp(ctx, &req)
			}
		}
	case a2a.MethodListTaskPushNotificationConfigs:
		var req a2a.ListTaskPushNotificationConfigsRequest
		if oe = a.pushGate(); oe == nil {
			if oe = decodeParams(params, &req); oe == nil {
				result, oe = a.listConfigsOp(ctx, &req)
			}
		}
	case a2a.MethodDeleteTaskPushNotificationConfig:
		var req a2a.TaskPushNotificationConfigRef
		if oe = a.pushGate(); oe == nil {
			if oe = decodeParams(params, &req); oe == nil {
				if oe = a.deleteConfigOp(ctx, &req); oe == nil {
					// google.protobuf.Empty in ProtoJSON.
					result = []byte("{}")
				}
			}
		}
	case a2a.MethodGetExtendedAgentCard:
		var req a2a.GetExtendedAgentCardRequest
		if oe = decodeParams(params, &req); oe == nil {
			result, oe = a.extendedCardOp(r)
		}
	default:
		oe = errMethodNotFound(truncate(method, 100))
	}
	return result, stream, oe
}
