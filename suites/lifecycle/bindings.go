package lifecycle

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// sameTask compares what two bindings say of one task: id, context, state,
// artifacts (ids and parts, as JSON) and history (length and message ids).
// Timestamps are left out: a binding may render the same instant with more
// or fewer fractional digits.
func sameTask(ref, got *a2a.Task, where string) []invariants.Violation {
	var vs []invariants.Violation
	diff := func(field, want, have string) {
		if want != have {
			vs = append(vs, invariants.Violation{Invariant: "binding-equivalence", Where: where + " " + field,
				Expected: want, Actual: have})
		}
	}
	diff("id", ref.ID, got.ID)
	diff("contextId", ref.ContextID, got.ContextID)
	diff("status.state", string(ref.Status.State), string(got.Status.State))
	diff("artifacts", artifactSummary(ref.Artifacts), artifactSummary(got.Artifacts))
	for i := range ref.Artifacts {
		if i >= len(got.Artifacts) {
			break
		}
		a, b := partsJSON(ref.Artifacts[i].Parts), partsJSON(got.Artifacts[i].Parts)
		if !bytes.Equal(a, b) {
			vs = append(vs, invariants.Violation{Invariant: "binding-equivalence",
				Where:    fmt.Sprintf("%s artifacts/%d parts", where, i),
				Expected: clipped(a), Actual: clipped(b)})
		}
	}
	diff("history", historySummary(ref.History), historySummary(got.History))
	return vs
}

func artifactSummary(as []a2a.Artifact) string {
	ids := make([]string, len(as))
	for i, a := range as {
		ids[i] = fmt.Sprintf("%s (%d parts)", a.ArtifactID, len(a.Parts))
	}
	return fmt.Sprintf("%d artifacts [%s]", len(as), strings.Join(ids, ", "))
}

func historySummary(ms []a2a.Message) string {
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.MessageID
	}
	return fmt.Sprintf("%d messages [%s]", len(ms), strings.Join(ids, ", "))
}

func partsJSON(ps []a2a.Part) []byte {
	b, _ := json.Marshal(ps)
	return b
}

func clipped(b []byte) string {
	const max = 200
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

// LIFE-025 (§5.1): a task created on one binding and read on every other one
// is the same task: id, context, state, artifacts and history. Each binding
// takes its turn as the creator; the turns are on tasks of their own, so
// they run together (suites.T.Each).
var _ = suites.Spec("LIFE-025", func(ctx context.Context, t *suites.T) {
	cs := t.Clients()
	if len(cs) < 2 {
		t.NotApplicable("the card declares one binding the harness speaks (%s): there is nothing to compare it with", cs[0].Binding())
	}
	t.Each(len(cs), func(i int) {
		creator := cs[i]
		task := finishedTask(ctx, t, creator)
		ref, err := t.Get(ctx, creator, task.ID)
		if err != nil {
			t.Record(invariants.Violation{Invariant: "binding-equivalence", Where: "GetTask " + task.ID + " (" + creator.Binding() + ", where it was created)",
				Expected: "the task", Actual: suites.ErrText(err)})
			return
		}
		for _, reader := range cs {
			if reader == creator {
				continue
			}
			where := fmt.Sprintf("task %s created on %s, read on %s:", task.ID, creator.Binding(), reader.Binding())
			got, err := t.Get(ctx, reader, task.ID)
			if err != nil {
				t.Record(invariants.Violation{Invariant: "binding-equivalence", Where: where + " GetTask",
					Expected: "the same task as on " + creator.Binding(), Actual: suites.ErrText(err)})
				continue
			}
			t.Record(sameTask(ref, got, where)...)
		}
	})
	t.Violated()
})
