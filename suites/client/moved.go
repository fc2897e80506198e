package client

import (
	"context"
	"fmt"
	"net/http"
	"sync"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/suites"
)

// CLI-010: a card whose interfaces moved to new URLs is taken, not refused
// (scenario 1: a rotation can change the card's url; no client keyword:
// warn). Once the first message is answered, the card rotates and declares
// every interface at a new URL; the old URLs keep working, since the text
// does not say which one a task begun on the old one must use, so a
// follow-up through either passes. A client that refuses the new card and
// sends no follow-up warns.
var _ = suites.Spec("CLI-010", func(ctx context.Context, t *suites.T) {
	var mu sync.Mutex
	rotatedAt := 0
	hook := func(s *Stage, e HookEvent) {
		r := e.Request
		mu.Lock()
		defer mu.Unlock()
		if rotatedAt == 0 && e.After && sends(r.Op) && r.TaskID == "" {
			if err := s.Rotate(ctx, Rotation{MoveInterfaces: true}); err == nil {
				rotatedAt = r.Seq
			}
		}
	}
	o := RunCase(ctx, t, Case{Name: "moved-endpoint", Action: FollowUp,
		Agent: Agent{Behaviour: inputRequired, CardMaxAge: -1, Hook: hook}})
	mu.Lock()
	at := rotatedAt
	mu.Unlock()
	if at == 0 {
		t.Indeterminate("the client's first message was never answered, so the card never moved (driver result: %s).", o.Driver.ResultLine)
	}
	var took []Request
	for _, r := range cardFetchesAfter(o.Requests, at) {
		if r.Status == http.StatusOK {
			took = append(took, r)
		}
	}
	t.Observe("card fetches after the move", describeFetches(cardFetchesAfter(o.Requests, at)))
	_, follow := firstAndFollowUp(o.Requests)
	switch {
	case follow != nil && follow.Moved > 0:
		t.Observe("outcome", fmt.Sprintf("the follow-up went to the moved URL: %s", Where(*follow)))
	case follow != nil:
		t.Observe("outcome", fmt.Sprintf("the follow-up went to the URL the task began on, which still works: %s", Where(*follow)))
	case len(took) > 0 && o.Result.Error != nil:
		t.Violated(invariants.Violation{Invariant: "client-moved-card", Where: Where(took[0]),
			Expected: "the card with its interfaces at new URLs taken, and the task followed up through a declared interface or the one it began on",
			Actual:   fmt.Sprintf("no follow-up: the client raised %s (%s) once it had the moved card", o.Result.Error.Class, cut(o.Result.Error.Message, 200))})
	case len(took) == 0:
		t.Indeterminate("the client fetched no card after the move and sent no follow-up (driver result: %s): it never met the moved card.", o.Driver.ResultLine)
	default:
		t.Indeterminate("the client sent no follow-up and raised nothing (driver result: %s).", o.Driver.ResultLine)
	}
})
