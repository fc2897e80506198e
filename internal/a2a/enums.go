package a2a

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// TaskState is the ProtoJSON name of a lf.a2a.v1.TaskState value. It is a string
// so that a value the proto does not define (a v0.3 "completed", a typo) survives
// decoding and can be reported; Valid says whether it is a v1.0 name.
type TaskState string

const (
	TaskStateUnspecified   TaskState = "TASK_STATE_UNSPECIFIED"
	TaskStateSubmitted     TaskState = "TASK_STATE_SUBMITTED"
	TaskStateWorking       TaskState = "TASK_STATE_WORKING"
	TaskStateCompleted     TaskState = "TASK_STATE_COMPLETED"
	TaskStateFailed        TaskState = "TASK_STATE_FAILED"
	TaskStateCanceled      TaskState = "TASK_STATE_CANCELED"
	TaskStateInputRequired TaskState = "TASK_STATE_INPUT_REQUIRED"
	TaskStateRejected      TaskState = "TASK_STATE_REJECTED"
	TaskStateAuthRequired  TaskState = "TASK_STATE_AUTH_REQUIRED"
)

// taskStateByNumber follows the enum numbering of a2a.proto (v1.0.0..main).
var taskStateByNumber = []TaskState{
	TaskStateUnspecified, TaskStateSubmitted, TaskStateWorking, TaskStateCompleted,
	TaskStateFailed, TaskStateCanceled, TaskStateInputRequired, TaskStateRejected,
	TaskStateAuthRequired,
}

// v03TaskStates maps the v0.3 spellings to their v1.0 names, so that a report can
// say "this is the v0.3 shape" rather than just "unknown value".
var v03TaskStates = map[string]TaskState{
	"submitted": TaskStateSubmitted, "working": TaskStateWorking, "completed": TaskStateCompleted,
	"failed": TaskStateFailed, "canceled": TaskStateCanceled, "cancelled": TaskStateCanceled,
	"input-required": TaskStateInputRequired, "rejected": TaskStateRejected,
	"auth-required": TaskStateAuthRequired, "unknown": TaskStateUnspecified,
	"TASK_STATE_CANCELLED": TaskStateCanceled,
}

// AllTaskStates lists the eight states a v1.0 task may be in (UNSPECIFIED excluded).
var AllTaskStates = taskStateByNumber[1:]

// Valid reports whether s is one of the eight v1.0 states a task may be in.
func (s TaskState) Valid() bool {
	for _, v := range AllTaskStates {
		if s == v {
			return true
		}
	}
	return false
}

// Terminal reports whether s is COMPLETED, FAILED, CANCELED or REJECTED (spec §4.1.3).
func (s TaskState) Terminal() bool {
	switch s {
	case TaskStateCompleted, TaskStateFailed, TaskStateCanceled, TaskStateRejected:
		return true
	}
	return false
}

// Interrupted reports whether s is INPUT_REQUIRED or AUTH_REQUIRED.
func (s TaskState) Interrupted() bool {
	return s == TaskStateInputRequired || s == TaskStateAuthRequired
}

// V03Equivalent returns the v1.0 state a v0.3 spelling stands for, if s is one.
func (s TaskState) V03Equivalent() (TaskState, bool) {
	v, ok := v03TaskStates[string(s)]
	return v, ok
}

// UnmarshalJSON accepts the enum name or, as ProtoJSON parsers may, its number.
func (s *TaskState) UnmarshalJSON(b []byte) error {
	name, err := enumName(b, len(taskStateByNumber), func(i int) string { return string(taskStateByNumber[i]) })
	*s = TaskState(name)
	return err
}

// Role is the ProtoJSON name of a lf.a2a.v1.Role value.
type Role string

const (
	RoleUnspecified Role = "ROLE_UNSPECIFIED"
	RoleUser        Role = "ROLE_USER"
	RoleAgent       Role = "ROLE_AGENT"
)

var roleByNumber = []Role{RoleUnspecified, RoleUser, RoleAgent}

// Valid reports whether r is ROLE_USER or ROLE_AGENT.
func (r Role) Valid() bool { return r == RoleUser || r == RoleAgent }

// UnmarshalJSON accepts the enum name or its number.
func (r *Role) UnmarshalJSON(b []byte) error {
	name, err := enumName(b, len(roleByNumber), func(i int) string { return string(roleByNumber[i]) })
	*r = Role(name)
	return err
}

func enumName(b []byte, n int, byNumber func(int) string) (string, error) {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		return s, nil
	}
	var num json.Number
	if err := json.Unmarshal(b, &num); err != nil {
		return "", fmt.Errorf("enum value must be a name or a number, got %s", describeJSON(b))
	}
	i, err := strconv.Atoi(num.String())
	if err != nil || i < 0 || i >= n {
		// Keep the number visible: an unknown enum number is reported, not fatal.
		return num.String(), nil
	}
	return byNumber(i), nil
}
