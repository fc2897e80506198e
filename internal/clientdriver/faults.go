package clientdriver

import (
	"fmt"
	"sort"
	"strings"
)

// Fault is a registered client fault of the reference driver: one client
// rule broken on purpose. Specs names the client specs that must catch it
// (fail or warn it, by their own ID); a spec range c3 owns may name more.
type Fault struct {
	Name        string
	Description string
	Specs       []string
}

var registry = map[string]Fault{}

func registerFault(f Fault) string {
	if _, dup := registry[f.Name]; dup {
		panic("clientdriver: duplicate fault " + f.Name)
	}
	registry[f.Name] = f
	return f.Name
}

// Faults lists the registered client faults by name.
func Faults() []Fault {
	out := make([]Fault, 0, len(registry))
	for _, f := range registry {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// LookupFault returns a registered client fault.
func LookupFault(name string) (Fault, bool) {
	f, ok := registry[name]
	return f, ok
}

type faultSet map[string]bool

func newFaultSet(names []string) (faultSet, error) {
	fs := faultSet{}
	for _, n := range names {
		for _, p := range strings.Split(n, ",") {
			if p = strings.TrimSpace(p); p == "" {
				continue
			}
			if _, ok := registry[p]; !ok {
				var known []string
				for _, f := range Faults() {
					known = append(known, f.Name)
				}
				return nil, fmt.Errorf("unknown client fault %q (known: %s)", p, strings.Join(known, ", "))
			}
			fs[p] = true
		}
	}
	return fs, nil
}

func (fs faultSet) has(name string) bool { return fs[name] }
