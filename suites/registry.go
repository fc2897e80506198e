// Package suites is the frozen registry of every spec the harness runs, the
// Ginkgo wrapper that turns a registered ID into a spec with its labels and an
// honest verdict, and the environment specs read their target from. The suite
// packages (discovery, lifecycle, webhook, rollout) hold the spec bodies.
//
// A spec's entry (Info) carries what its level rests on, the A2A sentences
// quoted word for word (Grounds), beside its title, level and sections.
//
// A spec ID (AREA-NNN) is never renumbered or reused. Adding, removing or
// renaming a spec means editing this table and specs.golden together; the
// golden test fails otherwise.
package suites

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/reports"
)

// Level is how strongly the A2A text asks for the requirement. INVARIANT is for
// the scenario invariants the spec implies without stating them in one sentence.
type Level string

const (
	MUST      Level = "MUST"
	SHOULD    Level = "SHOULD"
	MAY       Level = "MAY"
	INVARIANT Level = "INVARIANT"
)

// Strict reports whether a failure at this level is a fail (exit 1) rather than
// a warn.
func (l Level) Strict() bool { return l == MUST || l == INVARIANT }

// Need is a capability or harness facility a spec depends on.
type Need string

const (
	NeedStreaming    Need = "streaming"
	NeedPush         Need = "push"
	NeedExtendedCard Need = "extended-card"
	// NeedBehaviour: a scripted behaviour (directive extension or prompt map).
	NeedBehaviour Need = "behaviour"
	// NeedTopology: the harness changes the deployment (embedded or process
	// driver; a few specs also run under the hooks driver).
	NeedTopology Need = "topology"
	// NeedWebhook: the harness's webhook receiver is reachable from the agent.
	NeedWebhook Need = "webhook"
	// NeedSecondIdentity: the run has a second identity of the agent
	// (second-header; the embedded agent always has one).
	NeedSecondIdentity Need = "second-identity"
)

// Suite names; they are label filters, not separate binaries.
const (
	Discovery = "discovery"
	Lifecycle = "lifecycle"
	Webhook   = "webhook"
	Rollout   = "rollout"
	// Client is the client-mode suite (suites/client): the harness plays a
	// scripted agent and judges a vendor's client driver. `a2a-conform run`
	// never selects it unless asked (--suite client); `a2a-conform client`
	// runs only it.
	Client = "client"
)

// SuiteNames lists the agent-mode suites in run order: what `run` runs by
// default.
var SuiteNames = []string{Discovery, Lifecycle, Webhook, Rollout}

// AllSuiteNames is SuiteNames and the client suite: every name --suite and
// `list --suite` accept.
var AllSuiteNames = []string{Discovery, Lifecycle, Webhook, Rollout, Client}

// Info is everything the reports, `list` and `explain` say about a spec.
type Info struct {
	ID       string
	Title    string
	Suite    string
	Level    Level
	Sections []string // spec sections, e.g. "8.2", "3.1.5"
	Scenario string   // "1", "2" or "3" (docs/scenarios.md), or ""
	TCK      []string // official TCK requirement IDs this spec covers
	Needs    []Need
	// Why says what the spec checks and why it matters, in a few sentences.
	Why string
	// Enable says what to configure when the spec could not run.
	Enable string
	// Timeout bounds the whole spec; zero means DefaultSpecTimeout.
	Timeout time.Duration
	// Exclusive: the spec needs the agent to itself (it restarts or rolls
	// instances, or judges agent-wide state), so it runs alone, after the
	// specs that run concurrently.
	Exclusive bool
	// Supplied names the pieces of a client that SDKs leave to the
	// application, and so the driver supplies, on which a client spec's
	// verdict rests (reports.PieceReceiver, reports.PieceState); empty for
	// a client spec that judges the SDK's own behaviour.
	Supplied []string
	// Long: the spec takes long whatever runs beside it: it waits a fixed
	// window for something the agent may never send (PUSH-007's retry), or
	// runs a race of many of the agent's tasks (LIFE-014, ROLL-006). The scheduler
	// starts long specs first (Plan), so that their wait overlaps the rest
	// of the run instead of trailing it.
	Long bool
	// Grounds are the sentences of the A2A text the spec's level rests on,
	// word for word (TestEveryBasisIsTheSpecificationsOwnWords finds each in
	// the pinned text, internal/spectext), and the reading when no single
	// MUST states it or the level is not simply the keyword the quotes carry;
	// an INVARIANT spec names its scenario sentence too. Build it with the
	// constructors of basis.go (quotes, spec, proto, topic). Basis() is
	// Grounds with the spec's disagreements added.
	Grounds reports.Basis
}

// DefaultSpecTimeout bounds a spec that names no timeout of its own.
const DefaultSpecTimeout = 60 * time.Second

// Labels returns the Ginkgo labels of the spec: its ID, suite, level,
// "section:…", "scenario:…", "tck:…", "needs:…", and "exclusive" for a spec
// that runs alone.
func (i Info) Labels() []string {
	l := []string{i.ID, i.Suite, string(i.Level)}
	for _, s := range i.Sections {
		l = append(l, "section:"+s)
	}
	if i.Scenario != "" {
		l = append(l, "scenario:"+i.Scenario)
	}
	for _, t := range i.TCK {
		l = append(l, "tck:"+t)
	}
	for _, n := range i.Needs {
		l = append(l, "needs:"+string(n))
	}
	if i.Exclusive {
		l = append(l, "exclusive")
	}
	return l
}

// Needs reports whether the spec depends on n.
func (i Info) NeedsAny(n ...Need) bool {
	for _, have := range i.Needs {
		for _, want := range n {
			if have == want {
				return true
			}
		}
	}
	return false
}

// more are specs registered by other files of this package (register),
// e.g. the client suite's, so that each area keeps its table in a file of
// its own.
var more []Info

// register adds specs to the registry; call it only from an init function
// of this package (the registry is read after package initialisation).
func register(infos ...Info) { more = append(more, infos...) }

var (
	byIDOnce sync.Once
	byIDMap  map[string]Info
)

func byID() map[string]Info {
	byIDOnce.Do(func() {
		m := map[string]Info{}
		for _, i := range append(append([]Info(nil), registry...), more...) {
			if _, dup := m[i.ID]; dup {
				panic("suites: duplicate spec ID " + i.ID)
			}
			m[i.ID] = i
		}
		byIDMap = m
	})
	return byIDMap
}

// Lookup returns the registered spec with that ID (case-insensitive).
func Lookup(id string) (Info, bool) {
	i, ok := byID()[strings.ToUpper(strings.TrimSpace(id))]
	return i, ok
}

// All returns every registered spec, sorted by ID.
func All() []Info {
	out := append(append([]Info(nil), registry...), more...)
	sort.Slice(out, func(a, b int) bool { return out[a].ID < out[b].ID })
	return out
}

// InSuites returns the registered specs of the named suites (all when none).
func InSuites(names ...string) []Info {
	if len(names) == 0 {
		return All()
	}
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var out []Info
	for _, i := range All() {
		if want[i.Suite] {
			out = append(out, i)
		}
	}
	return out
}

// GoldenLine is one line of specs.golden: "ID LEVEL suite title".
func (i Info) GoldenLine() string {
	return fmt.Sprintf("%s %s %s %s", i.ID, i.Level, i.Suite, i.Title)
}
