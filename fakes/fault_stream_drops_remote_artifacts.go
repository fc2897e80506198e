package fakes

import (
	"encoding/json"

	"github.com/a2a-conform/a2a-conform/fakes/store"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// faultStreamDropsRemoteArtifacts: a stream relays the status updates of a
// task another instance works, but not its artifact updates, as an instance
// whose cross-instance relay carries only state changes would: the stream
// reaches the terminal state and closes, with every chunk lost (§3.5.2 wants
// every event on every stream). Its own instance's tasks stream whole.
var faultStreamDropsRemoteArtifacts = register(FaultInfo{
	Name:        "stream-drops-remote-artifacts",
	Scenario:    scenarioRollout,
	Description: "A stream of a task worked on another instance carries its status updates and its terminal state, and then closes, but none of its artifact updates.",
	Specs:       []string{"ROLL-005"},
})

// remoteArtifactFilter decides, for one stream, which artifact updates of
// other instances it drops under stream-drops-remote-artifacts or
// stream-drops-remote-chunks. Its zero value drops nothing.
type remoteArtifactFilter struct {
	all, chunks bool
	// relayed are the artifacts of which the stream already relayed an
	// update (stream-drops-remote-chunks relays only that first one).
	relayed map[string]bool
}

func (a *Agent) remoteArtifactFilter() *remoteArtifactFilter {
	return &remoteArtifactFilter{all: a.faults.has(faultStreamDropsRemoteArtifacts), chunks: a.faults.has(faultStreamDropsRemoteChunks)}
}

// drop says whether the stream leaves out e, an event written by owner's
// instance or another.
func (f *remoteArtifactFilter) drop(e store.Event, owner string) bool {
	if (!f.all && !f.chunks) || e.Origin == owner || e.State != "" {
		return false
	}
	var r a2a.StreamResponse
	if json.Unmarshal(e.Body, &r) != nil || r.ArtifactUpdate == nil {
		return false
	}
	if f.all {
		return true
	}
	id := r.ArtifactUpdate.Artifact.ArtifactID
	if f.relayed[id] {
		return true
	}
	if f.relayed == nil {
		f.relayed = map[string]bool{}
	}
	f.relayed[id] = true
	return false
}
