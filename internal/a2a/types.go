// Package a2a holds the A2A v1.0 wire model: every object the harness reads or
// writes, ProtoJSON-faithful when written (camelCase names, enum names, oneofs by
// member key, defaults omitted) and lenient when read (snake_case accepted, enum
// numbers accepted, unknown and v0.3 members kept in Extra and never a reason to
// fail). Field sets follow specification/a2a.proto at a2aproject/A2A v1.0.1
// (3303592588e388e62e0f69f701af531d2f4e3991); the proto did not change on the
// wire between v1.0.0 and main.
package a2a

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// Struct is a google.protobuf.Struct: any JSON object.
type Struct = map[string]any

// Bytes is a proto bytes field. ProtoJSON writes standard base64; readers must
// also accept the URL-safe alphabet and missing padding.
type Bytes []byte

func (b Bytes) MarshalJSON() ([]byte, error) {
	return json.Marshal(base64.StdEncoding.EncodeToString(b))
}

func (b *Bytes) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return fmt.Errorf("bytes must be a base64 string, got %s", describeJSON(data))
	}
	s = strings.TrimRight(s, "=")
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		if out, err := enc.DecodeString(s); err == nil {
			*b = out
			return nil
		}
	}
	return fmt.Errorf("bytes field is not valid base64")
}

// Part is one piece of content: exactly one of Text, Raw, URL or Data is set
// (oneof content). Pointers keep "set to the empty value" apart from "absent".
type Part struct {
	Text      *string         `json:"text,omitempty"`
	Raw       Bytes           `json:"raw,omitempty"`
	URL       *string         `json:"url,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"`
	Metadata  Struct          `json:"metadata,omitempty"`
	Filename  string          `json:"filename,omitempty"`
	MediaType string          `json:"mediaType,omitempty"`
	Extra     Extras          `json:"-"`
}

// ContentKeys lists which oneof members are set; a valid Part has exactly one.
func (p Part) ContentKeys() []string {
	var keys []string
	if p.Text != nil {
		keys = append(keys, "text")
	}
	if p.Raw != nil {
		keys = append(keys, "raw")
	}
	if p.URL != nil {
		keys = append(keys, "url")
	}
	if p.Data != nil {
		keys = append(keys, "data")
	}
	return keys
}

// TextPart builds a text part.
func TextPart(s string) Part { return Part{Text: &s} }

// DataPart builds a data part holding v marshalled as JSON.
func DataPart(v any) (Part, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return Part{}, err
	}
	return Part{Data: b, MediaType: "application/json"}, nil
}

// Message is one unit of communication (a2a.proto Message).
type Message struct {
	MessageID        string   `json:"messageId"`
	ContextID        string   `json:"contextId,omitempty"`
	TaskID           string   `json:"taskId,omitempty"`
	Role             Role     `json:"role"`
	Parts            []Part   `json:"parts"`
	Metadata         Struct   `json:"metadata,omitempty"`
	Extensions       []string `json:"extensions,omitempty"`
	ReferenceTaskIDs []string `json:"referenceTaskIds,omitempty"`
	Extra            Extras   `json:"-"`
}

// TaskStatus is a task's state with an optional message and timestamp. The
// timestamp stays a string so that its format (UTC, "Z" suffix) can be checked.
type TaskStatus struct {
	State     TaskState `json:"state"`
	Message   *Message  `json:"message,omitempty"`
	Timestamp string    `json:"timestamp,omitempty"`
	Extra     Extras    `json:"-"`
}

// Artifact is a task output.
type Artifact struct {
	ArtifactID  string   `json:"artifactId"`
	Name        string   `json:"name,omitempty"`
	Description string   `json:"description,omitempty"`
	Parts       []Part   `json:"parts"`
	Metadata    Struct   `json:"metadata,omitempty"`
	Extensions  []string `json:"extensions,omitempty"`
	Extra       Extras   `json:"-"`
}

// Task is the unit of work. On read, Artifacts is nil when the member was absent
// and non-nil (possibly empty) when present, which ListTasks checks rely on.
type Task struct {
	ID        string     `json:"id"`
	ContextID string     `json:"contextId,omitempty"`
	Status    TaskStatus `json:"status"`
	Artifacts []Artifact `json:"artifacts,omitempty"`
	History   []Message  `json:"history,omitempty"`
	Metadata  Struct     `json:"metadata,omitempty"`
	Extra     Extras     `json:"-"`
}

// TaskStatusUpdateEvent reports a status change. v1.0 has no "final" member:
// the end of a stream is signalled by its closing.
type TaskStatusUpdateEvent struct {
	TaskID    string     `json:"taskId"`
	ContextID string     `json:"contextId"`
	Status    TaskStatus `json:"status"`
	Metadata  Struct     `json:"metadata,omitempty"`
	Extra     Extras     `json:"-"`
}

// TaskArtifactUpdateEvent carries a new artifact or a chunk of one.
type TaskArtifactUpdateEvent struct {
	TaskID    string   `json:"taskId"`
	ContextID string   `json:"contextId"`
	Artifact  Artifact `json:"artifact"`
	Append    bool     `json:"append,omitempty"`
	LastChunk bool     `json:"lastChunk,omitempty"`
	Metadata  Struct   `json:"metadata,omitempty"`
	Extra     Extras   `json:"-"`
}

// StreamResponse is one streamed event or webhook body: exactly one member set.
type StreamResponse struct {
	Task           *Task                    `json:"task,omitempty"`
	Message        *Message                 `json:"message,omitempty"`
	StatusUpdate   *TaskStatusUpdateEvent   `json:"statusUpdate,omitempty"`
	ArtifactUpdate *TaskArtifactUpdateEvent `json:"artifactUpdate,omitempty"`
	Extra          Extras                   `json:"-"`
}

// Members lists which oneof members are set; a valid StreamResponse has one.
func (s StreamResponse) Members() []string {
	var m []string
	if s.Task != nil {
		m = append(m, "task")
	}
	if s.Message != nil {
		m = append(m, "message")
	}
	if s.StatusUpdate != nil {
		m = append(m, "statusUpdate")
	}
	if s.ArtifactUpdate != nil {
		m = append(m, "artifactUpdate")
	}
	return m
}

// TaskID returns the task the event is about, or "" for a bare message without one.
func (s StreamResponse) TaskID() string {
	switch {
	case s.Task != nil:
		return s.Task.ID
	case s.StatusUpdate != nil:
		return s.StatusUpdate.TaskID
	case s.ArtifactUpdate != nil:
		return s.ArtifactUpdate.TaskID
	case s.Message != nil:
		return s.Message.TaskID
	}
	return ""
}

// ContextID returns the context the event is about, or "".
func (s StreamResponse) ContextID() string {
	switch {
	case s.Task != nil:
		return s.Task.ContextID
	case s.StatusUpdate != nil:
		return s.StatusUpdate.ContextID
	case s.ArtifactUpdate != nil:
		return s.ArtifactUpdate.ContextID
	case s.Message != nil:
		return s.Message.ContextID
	}
	return ""
}

// State returns the task state the event reports, if it reports one.
func (s StreamResponse) State() (TaskState, bool) {
	switch {
	case s.Task != nil:
		return s.Task.Status.State, true
	case s.StatusUpdate != nil:
		return s.StatusUpdate.Status.State, true
	}
	return "", false
}

// SendMessageResponse is the result of SendMessage: a Task or a Message.
type SendMessageResponse struct {
	Task    *Task    `json:"task,omitempty"`
	Message *Message `json:"message,omitempty"`
	Extra   Extras   `json:"-"`
}

// AuthenticationInfo says how an agent authenticates its webhook calls.
type AuthenticationInfo struct {
	Scheme      string `json:"scheme"`
	Credentials string `json:"credentials,omitempty"`
	Extra       Extras `json:"-"`
}

// TaskPushNotificationConfig is the flat v1.0 push configuration.
type TaskPushNotificationConfig struct {
	Tenant         string              `json:"tenant,omitempty"`
	ID             string              `json:"id,omitempty"`
	TaskID         string              `json:"taskId,omitempty"`
	URL            string              `json:"url"`
	Token          string              `json:"token,omitempty"`
	Authentication *AuthenticationInfo `json:"authentication,omitempty"`
	Extra          Extras              `json:"-"`
}

// SendMessageConfiguration tunes one SendMessage call.
type SendMessageConfiguration struct {
	AcceptedOutputModes        []string                    `json:"acceptedOutputModes,omitempty"`
	TaskPushNotificationConfig *TaskPushNotificationConfig `json:"taskPushNotificationConfig,omitempty"`
	HistoryLength              *int32                      `json:"historyLength,omitempty"`
	ReturnImmediately          bool                        `json:"returnImmediately,omitempty"`
	Extra                      Extras                      `json:"-"`
}

// SendMessageRequest is the params of SendMessage and SendStreamingMessage.
type SendMessageRequest struct {
	Tenant        string                    `json:"tenant,omitempty"`
	Message       *Message                  `json:"message,omitempty"`
	Configuration *SendMessageConfiguration `json:"configuration,omitempty"`
	Metadata      Struct                    `json:"metadata,omitempty"`
	Extra         Extras                    `json:"-"`
}

// GetTaskRequest is the params of GetTask.
type GetTaskRequest struct {
	Tenant        string `json:"tenant,omitempty"`
	ID            string `json:"id"`
	HistoryLength *int32 `json:"historyLength,omitempty"`
	Extra         Extras `json:"-"`
}

// ListTasksRequest is the params of ListTasks.
type ListTasksRequest struct {
	Tenant               string    `json:"tenant,omitempty"`
	ContextID            string    `json:"contextId,omitempty"`
	Status               TaskState `json:"status,omitempty"`
	PageSize             *int32    `json:"pageSize,omitempty"`
	PageToken            string    `json:"pageToken,omitempty"`
	HistoryLength        *int32    `json:"historyLength,omitempty"`
	StatusTimestampAfter string    `json:"statusTimestampAfter,omitempty"`
	IncludeArtifacts     *bool     `json:"includeArtifacts,omitempty"`
	Extra                Extras    `json:"-"`
}

// ListTasksResponse is the result of ListTasks. NextPageToken is a pointer
// because the spec requires the member to be present even when empty.
type ListTasksResponse struct {
	Tasks         []Task  `json:"tasks"`
	NextPageToken *string `json:"nextPageToken"`
	PageSize      int32   `json:"pageSize"`
	TotalSize     int32   `json:"totalSize"`
	Extra         Extras  `json:"-"`
}

// CancelTaskRequest is the params of CancelTask.
type CancelTaskRequest struct {
	Tenant   string `json:"tenant,omitempty"`
	ID       string `json:"id"`
	Metadata Struct `json:"metadata,omitempty"`
	Extra    Extras `json:"-"`
}

// SubscribeToTaskRequest is the params of SubscribeToTask.
type SubscribeToTaskRequest struct {
	Tenant string `json:"tenant,omitempty"`
	ID     string `json:"id"`
	Extra  Extras `json:"-"`
}

// TaskPushNotificationConfigRef names one push config: the params of Get and
// Delete TaskPushNotificationConfig.
type TaskPushNotificationConfigRef struct {
	Tenant string `json:"tenant,omitempty"`
	TaskID string `json:"taskId"`
	ID     string `json:"id"`
	Extra  Extras `json:"-"`
}

// ListTaskPushNotificationConfigsRequest is the params of ListTaskPushNotificationConfigs.
type ListTaskPushNotificationConfigsRequest struct {
	Tenant    string `json:"tenant,omitempty"`
	TaskID    string `json:"taskId"`
	PageSize  int32  `json:"pageSize,omitempty"`
	PageToken string `json:"pageToken,omitempty"`
	Extra     Extras `json:"-"`
}

// ListTaskPushNotificationConfigsResponse is its result.
type ListTaskPushNotificationConfigsResponse struct {
	Configs       []TaskPushNotificationConfig `json:"configs,omitempty"`
	NextPageToken string                       `json:"nextPageToken,omitempty"`
	Extra         Extras                       `json:"-"`
}

// GetExtendedAgentCardRequest is the params of GetExtendedAgentCard.
type GetExtendedAgentCardRequest struct {
	Tenant string `json:"tenant,omitempty"`
	Extra  Extras `json:"-"`
}

// HasMessage reports whether the task's history holds the message id.
func (t *Task) HasMessage(id string) bool {
	for _, m := range t.History {
		if m.MessageID == id {
			return true
		}
	}
	return false
}
