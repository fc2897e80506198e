package fakes

import (
	"fmt"
	"sort"
	"strings"
)

// FaultInfo describes one registered fault: a toggle that makes the reference
// agent misbehave in one specific, observable way. Every fault must be caught
// by at least one spec (the suites fill in Specs); a fault no spec catches is
// a hole in the harness.
type FaultInfo struct {
	// Name is the stable identifier used with --fault.
	Name string `json:"name"`
	// Scenario is the field report (docs/scenarios.md, "" for a plain
	// spec violation) the fault reproduces.
	Scenario string `json:"scenario,omitempty"`
	// Description states the misbehaviour concretely.
	Description string `json:"description"`
	// Specs are the spec IDs that must fail when the fault is on (end warn,
	// for a spec of level SHOULD).
	Specs []string `json:"specs"`
	// Soft says the fault breaks only a part of its specs that the A2A text
	// asks for with SHOULD (suites.T.Should): they end warn, not fail,
	// whatever their level (docs/levels.md).
	Soft bool `json:"soft,omitempty"`
}

// Scenario names, as in docs/scenarios.md.
const (
	scenarioRotation = "1-card-rotation-mid-task.md"
	scenarioRollout  = "2-card-published-mid-rollout.md"
	scenarioStaleCDN = "3-stale-cdn-cancel-then-complete.md"
)

var faultRegistry = map[string]FaultInfo{}

// register adds a fault at package initialisation and returns its name, so
// that each fault file declares its toggle in one line.
func register(f FaultInfo) string {
	if _, dup := faultRegistry[f.Name]; dup {
		panic("fakes: fault registered twice: " + f.Name)
	}
	faultRegistry[f.Name] = f
	return f.Name
}

// Faults lists every registered fault, sorted by name.
func Faults() []FaultInfo {
	out := make([]FaultInfo, 0, len(faultRegistry))
	for _, f := range faultRegistry {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// FaultNames lists the registered names, sorted.
func FaultNames() []string {
	var names []string
	for _, f := range Faults() {
		names = append(names, f.Name)
	}
	return names
}

// LookupFault returns a fault by name; the error for an unknown name lists
// the known ones, so a typo on the command line is fixed in one go.
func LookupFault(name string) (FaultInfo, error) {
	f, ok := faultRegistry[name]
	if !ok {
		return FaultInfo{}, fmt.Errorf("unknown fault %q; known faults: %s", name, strings.Join(FaultNames(), ", "))
	}
	return f, nil
}

// faultSet is the set of faults an agent runs with.
type faultSet map[string]bool

func newFaultSet(names []string) (faultSet, error) {
	set := faultSet{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if _, err := LookupFault(n); err != nil {
			return nil, err
		}
		set[n] = true
	}
	return set, nil
}

func (s faultSet) has(name string) bool { return s[name] }

func (s faultSet) names() []string {
	var out []string
	for n := range s {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
