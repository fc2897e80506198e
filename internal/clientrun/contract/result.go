// Package contract holds the words of the client-driver contract
// (docs/client-driver.md) that a driver and the harness share: the actions,
// the error classes and the result line. It imports nothing of the scripted
// agent, so that a driver links without it.
package contract

import (
	"bytes"
	"encoding/json"
	"strings"
)

// Actions of the contract (docs/client-driver.md). A driver branches on
// A2A_CONFORM_ACTION only.
const (
	ActionSend      = "send"
	ActionStream    = "stream"
	ActionPoll      = "poll"
	ActionCancel    = "cancel"
	ActionFollowUp  = "follow-up"
	ActionSubscribe = "subscribe"
	ActionPush      = "push"
	ActionResolve   = "resolve"
	// ActionPushCancel is push, then a cancel once a push says WORKING, and
	// the pushes that follow (contract v1, added with CLI-038).
	ActionPushCancel = "push-cancel"
	// ActionList is send, then ListTasks filtered by the task's context and
	// its final state (contract v1, added with CLI-011).
	ActionList = "list"
	// ActionPushDefault is two new tasks, one sent and one streamed, by a
	// client given a default push config (contract v1, added with CLI-012).
	ActionPushDefault = "push-default"
	// ActionExtendedCard is stream, then the extended card fetched and
	// verified, then stream again (contract v1, added with CLI-013).
	ActionExtendedCard = "extended-card"
)

// Actions lists every action of the contract.
var Actions = []string{ActionSend, ActionStream, ActionPoll, ActionCancel, ActionFollowUp, ActionSubscribe, ActionPush, ActionResolve, ActionPushCancel, ActionList, ActionPushDefault, ActionExtendedCard}

// Error classes a driver reports in Result.Error.Class.
const (
	ClassTaskNotFound         = "task-not-found"
	ClassUnsupportedOperation = "unsupported-operation"
	ClassInvalidParams        = "invalid-params"
	ClassProtocol             = "protocol"
	ClassTransport            = "transport"
	ClassAuth                 = "auth"
	ClassParse                = "parse"
	ClassTimeout              = "timeout"
	ClassOther                = "other"
)

// Result is the one JSON line a driver prints: what its client concluded.
// Unknown members are ignored.
type Result struct {
	Action            string           `json:"action"`
	TaskID            string           `json:"taskId"`
	ContextID         string           `json:"contextId"`
	State             string           `json:"state"`
	Error             *ResultError     `json:"error,omitempty"`
	Events            []Event          `json:"events"`
	ResubmittedTaskID string           `json:"resubmittedTaskId,omitempty"`
	Interface         *ChosenInterface `json:"interface,omitempty"`
	Warnings          []string         `json:"warnings,omitempty"`
	// Supplied says who supplied the pieces SDKs leave to the application,
	// when the driver says so: "push-receiver" and "client-state", each
	// "driver" (its own code, the default), "kit" (the harness's driver
	// kit) or "sdk" (docs/client-driver.md).
	Supplied map[string]string `json:"supplied,omitempty"`
}

// ResultError is the error the client raised.
type ResultError struct {
	Class   string `json:"class"`
	Message string `json:"message"`
}

// Event is one thing the client saw.
type Event struct {
	Via    string `json:"via"`  // response, stream, poll, push, card
	Kind   string `json:"kind"` // task, status, artifact, message, card
	TaskID string `json:"taskId,omitempty"`
	State  string `json:"state,omitempty"`
	Final  bool   `json:"final,omitempty"`
}

// ChosenInterface is the interface the client chose.
type ChosenInterface struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocolBinding"`
}

// ErrorClass is the reported error class, "" when the client raised none.
func (r *Result) ErrorClass() string {
	if r == nil || r.Error == nil {
		return ""
	}
	return r.Error.Class
}

// EventsVia returns the events seen through one channel ("" for all).
func (r *Result) EventsVia(via string) []Event {
	var out []Event
	for _, e := range r.Events {
		if via == "" || e.Via == via {
			out = append(out, e)
		}
	}
	return out
}

// ParseResult finds the last line of out that parses as a JSON object and
// decodes it as a Result. It returns nil when no line does.
func ParseResult(out []byte) (*Result, string) {
	lines := bytes.Split(out, []byte("\n"))
	for i := len(lines) - 1; i >= 0; i-- {
		l := bytes.TrimSpace(lines[i])
		if len(l) == 0 || l[0] != '{' {
			continue
		}
		var probe map[string]json.RawMessage
		if json.Unmarshal(l, &probe) != nil {
			continue
		}
		var r Result
		if err := json.Unmarshal(l, &r); err != nil {
			// A JSON object, but not of the contract's shape (e.g. a
			// "state" that is a number): still the result line, unusable.
			return nil, strings.TrimSpace(string(l))
		}
		return &r, string(l)
	}
	return nil, ""
}

// Terminal reports whether a TASK_STATE_… name is terminal.
func Terminal(state string) bool {
	switch state {
	case "TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED", "TASK_STATE_REJECTED":
		return true
	}
	return false
}
