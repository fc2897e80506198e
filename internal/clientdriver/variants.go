package clientdriver

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"
)

// Variant is a registered correct variant of the reference driver: a client
// that does one thing differently from the reference, in a way the spec text
// (as docs/levels.md reads it) allows. Each variant runs the whole client
// suite and must get no fail, and no warning or indeterminate except the
// ones its Allowed names, each with why: a spec that fails or warns a
// correct variant is a harness bug in that spec's judge ("not taught to the
// test"). Specs names the client specs whose judgement the difference
// exercises (the readings it takes); they must pass it.
type Variant struct {
	Name        string
	Description string
	Specs       []string
	// Allowed names the specs that may warn or be indeterminate on this
	// variant, each with the reason; nothing may fail a variant.
	Allowed map[string]string
}

var variantRegistry = map[string]Variant{}

func registerVariant(v Variant) string {
	if _, dup := variantRegistry[v.Name]; dup {
		panic("clientdriver: duplicate variant " + v.Name)
	}
	if _, dup := registry[v.Name]; dup {
		panic("clientdriver: variant " + v.Name + " has a fault's name")
	}
	variantRegistry[v.Name] = v
	return v.Name
}

// Variants lists the registered correct variants by name.
func Variants() []Variant {
	out := make([]Variant, 0, len(variantRegistry))
	for _, v := range variantRegistry {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// LookupVariant returns a registered correct variant.
func LookupVariant(name string) (Variant, bool) {
	v, ok := variantRegistry[name]
	return v, ok
}

type variantSet map[string]bool

func newVariantSet(names []string) (variantSet, error) {
	vs := variantSet{}
	for _, n := range names {
		for _, p := range strings.Split(n, ",") {
			if p = strings.TrimSpace(p); p == "" {
				continue
			}
			if _, ok := variantRegistry[p]; !ok {
				var known []string
				for _, v := range Variants() {
					known = append(known, v.Name)
				}
				return nil, fmt.Errorf("unknown client variant %q (known: %s)", p, strings.Join(known, ", "))
			}
			vs[p] = true
		}
	}
	return vs, nil
}

func (vs variantSet) has(name string) bool { return vs[name] }

// roundTripper adapts a function to http.RoundTripper.
type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// transport is the driver's HTTP transport under the variants that change
// every request it sends (slow, query-version).
func (vs variantSet) transport(base http.RoundTripper) http.RoundTripper {
	rt := base
	if vs.has(variantQueryVersion) {
		next := rt
		rt = roundTripper(func(r *http.Request) (*http.Response, error) { return next.RoundTrip(versionInQuery(r)) })
	}
	if vs.has(variantSlow) {
		next := rt
		rt = roundTripper(func(r *http.Request) (*http.Response, error) {
			timer := time.NewTimer(slowDelay)
			defer timer.Stop()
			select {
			case <-r.Context().Done():
				return nil, r.Context().Err()
			case <-timer.C:
			}
			return next.RoundTrip(r)
		})
	}
	return rt
}
