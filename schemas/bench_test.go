package schemas

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// largeTask is a Task with 1,000 history messages and one artifact holding a
// 1 MiB raw part: the size of document a long-running agent returns from
// GetTask, and what the harness decodes and validates per observation.
func largeTask(tb testing.TB) []byte {
	tb.Helper()
	raw := make([]byte, 1<<20)
	for i := range raw {
		raw[i] = byte(i * 7)
	}
	task := a2a.Task{
		ID: "task-large", ContextID: "ctx-large",
		Status: a2a.TaskStatus{State: a2a.TaskStateCompleted, Timestamp: "2026-03-12T09:16:00.000Z"},
		Artifacts: []a2a.Artifact{{ArtifactID: "blob", Name: "blob.bin",
			Parts: []a2a.Part{{Raw: raw, MediaType: "application/octet-stream", Filename: "blob.bin"}}}},
	}
	for i := 0; i < 1000; i++ {
		role := a2a.RoleUser
		if i%2 == 1 {
			role = a2a.RoleAgent
		}
		task.History = append(task.History, a2a.Message{
			MessageID: fmt.Sprintf("msg-%04d", i), ContextID: "ctx-large", TaskID: "task-large", Role: role,
			Parts:    []a2a.Part{a2a.TextPart(fmt.Sprintf("turn %d: please continue with the next step of the plan", i))},
			Metadata: map[string]any{"turn": i},
		})
	}
	doc, err := json.Marshal(task)
	if err != nil {
		tb.Fatal(err)
	}
	return doc
}

func BenchmarkDecodeValidateLargeTask(b *testing.B) {
	doc := largeTask(b)
	if _, err := Validate(Task, doc); err != nil { // compile outside the timed loop
		b.Fatal(err)
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		var task a2a.Task
		if err := json.Unmarshal(doc, &task); err != nil {
			b.Fatal(err)
		}
		vs, err := Validate(Task, doc)
		if err != nil || len(vs) != 0 {
			b.Fatalf("%v %v", err, vs)
		}
		if len(task.History) != 1000 {
			b.Fatal("history lost")
		}
	}
}

// BenchmarkValidateLargeTask is the schema half alone, to tell the two costs apart.
func BenchmarkValidateLargeTask(b *testing.B) {
	doc := largeTask(b)
	if _, err := Validate(Task, doc); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if vs, err := Validate(Task, doc); err != nil || len(vs) != 0 {
			b.Fatalf("%v %v", err, vs)
		}
	}
}
