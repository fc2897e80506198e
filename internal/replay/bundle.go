// Package replay re-drives a failing spec's requests against a target, at
// their recorded offsets, and judges the same invariants over what comes
// back: a race or a cancel-then-complete failure reproduced from the report
// alone, without the harness's specs or luck with the seed.
package replay

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/reports"
)

// Kind is the bundle's kind; it shares the report's APIVersion.
const Kind = "ReplayBundle"

// Judged are the invariants a replay can judge from a single endpoint's
// answers; a spec failing only others (a roll, a stale CDN) gets no bundle.
var Judged = []string{"terminal-immutable", "cancel-acknowledged-is-final"}

// Bundle is everything needed to re-drive one failing spec: its requests,
// their offsets, and what the spec saw (the violations, the original
// answers, used to map the ids the agent assigned to the ones it assigns on
// the replay).
type Bundle struct {
	APIVersion string                 `json:"apiVersion"`
	Kind       string                 `json:"kind"`
	Spec       string                 `json:"spec"`
	Title      string                 `json:"title"`
	Seed       int64                  `json:"seed"`
	Harness    reports.Harness        `json:"harness"`
	Target     string                 `json:"target"`
	Violations []invariants.Violation `json:"violations"`
	// Requests are the spec's own outgoing HTTP exchanges, in order, with
	// their recorded answers; header values that were secret are
	// "[REDACTED]" and come from the environment on a replay.
	Requests []reports.Exchange `json:"requests"`
	// Skipped says what the bundle leaves out (gRPC calls, webhooks).
	Skipped []string `json:"skipped,omitempty"`
}

// For builds the bundle of a failing result, or says why there is none.
func For(r *reports.Report, res reports.Result) (*Bundle, string) {
	if res.Verdict != reports.Fail {
		return nil, "not a fail"
	}
	judged := false
	for _, v := range res.Violations {
		if slices.Contains(Judged, v.Invariant) {
			judged = true
		}
	}
	if !judged {
		return nil, "its invariants need more than one endpoint's answers (" + invariantNames(res.Violations) + ")"
	}
	b := &Bundle{APIVersion: reports.APIVersion, Kind: Kind, Spec: res.ID, Title: res.Title, Seed: r.Run.Seed,
		Harness: r.Harness, Target: r.Run.Target, Violations: res.Violations}
	grpc, in := 0, 0
	for _, ex := range res.Transcript {
		switch {
		case ex.Direction == "in":
			in++
		case strings.HasPrefix(ex.URL, "grpc"):
			grpc++
		default:
			b.Requests = append(b.Requests, ex)
		}
	}
	if grpc > 0 {
		b.Skipped = append(b.Skipped, fmt.Sprintf("%d gRPC calls (replayed over HTTP bindings only)", grpc))
	}
	if in > 0 {
		b.Skipped = append(b.Skipped, fmt.Sprintf("%d webhook deliveries the harness received (a replay registers no receiver)", in))
	}
	if len(b.Requests) == 0 {
		return nil, "no HTTP request to replay"
	}
	return b, ""
}

func invariantNames(vs []invariants.Violation) string {
	var names []string
	for _, v := range vs {
		if !slices.Contains(names, v.Invariant) {
			names = append(names, v.Invariant)
		}
	}
	return strings.Join(names, ", ")
}

// Read loads a bundle file, bounded.
func Read(path string) (*Bundle, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b Bundle
	dec := json.NewDecoder(http.MaxBytesReader(nil, f, 64<<20))
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("%s: not a replay bundle: %v", path, err)
	}
	if b.Kind != Kind || len(b.Requests) == 0 {
		return nil, fmt.Errorf("%s: not a replay bundle (kind %q, %d requests)", path, b.Kind, len(b.Requests))
	}
	return &b, nil
}
