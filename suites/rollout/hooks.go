package rollout

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/suites"
)

// Under the hooks driver the harness changes a deployment it cannot see
// into: its own requests go to the target, behind which the vendor's
// balancer picks an instance the harness cannot name. The rotation specs
// run there through the same body as under the other drivers, with the
// target as their one inexact view and the hook as their change
// (deployment.go), and say what they could not check; the specs that must
// address an instance cannot run (instanceNeeds says why, per spec).

// hookSamples is how many times a spec reads the card or a task through the
// target (the inexact view) at one moment: each read may reach another
// instance, and a few show whether they agree.
const hookSamples = 4

// hookPoll is the pause between the card revalidations ROLL-008 sends while
// a hook runs, and hookPollLate the pause once it has run for hookPollSlow
// (change.pace): a staging rollout takes minutes, and every request is
// recorded.
const (
	hookPoll     = 250 * time.Millisecond
	hookPollLate = time.Second
	hookPollSlow = 20 * time.Second
)

// instanceNeeds says, per spec, what it needs single instances for: the
// could-not-run reason under the hooks driver, which has none.
var instanceNeeds = map[string]string{
	"ROLL-003": "it starts tasks on each instance and registers each task's push config through another instance than the one running it",
	"ROLL-004": "it stops every instance, starts one, and polls that instance's own card while it starts",
	"ROLL-005": "it subscribes through one instance to a task running on another",
	"ROLL-006": "it cancels through one instance a task running on another, then reads the task back from every instance",
	"ROLL-007": "it holds the card in the harness's own CDN while it rolls the instances behind it from a previous build to one without a capability, an interface and an extension that card claims",
	"ROLL-009": "it registers push configs through an old instance once its successor is ready and again on the old instance's own URL while it drains, and through the new one",
	"ROLL-010": "it continues one task through one instance, then another, then the first again, and reads it back from every instance",
}

// hooksFor returns the hooks driver and the first of points it has a
// command for; ok is false when the run's driver is not hooks. Under hooks
// without any of the points the spec ends could-not-run, naming the flags.
func hooksFor(t *suites.T, points ...string) (suites.HookRunner, string, bool) {
	hk, ok := t.Env.Topology.(suites.HookRunner)
	if !ok {
		return nil, "", false
	}
	have := hk.HookPoints()
	for _, p := range points {
		for _, h := range have {
			if h == p {
				return hk, p, true
			}
		}
	}
	var flags []string
	for _, p := range points {
		flags = append(flags, "--hook-"+p)
	}
	t.CouldNotRun("driver %q has no command for the change this spec makes: it runs %s, and the run gives %s.",
		driverName(t), strings.Join(flags, " or "), orNone(have))
	return nil, "", false
}

func orNone(points []string) string {
	if len(points) == 0 {
		return "none"
	}
	var out []string
	for _, p := range points {
		out = append(out, "--hook-"+p)
	}
	return "only " + strings.Join(out, ", ")
}

// instanceOf is the instance that answered the request that created task,
// as the agent named itself in its A2A-Conform-Instance header ("" when it
// did not): the hook is told, so that a vendor's restart-instance command
// can restart that one.
func instanceOf(t *suites.T, taskID string) string {
	for _, ex := range t.Env.Transcript.Owned(t.Info.ID) {
		if ex.Instance != "" && strings.Contains(ex.RespBody, taskID) {
			return ex.Instance
		}
	}
	return ""
}

// distinctCards keeps one response per distinct card body, in order.
func distinctCards(crs []*client.CardResponse) []*client.CardResponse {
	var out []*client.CardResponse
	for _, cr := range crs {
		if !hasBody(out, cr.Raw) {
			out = append(out, cr)
		}
	}
	return out
}

func hasBody(crs []*client.CardResponse, raw []byte) bool {
	for _, cr := range crs {
		if bytes.Equal(cr.Raw, raw) {
			return true
		}
	}
	return false
}

func describeCards(crs []*client.CardResponse) string {
	var out []string
	for _, cr := range crs {
		out = append(out, fmt.Sprintf("version %s ETag %s", version(cr), orDash(cr.Header.Get("ETag"))))
	}
	return strings.Join(out, "; ")
}

func orDash(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// lostTaskFinding reports a task lost across a change of the deployment
// (how: which reads answered TaskNotFoundError). A2A allows it, so it
// changes no verdict; it is scenario 1's orphan, which whoever runs the
// deployment should see in the run's summary rather than in a quiet pass.
func lostTaskFinding(t *suites.T, taskID, change, how string) {
	t.Finding("task %s was lost across %s: %s answered TaskNotFoundError: lost in the roll. A2A allows it, but its client, and any push config on it, are orphaned, as in scenario 1 (card rotation mid-task); task state kept in a store every instance shares survives",
		taskID, change, how)
}

// instancesSeen lists the distinct instance names (A2A-Conform-Instance)
// the agent gave in the spec's exchanges after sequence number after, and
// the last sequence number seen.
func instancesSeen(t *suites.T, after int) ([]string, int) {
	last := after
	seen := map[string]bool{}
	for _, ex := range t.Env.Transcript.Owned(t.Info.ID) {
		if ex.Seq <= after {
			continue
		}
		last = max(last, ex.Seq)
		if ex.Instance != "" {
			seen[ex.Instance] = true
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names, last
}

// changeEvidence lists what shows, from outside, that the deployment changed
// across a hook: another card (body or ETag), answers after it only from
// instances never seen before it (a disjoint set: a balancer that merely
// picked another instance shows names from both), or the task lost.
func changeEvidence(before, after *client.CardResponse, namesBefore, namesAfter []string, lost int) []string {
	var ev []string
	if before != nil && after != nil {
		switch {
		case !bytes.Equal(before.Raw, after.Raw):
			ev = append(ev, fmt.Sprintf("the card changed (version %s → %s)", version(before), version(after)))
		case before.Header.Get("ETag") != after.Header.Get("ETag"):
			ev = append(ev, fmt.Sprintf("the card's ETag changed (%s → %s)", orDash(before.Header.Get("ETag")), orDash(after.Header.Get("ETag"))))
		}
	}
	if len(namesBefore) > 0 && len(namesAfter) > 0 {
		disjoint := true
		for _, n := range namesAfter {
			if slices.Contains(namesBefore, n) {
				disjoint = false
			}
		}
		if disjoint {
			ev = append(ev, fmt.Sprintf("every answer after the hook came from instances not seen before it (%s → %s)",
				strings.Join(namesBefore, ", "), strings.Join(namesAfter, ", ")))
		}
	}
	if lost > 0 {
		ev = append(ev, "the task was lost")
	}
	return ev
}

func orNoneSeen(names []string) string {
	if len(names) == 0 {
		return "none named"
	}
	return strings.Join(names, ", ")
}

func orUnknown(s string) string {
	if s == "" {
		return "an instance the agent did not name"
	}
	return "instance " + s
}
