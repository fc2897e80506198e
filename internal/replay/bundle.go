// Package replay re-drives a failing spec's requests against a target, at
// their recorded offsets, and judges the same invariants over what comes
// back: a race or a cancel-then-complete failure reproduced from the report
// alone, without the harness's specs or luck with the seed. A rollout
// failure's requests went to several places (the target, instances the
// harness pinned them to), each named in the bundle by a role that a replay
// maps to a URL, and its changes of the deployment (a roll, a hook) are
// steps that a replay performs with the vendor's hook commands, or says it
// cannot reproduce without them.
package replay

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/topology"
	"github.com/a2a-conform/a2a-conform/reports"
)

// Kind is the bundle's kind; it shares the report's APIVersion.
const Kind = "ReplayBundle"

// Judged are the invariants a replay can judge from the answers it gets:
// terminal immutability and cancel finality (on one endpoint or across the
// roles of several), a stream through one instance of a task worked on
// another (stream-across-instances), and what a task or the card must be
// across a change of the deployment the bundle performs as a step (a roll,
// a hook): the task the same or not found, the card's ETag new with a new
// card, and a revalidation with the ETag held from before answered with the
// new card. A spec failing only others gets no bundle, and its result says
// why (Unreplayable).
var Judged = []string{"terminal-immutable", "cancel-acknowledged-is-final", "stream-across-instances",
	"task-survives-rotation", "task-survives-rollout", "lost-task-not-recreated",
	"etag-tracks-card", "revalidate-gets-new-card"}

// acrossChange are the Judged invariants that only a change of the
// deployment can show: a bundle judging them needs its steps.
var acrossChange = []string{"task-survives-rotation", "task-survives-rollout", "lost-task-not-recreated",
	"etag-tracks-card", "revalidate-gets-new-card"}

// Unreplayable says, for an invariant a replay does not judge, why it
// cannot: what the failure rests on that a bundle's requests and the
// vendor's hook commands cannot bring about again.
var Unreplayable = map[string]string{
	"push-config-survives-rollout":     "push deliveries to the harness's own webhook receiver, which a replay does not run, through an old instance held draining by the harness's stepped roll, which no hook command holds",
	"push-credentials-across-rotation": "push deliveries to the harness's own webhook receiver, which a replay does not run, and the credentials they carried",
	"card-only-when-ready":             "what one instance does from its first 200 on while it starts (its streams, its pushes to the harness's own webhook receiver, which a replay does not run), while the harness holds every other instance stopped; no hook command stops or starts a single instance, and a replay's fixed schedule cannot hit the instant it first answers",
	"push-delivered-mid-rollout":       "push deliveries to the harness's own webhook receiver, which a replay does not run, for configs registered while the harness's stepped roll held an old instance beside its ready successor and then draining on its own URL; no hook command holds a rollout at those steps, so a replay could not register them at the moments that failed",
	"retry-after":                      "what one instance answers while it starts, which no hook command holds",
	"no-flip-back":                     "the order in which each single instance served the generations while the harness's roll replaced them one at a time, which a hook command's rollout does not repeat",
}

// whyNot is Unreplayable's entry for inv, or the reason shared by its
// family: a push-… invariant rests on webhook deliveries, a stale-… one on
// the harness's CDN.
func whyNot(inv string) (string, bool) {
	if why, ok := Unreplayable[inv]; ok {
		return why, true
	}
	switch {
	case strings.HasPrefix(inv, "push-"):
		return "push deliveries to the harness's own webhook receiver, which a replay does not run (the bundle's push config calls name that receiver)", true
	case strings.HasPrefix(inv, "stale-"):
		return "the harness's own CDN holding a card across its builds (its stage), which no command of the vendor's stands for", true
	}
	return "", false
}

// PinHeader is the request header by which the harness's balancer sends a
// request to one instance (topology.PinHeader): a request that carried it
// went to that instance, and a replay sends it to the URL given for the
// instance's role instead.
const PinHeader = topology.PinHeader

// Role names: RoleTarget is the run's target (the harness's balancer when
// it ran instances of its own); an instance the harness pinned a request to
// is "instance-K"; any other origin is "origin-N".
const RoleTarget = "target"

// Bundle is everything needed to re-drive one failing spec: its requests,
// their offsets and the origin each went to (by role), the changes it made
// to the deployment (steps), and what the spec saw (the violations, the
// original answers, used to map the ids the agent assigned to the ones it
// assigns on the replay).
type Bundle struct {
	APIVersion string                 `json:"apiVersion"`
	Kind       string                 `json:"kind"`
	Spec       string                 `json:"spec"`
	Title      string                 `json:"title"`
	Seed       int64                  `json:"seed"`
	Harness    reports.Harness        `json:"harness"`
	Target     string                 `json:"target"`
	Violations []invariants.Violation `json:"violations"`
	// Judges are the invariants of Violations that a replay judges and
	// that decide whether it reproduced the failure (in Judged).
	Judges []string `json:"judges,omitempty"`
	// Origins are the places the requests went, each by the role a replay
	// maps to a URL (replay --target ROLE=URL).
	Origins []Origin `json:"origins,omitempty"`
	// Steps are the changes the spec made to the deployment, at their
	// offsets; a replay performs each with the vendor's command for one of
	// the hook points it accepts, and cannot reproduce without one.
	Steps []reports.Step `json:"steps,omitempty"`
	// Requests are the spec's own outgoing HTTP exchanges, in order, with
	// their recorded answers and the role of the origin each went to;
	// header values that were secret are "[REDACTED]" and come from the
	// environment on a replay.
	Requests []Request `json:"requests"`
	// Skipped says what the bundle leaves out (gRPC calls, webhooks, push
	// config registrations naming the harness's receiver).
	Skipped []string `json:"skipped,omitempty"`
}

// Request is one recorded exchange and the role of the origin it went to
// ("" in a bundle written before roles: the target).
type Request struct {
	reports.Exchange
	Role string `json:"role,omitempty"`
}

// role is the request's role, RoleTarget when the bundle named none.
func (r Request) role() string {
	if r.Role == "" {
		return RoleTarget
	}
	return r.Role
}

// Origin is one place a bundle's requests went.
type Origin struct {
	Role string `json:"role"`
	// Recorded is the origin (scheme://host:port) the requests went to in
	// the run; Pin the balancer pin they carried ("" for none).
	Recorded string `json:"recorded"`
	Pin      string `json:"pin,omitempty"`
	// Instances are the names the answering instances gave themselves
	// (A2A-Conform-Instance), for the reader.
	Instances []string `json:"instances,omitempty"`
	Requests  int      `json:"requests"`
}

// Roles lists the bundle's roles in order of first use (RoleTarget alone
// for a bundle written before roles).
func (b *Bundle) Roles() []string {
	if len(b.Origins) == 0 {
		return []string{RoleTarget}
	}
	out := make([]string, 0, len(b.Origins))
	for _, o := range b.Origins {
		out = append(out, o.Role)
	}
	return out
}

// For builds the bundle of a failing result, or says why there is none.
func For(r *reports.Report, res reports.Result) (*Bundle, string) {
	if res.Verdict != reports.Fail {
		return nil, "not a fail"
	}
	var judges []string
	for _, v := range res.Violations {
		if slices.Contains(Judged, v.Invariant) && !slices.Contains(judges, v.Invariant) {
			judges = append(judges, v.Invariant)
		}
	}
	if len(judges) == 0 {
		return nil, "a replay judges none of its invariants (" + invariantNames(res.Violations) + ")" + unreplayable(res.Violations)
	}
	if len(res.Steps) == 0 && !slices.ContainsFunc(judges, func(j string) bool { return !slices.Contains(acrossChange, j) }) {
		return nil, "its invariants need the change of the deployment it crossed, and the result records none (" + strings.Join(judges, ", ") + ")"
	}
	b := &Bundle{APIVersion: reports.APIVersion, Kind: Kind, Spec: res.ID, Title: res.Title, Seed: r.Run.Seed,
		Harness: r.Harness, Target: r.Run.Target, Violations: res.Violations, Judges: judges, Steps: res.Steps}
	target := originOf(r.Run.Target)
	grpc, in, push := 0, 0, 0
	for _, ex := range res.Transcript {
		switch {
		case ex.Direction == "in":
			in++
		case strings.HasPrefix(ex.URL, "grpc"):
			grpc++
		case pushConfigOp(ex):
			push++
		default:
			b.Requests = append(b.Requests, Request{Exchange: ex, Role: b.roleFor(ex, target)})
		}
	}
	if grpc > 0 {
		b.Skipped = append(b.Skipped, fmt.Sprintf("%d gRPC calls (replayed over HTTP bindings only)", grpc))
	}
	if in > 0 {
		b.Skipped = append(b.Skipped, fmt.Sprintf("%d webhook deliveries the harness received (a replay registers no receiver)", in))
	}
	if push > 0 {
		b.Skipped = append(b.Skipped, fmt.Sprintf("%d push config calls (they name the harness's own webhook receiver, which a replay does not run)", push))
	}
	if len(b.Requests) == 0 {
		return nil, "no HTTP request to replay"
	}
	for _, s := range res.Steps {
		if !Performable(s) {
			b.Skipped = append(b.Skipped, fmt.Sprintf("%s at %+.0fms, which no command of yours stands for: a replay does not perform it, so only a violation it shows counts", stepName(s), s.AtMs-b.Requests[0].AtMs))
		}
	}
	return b, ""
}

// roleFor names the origin ex went to, adding it to b.Origins when new: a
// request to the run's target pinned to instance K is "instance-K", one
// unpinned the target; another origin (an instance's own URL, reached past
// the balancer) is "origin-N".
func (b *Bundle) roleFor(ex reports.Exchange, target string) string {
	origin := originOf(ex.URL)
	pin := ex.ReqHeader.Get(PinHeader)
	role := ""
	switch {
	case origin == target && pin != "":
		role = "instance-" + pin
	case origin == target:
		role = RoleTarget
	}
	for i := range b.Origins {
		o := &b.Origins[i]
		if (role != "" && o.Role == role) || (role == "" && o.Recorded == origin && o.Pin == pin) {
			o.Requests++
			if ex.Instance != "" && !slices.Contains(o.Instances, ex.Instance) {
				o.Instances = append(o.Instances, ex.Instance)
			}
			return o.Role
		}
	}
	if role == "" {
		n := 1
		for _, o := range b.Origins {
			if strings.HasPrefix(o.Role, "origin-") {
				n++
			}
		}
		role = fmt.Sprintf("origin-%d", n)
	}
	o := Origin{Role: role, Recorded: origin, Pin: pin, Requests: 1}
	if ex.Instance != "" {
		o.Instances = []string{ex.Instance}
	}
	b.Origins = append(b.Origins, o)
	return role
}

// originOf is scheme://host of a URL ("" when it has none).
func originOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// pushConfigOp says whether ex registers, reads or deletes a push config:
// its URL is the harness's own receiver's, which a replay does not run.
func pushConfigOp(ex reports.Exchange) bool {
	return strings.Contains(operation(ex.ReqBody, ex.URL), "PushNotificationConfig") || strings.Contains(ex.URL, "/pushNotificationConfigs")
}

// unreplayable gives, for the invariants of vs Unreplayable explains, what
// their failure rests on ("" when it explains none).
func unreplayable(vs []invariants.Violation) string {
	var out, seen []string
	for _, v := range vs {
		why, ok := whyNot(v.Invariant)
		if !ok || slices.Contains(seen, why) {
			continue
		}
		seen = append(seen, why)
		out = append(out, v.Invariant+" rests on "+why)
	}
	if len(out) == 0 {
		return ""
	}
	return ": " + strings.Join(out, "; ")
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
