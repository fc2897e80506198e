package lifecycle

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/schemas"
	"github.com/a2a-conform/a2a-conform/suites"
)

// unsupportedVersion is an A2A-Version no agent speaks.
const unsupportedVersion = "99.0"

// errorCase is one failure LIFE-026 provokes on every binding.
type errorCase struct {
	name string
	want a2a.ErrorKind
	// needsFinished says the case acts on a task that has finished.
	needsFinished bool
	// provoke returns what the agent answered: nil for a success.
	provoke func(c *client.Client, done *a2a.Task) error
}

// errorInfoIn finds the google.rpc.ErrorInfo of an error body: among
// error.data (JSON-RPC) or error.details (HTTP+JSON).
func errorInfoIn(body []byte) (info a2a.ErrorInfo, found bool) {
	var doc struct {
		Error struct {
			Data    json.RawMessage `json:"data"`
			Details json.RawMessage `json:"details"`
		} `json:"error"`
		// A gRPC status, rendered as ProtoJSON google.rpc.Status.
		Details json.RawMessage `json:"details"`
	}
	if json.Unmarshal(body, &doc) != nil {
		return info, false
	}
	raw := doc.Error.Details
	if raw == nil {
		raw = doc.Error.Data
	}
	if raw == nil {
		raw = doc.Details
	}
	var arr []json.RawMessage
	if json.Unmarshal(raw, &arr) != nil {
		return info, false
	}
	return a2a.FindErrorInfo(arr)
}

// judgeError checks one binding's answer against the error table: the
// JSON-RPC code, or the HTTP status of either table revision; the ErrorInfo
// reason and domain (MUST on HTTP+JSON, SHOULD on JSON-RPC since v1.0.1, so
// its absence there is recorded, not failed); and the body's shape against
// the schema (error.data an array of @type objects, google.rpc.Status).
func judgeError(t *suites.T, c *client.Client, name string, want a2a.ErrorKind, err error) (a2a.ErrorKind, []invariants.Violation) {
	where := name + " (" + c.Binding() + ")"
	if err == nil {
		return "", []invariants.Violation{{Invariant: "error-mapping", Where: where, Expected: string(want), Actual: "success"}}
	}
	ce, ok := client.AsError(err)
	if !ok || ce.Class != client.A2A {
		return "", []invariants.Violation{{Invariant: "error-mapping", Where: where,
			Expected: string(want) + " in the binding's error body", Actual: suites.ErrText(err)}}
	}
	spec, _ := a2a.LookupError(want)
	var vs []invariants.Violation
	schema := schemas.HTTPErrorBody
	switch c.Binding() {
	case a2a.BindingGRPC:
		// The gRPC status code of the wanted error's row (§5.4), either
		// table revision; the status itself is a proto message, so there is
		// no JSON body shape to validate.
		schema = ""
		var tables []string
		for _, tb := range []a2a.ErrorTable{a2a.TableV101, a2a.TableV100} {
			if spec.GRPC[tb] == ce.Status {
				tables = append(tables, string(tb))
			}
		}
		if len(tables) == 0 {
			vs = append(vs, invariants.Violation{Invariant: "error-mapping", Where: where + " gRPC status",
				Expected: fmt.Sprintf("%s (table %s) or %s (table %s) for %s", spec.GRPC[a2a.TableV101], a2a.TableV101,
					spec.GRPC[a2a.TableV100], a2a.TableV100, want),
				Actual: "gRPC " + ce.Status})
		} else {
			t.Observe("grpc-status-table-"+string(want), strings.Join(tables, " and "))
		}
	case a2a.BindingJSONRPC:
		schema = schemas.JSONRPCResponse
		if ce.Code != spec.Code {
			vs = append(vs, invariants.Violation{Invariant: "error-mapping", Where: where + " error.code",
				Expected: fmt.Sprintf("%d (%s)", spec.Code, want), Actual: suites.ErrText(err)})
		}
	default:
		// Judged against the wanted error's row, whether or not the body
		// let the client recognise the error.
		var tables []string
		for _, tb := range []a2a.ErrorTable{a2a.TableV101, a2a.TableV100} {
			if spec.HTTP[tb] == ce.HTTPStatus {
				tables = append(tables, string(tb))
			}
		}
		if len(tables) == 0 {
			vs = append(vs, invariants.Violation{Invariant: "error-mapping", Where: where + " HTTP status",
				Expected: fmt.Sprintf("%d (table %s) or %d (table %s) for %s", spec.HTTP[a2a.TableV101], a2a.TableV101,
					spec.HTTP[a2a.TableV100], a2a.TableV100, want),
				Actual: fmt.Sprintf("HTTP %d", ce.HTTPStatus)})
		} else {
			t.Observe("status-table-"+string(want), strings.Join(tables, " and "))
		}
	}
	if schema != "" {
		shape, serr := schemas.Validate(schema, ce.Body)
		if serr != nil {
			t.Indeterminate("the harness could not validate an error body: %v", serr)
		}
		vs = append(vs, prefixed(where+" body", shape)...)
	}
	info, found := errorInfoIn(ce.Body)
	switch {
	case !found && c.Binding() == a2a.BindingJSONRPC:
		t.Observe("errorinfo-"+c.Binding(), "absent on "+name+" (SHOULD since v1.0.1)")
	case !found:
		vs = append(vs, invariants.Violation{Invariant: "error-mapping", Where: where + " error.details",
			Expected: fmt.Sprintf("a google.rpc.ErrorInfo with reason %s, domain %s (MUST, §11.6 on HTTP+JSON, §10.6 on gRPC)", spec.Reason, a2a.ErrorDomain),
			Actual:   "no ErrorInfo: " + suites.ErrText(err)})
	default:
		if info.Reason != spec.Reason {
			vs = append(vs, invariants.Violation{Invariant: "error-mapping", Where: where + " ErrorInfo.reason",
				Expected: spec.Reason, Actual: fmt.Sprintf("%q", info.Reason)})
		}
		if info.Domain != a2a.ErrorDomain {
			vs = append(vs, invariants.Violation{Invariant: "error-mapping", Where: where + " ErrorInfo.domain",
				Expected: a2a.ErrorDomain, Actual: fmt.Sprintf("%q", info.Domain)})
		}
	}
	if ce.Kind != want && len(vs) == 0 {
		vs = append(vs, invariants.Violation{Invariant: "error-mapping", Where: where, Expected: string(want), Actual: suites.ErrText(err)})
	}
	return ce.Kind, vs
}

// LIFE-026 (§5.4, §9.5, §11.6): every error the harness can provoke is the
// same A2A error on every binding, carried the way each binding prescribes.
var _ = suites.Spec("LIFE-026", func(ctx context.Context, t *suites.T) {
	card := t.Card()
	cases := []errorCase{
		{"GetTask of an unknown task", a2a.ErrTaskNotFound, false, func(c *client.Client, _ *a2a.Task) error {
			_, err := t.Get(ctx, c, suites.NewID("task-unknown"))
			return err
		}},
		{"CancelTask of a completed task", a2a.ErrTaskNotCancelable, true, func(c *client.Client, done *a2a.Task) error {
			_, err := t.Cancel(ctx, c, done.ID)
			return err
		}},
		{"SendMessage to a completed task", a2a.ErrUnsupportedOperation, true, func(c *client.Client, done *a2a.Task) error {
			msg := userText("a2a-conform: a message to a finished task")
			msg.TaskID = done.ID
			_, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg})
			return err
		}},
		{"ListTasks with A2A-Version " + unsupportedVersion, a2a.ErrVersionNotSupported, false, func(c *client.Client, _ *a2a.Task) error {
			rr := client.RawRequest{Method: a2a.MethodListTasks, Header: http.Header{client.HeaderVersion: {unsupportedVersion}}}
			if c.Binding() == a2a.BindingJSONRPC {
				params := map[string]any{}
				if tn := c.Interface().Tenant; tn != "" {
					params["tenant"] = tn
				}
				rr.Params = params
			}
			return callRaw(ctx, c, rr).Err
		}},
	}
	if card.PushNotifications() {
		t.Observe("push-not-supported", "not checked: the card advertises push notifications")
	} else {
		cases = append(cases, errorCase{"CreateTaskPushNotificationConfig while push is not advertised", a2a.ErrPushNotificationNotSupported, false,
			func(c *client.Client, done *a2a.Task) error {
				// A loopback discard address: nothing is ever meant to arrive.
				_, err := c.CreateTaskPushNotificationConfig(ctx, &a2a.TaskPushNotificationConfig{TaskID: done.ID, URL: "http://127.0.0.1:9/a2a-conform-unused"})
				return err
			}})
	}
	cs := t.Clients()
	// Each binding's finished task is its own: they are made together
	// (suites.T.Each).
	finished := make([]*a2a.Task, len(cs))
	t.Each(len(cs), func(i int) { finished[i] = finishedTask(ctx, t, cs[i]) })
	done := map[*client.Client]*a2a.Task{}
	// asked is a task that came to rest asking for input (an allowed answer
	// to a plain message): the cases that need a finished task are then
	// skipped, and the spec ends indeterminate after judging the rest.
	var asked *a2a.Task
	for i, c := range cs {
		done[c] = finished[i]
		if done[c].Status.State.Interrupted() && asked == nil {
			asked = done[c]
		}
	}
	var vs []invariants.Violation
	for _, ec := range cases {
		if asked != nil && ec.needsFinished {
			continue
		}
		kinds := map[string][]string{}
		for _, c := range cs {
			kind, got := judgeError(t, c, ec.name, ec.want, ec.provoke(c, done[c]))
			vs = append(vs, got...)
			label := string(kind)
			if label == "" {
				label = "an error no code or ErrorInfo names"
			}
			kinds[label] = append(kinds[label], c.Binding())
		}
		if len(kinds) > 1 {
			var parts []string
			for k, bs := range kinds {
				parts = append(parts, k+" on "+strings.Join(bs, ", "))
			}
			sort.Strings(parts)
			vs = append(vs, invariants.Violation{Invariant: "error-mapping", Where: ec.name + " (every binding)",
				Expected: "the same A2A error on every binding (§5.1)", Actual: strings.Join(parts, "; ")})
		}
	}
	t.Record(vs...)
	t.AskedForInput(asked, "the errors for a finished task (CancelTask: TaskNotCancelableError; SendMessage: UnsupportedOperationError) could not be provoked; the others were judged")
})
