package fakes

import (
	"errors"
	"io"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

func init() {
	// The stream kept through AUTH_REQUIRED ends, after the follow-up,
	// without any state past AUTH_REQUIRED.
	faultCases[faultAuthRequiredStreamDropped] = func(e *faultEnv) string {
		c := e.node(Options{}).rest()
		s, err := c.SendStreamingMessage(ctxT(), &a2a.SendMessageRequest{Message: scripted(directive.Directive{Outcome: directive.OutcomeAuthRequired})})
		if err != nil {
			e.t.Fatal(err)
		}
		defer s.Close()
		type item struct {
			ev  a2a.StreamResponse
			err error
		}
		items := make(chan item, 32)
		go func() {
			defer close(items)
			for {
				ev, err := s.Next()
				items <- item{ev, err}
				if err != nil {
					return
				}
			}
		}()
		var evs []a2a.StreamResponse
		taskID, asked := "", false
		deadline := time.After(testTimeout)
		for {
			select {
			case it, ok := <-items:
				if !ok || errors.Is(it.err, io.EOF) {
					last, _ := evs[len(evs)-1].State()
					if asked && last == a2a.TaskStateAuthRequired {
						return "stream kept in AUTH_REQUIRED, then closed after the follow-up without a new state: " + describe(evs)
					}
					return ""
				}
				if it.err != nil {
					e.t.Fatalf("stream: %v", it.err)
				}
				evs = append(evs, it.ev)
				if taskID == "" {
					taskID = it.ev.TaskID()
				}
				if st, ok := it.ev.State(); ok && st == a2a.TaskStateAuthRequired && !asked {
					asked = true
					m := userMsg("authorized out of band; go on")
					m.TaskID = taskID
					if _, err := c.SendMessage(ctxT(), &a2a.SendMessageRequest{Message: m, Configuration: immediate()}); err != nil {
						e.t.Fatal(err)
					}
				}
			case <-deadline:
				e.t.Fatalf("the stream neither ended nor carried the task on: %s", describe(evs))
			}
		}
	}
}
