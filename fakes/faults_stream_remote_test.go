package fakes

import (
	"fmt"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// The observations of the faults that lose the artifact updates of a task
// worked on another instance, added to faultCases so that TestFaults runs
// each with the fault on and off.
func init() {
	observe := func(e *faultEnv) string {
		a, b := e.shared("a"), e.shared("b")
		chunks := 3
		const text = "abcdefghi"
		task := sendTask(e.t, a.rpc(), scripted(directive.Directive{DelayMs: 100, ArtifactChunks: &chunks, Text: text}), immediate())
		s, err := b.rest().SubscribeToTask(ctxT(), &a2a.SubscribeToTaskRequest{ID: task.ID})
		if err != nil {
			e.t.Fatal(err)
		}
		evs := collect(e.t, s)
		got, updates := "", 0
		for i, ev := range evs {
			switch {
			case i == 0 && ev.Task != nil:
				for _, art := range ev.Task.Artifacts {
					got += textOf(art.Parts)
				}
			case ev.ArtifactUpdate != nil:
				updates++
				got += textOf(ev.ArtifactUpdate.Artifact.Parts)
			}
		}
		last, _ := evs[len(evs)-1].State()
		if got != text || !last.Terminal() {
			return fmt.Sprintf("the stream through the other instance left the artifact %q (%d artifact updates), want %q; ended %s: %s", got, updates, text, last, describe(evs))
		}
		return ""
	}
	faultCases[faultStreamDropsRemoteArtifacts] = observe
	faultCases[faultStreamDropsRemoteChunks] = observe
}

func textOf(ps []a2a.Part) string {
	s := ""
	for _, p := range ps {
		if p.Text != nil {
			s += *p.Text
		}
	}
	return s
}
