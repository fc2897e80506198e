// Package clientdriver is the harness's reference client driver
// (`a2a-conform client-driver`): every action of docs/client-driver.md done
// correctly on the harness's own client (internal/client), so that every
// client spec must pass against it. Its client faults (fault_<name>.go,
// `client-driver --fault NAME`) each break one client rule on purpose, and
// name the specs that must catch it. Its correct variants
// (variant_<name>.go, `client-driver --variant NAME`) each do one thing
// differently in a way the text allows, and no client spec may fail them.
//
// It is built on the public driver kit (clientkit), as a vendor's driver
// is: the contract's variables and deadline, the result line with its state
// rule, the push receiver and the error table are the kit's. What stays here
// is the client's own behaviour. One file per action (action_<name>.go);
// driver.go holds what they share: the card cache (If-None-Match
// revalidation, max-age honoured), interface choice (the first declared
// binding it speaks, falling back to the next when a connection is refused),
// and how what the client saw reaches the kit's report (see).
package clientdriver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/a2a-conform/a2a-conform/clientkit"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/clientrun/contract"
)

// Env is what the harness gives a driver: the kit's reading of the
// contract. Env.Tenant (A2A_CONFORM_TENANT) is ignored by the reference
// client, since the card's tenant must win.
type Env = clientkit.Env

// EnvFromOS reads the A2A_CONFORM_* variables.
func EnvFromOS() Env { return clientkit.Contract(nil) }

// Driver is one run of one action.
type Driver struct {
	env      Env
	faults   faultSet
	variants variantSet
	hc       *http.Client
	log      io.Writer
	// report is the result line; its state rule is the kit's.
	report *clientkit.Report
	// raised: the client raised an error already (the first one is reported).
	raised atomic.Bool

	// card cache
	card      *a2a.AgentCard
	etag      string
	modified  string // Last-Modified, else Date, of the stored card (if-modified-since)
	maxAge    time.Duration
	fetchedAt time.Time

	// the interface in use, and the ones left to fall back to
	cl         *client.Client
	candidates []a2a.AgentInterface

	mu sync.Mutex
	// cancelAck: the client's own cancel was acknowledged (what it does
	// next depends on it; the kit's state rule is told separately).
	cancelAck bool
	// adopted is the task resubmits-silently created in place of a lost
	// one, whose states it reports as the old task's.
	adopted string
	// rotatedCard: the card changed since the task began (a rotation).
	rotatedCard bool
	// fresh: the card was just fetched or revalidated, and no transition
	// has used that yet.
	fresh bool
}

// actions maps each action to its implementation (action_<name>.go).
var actions = map[string]func(ctx context.Context, d *Driver) error{}

func register(name string, f func(ctx context.Context, d *Driver) error) { actions[name] = f }

// ExitHung is what Run returns, printing nothing, when a fault made the
// client hang (hangs-on-lost-task): the command then blocks until the
// harness kills it.
const ExitHung = -1

// errHung is returned by an action whose client hangs.
var errHung = errors.New("the client hangs")

// Run performs env.Action, prints the result line on stdout and returns the
// exit status: 0 whenever the action ran (errors go in the result), 2 for
// an unknown action or fault, ExitHung when a fault made the client hang.
func Run(ctx context.Context, env Env, faults []string, stdout, stderr io.Writer) int {
	return RunWith(ctx, env, Config{Faults: faults}, stdout, stderr)
}

// Config selects the client faults and correct variants of one run.
type Config struct {
	Faults, Variants []string
}

// RunWith is Run with correct variants (variants.go) as well as faults.
func RunWith(ctx context.Context, env Env, c Config, stdout, stderr io.Writer) int {
	fs, err := newFaultSet(c.Faults)
	if err != nil {
		fmt.Fprintln(stderr, "client-driver:", err)
		return 2
	}
	vs, err := newVariantSet(c.Variants)
	if err != nil {
		fmt.Fprintln(stderr, "client-driver:", err)
		return 2
	}
	act, ok := actions[env.Action]
	if !ok {
		fmt.Fprintf(stderr, "client-driver: unknown action %q\n", env.Action)
		return 2
	}
	ctx, cancel := env.Context(ctx)
	defer cancel()
	d := &Driver{env: env, faults: fs, variants: vs, hc: &http.Client{Transport: fs.transport(vs.transport(http.DefaultTransport))},
		log: stderr, report: clientkit.NewReport(env.Action)}
	if err := act(ctx, d); err != nil {
		if errors.Is(err, errHung) {
			return ExitHung
		}
		d.fail(err)
	}
	if d.cl != nil {
		i := d.cl.Interface()
		d.report.UsedInterface(i.URL, i.ProtocolBinding)
	}
	// The reference driver is the harness's proof of the kit: it runs the
	// kit's receiver and state rule, and its verdicts must judge them (a
	// verdict resting only on pieces reported as the kit's is set aside as
	// not-applicable), or its faults could not fail the specs they name. So
	// it reports both pieces as the driver's own; every action's receiver
	// is closed by now.
	d.report.Supplied["push-receiver"] = "driver"
	d.report.Supplied["client-state"] = "driver"
	_ = d.report.Print(stdout)
	return 0
}

func (d *Driver) logf(format string, args ...any) {
	fmt.Fprintf(d.log, "client-driver: "+format+"\n", args...)
}

// fail records the client's error (the first one it raised).
func (d *Driver) fail(err error) {
	if err != nil && d.raised.CompareAndSwap(false, true) {
		d.report.Fail(err, errorRules)
	}
}

func (d *Driver) warn(format string, args ...any) { d.report.Warn(format, args...) }

// taskID and state are the client's task and the state it believes.
func (d *Driver) taskID() string {
	id, _, _ := d.report.Believed()
	return id
}

func (d *Driver) state() a2a.TaskState {
	_, _, st := d.report.Believed()
	return a2a.TaskState(st)
}

// see records what the client saw of a task through via (kind task,
// status, artifact or message; the latter two carry no state) and takes its
// state through the kit's state rule. A fault or variant that gives the
// client a rule of its own goes round the kit's: it records the event
// alone (Record) and decides the state itself.
func (d *Driver) see(via, kind, taskID, contextID string, st a2a.TaskState) {
	if d.faults.has(faultLosesContextID) {
		contextID = ""
	}
	state := string(st)
	own := taskID != "" && taskID == d.taskID()
	switch {
	case st == "":
	case own && d.canceled() && st != a2a.TaskStateCanceled && d.mergesAfterCancel(via):
		d.report.Record(via, kind, taskID, state, contextID)
		d.report.SetState(state)
		return
	case own && d.canceled() && st != a2a.TaskStateCanceled && d.variants.has(variantRaisesTerminalAfterCancel):
		d.report.Record(via, kind, taskID, state, contextID)
		d.fail(&client.Error{Class: client.Protocol, Op: via, Message: fmt.Sprintf("%s reported %s for task %s after its cancel was acknowledged; not merged", via, st, taskID)})
		return
	case !own && d.adopts(via, taskID):
		// Not the client's task, so the kit takes none of its states:
		// the fault does.
		d.report.Event(via, kind, taskID, state, contextID)
		d.report.SetState(state)
		return
	}
	d.report.Event(via, kind, taskID, state, contextID)
}

// seeTask is see for a whole task.
func (d *Driver) seeTask(via string, t *a2a.Task) {
	d.see(via, "task", t.ID, t.ContextID, t.Status.State)
}

// mergesAfterCancel says whether a cancel-guard fault lets a state seen
// through via past the guard.
func (d *Driver) mergesAfterCancel(via string) bool {
	return d.faults.has(faultMergesTerminalAfterCancel) ||
		(via == "stream" && d.faults.has(faultMergesStreamedTerminalAfterCancel)) ||
		(via == "poll" && d.faults.has(faultMergesPolledTerminalAfterCancel)) ||
		(via == "push" && d.faults.has(faultMergesPushedTerminalAfterCancel))
}

// adopts says whether a fault takes the state of a task that is not the
// client's own: a forged push (accepts-forged-push), or the task
// resubmits-silently created in place of a lost one.
func (d *Driver) adopts(via, taskID string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return (via == "push" && d.faults.has(faultAcceptsForgedPush)) || (taskID != "" && taskID == d.adopted)
}

// cancelAnswered takes the answer to the client's CancelTask: CANCELED
// acknowledges the cancel, for the client and for the kit's state rule.
func (d *Driver) cancelAnswered(t *a2a.Task) {
	d.seeTask("response", t)
	d.report.CancelAcknowledged(string(t.Status.State))
	if t.Status.State == a2a.TaskStateCanceled {
		d.mu.Lock()
		d.cancelAck = true
		d.mu.Unlock()
	}
}

func (d *Driver) canceled() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cancelAck
}

// resolve fetches the card, or revalidates the cached one (If-None-Match)
// when its max-age ran out or force is set, and chooses the interface.
// Every action starts with it; before each transition the client initiates
// (send, follow-up, cancel, push registration) it revalidates whatever the
// max-age (scenario 1: "never trusting a cached card beyond a single
// transition"); reads (GetTask polls) honour max-age.
func (d *Driver) resolve(ctx context.Context, force bool) error {
	if d.card != nil && ((!force && time.Since(d.fetchedAt) < d.maxAge) || d.faults.has(faultNeverRevalidates) || d.faults.has(faultResubmitsUnresolved)) {
		return nil // fresh: max-age honoured
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.env.CardURL, nil)
	if err != nil {
		return err
	}
	req.Header.Set(client.HeaderVersion, a2a.ProtocolVersion)
	if d.faults.has(faultNoVersionHeader) || d.variants.has(variantCardWithoutVersion) {
		req.Header.Del(client.HeaderVersion)
	}
	switch {
	case d.card == nil:
	case d.variants.has(variantIfModifiedSince):
		if d.modified != "" {
			req.Header.Set("If-Modified-Since", d.modified)
		}
	case d.etag != "" && !d.faults.has(faultIgnoresETag):
		req.Header.Set("If-None-Match", d.etag)
	}
	resp, err := d.hc.Do(req)
	if err != nil {
		return &client.Error{Class: client.Transport, Op: "card", Message: err.Error(), Err: err}
	}
	d.fresh = true
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	d.maxAge = maxAge(resp.Header.Get("Cache-Control"))
	d.fetchedAt = time.Now()
	if resp.StatusCode == http.StatusNotModified && d.card != nil && !d.faults.has(faultErrorsOn304) {
		d.report.Event("card", "card", "", "not-modified", "")
		return nil
	}
	if resp.StatusCode != http.StatusOK {
		return &client.Error{Class: client.HTTP, Op: "card", HTTPStatus: resp.StatusCode, Message: fmt.Sprintf("card answered %d", resp.StatusCode)}
	}
	card, err := client.DecodeCard(body)
	if err != nil {
		return &parseError{msg: err.Error()}
	}
	if len(card.Signatures) > 0 && !d.faults.has(faultSkipsSignatureCheck) {
		if err := d.verifyCard(ctx, body, card); err != nil {
			var bad *errBadSignature
			switch {
			case !errors.As(err, &bad):
				d.warn("the card's signature could not be checked: %v", err)
			case d.faults.has(faultTrustsBadSignature):
				d.warn("%v; the card is used all the same", err)
			default:
				return &client.Error{Class: client.Protocol, Op: "card", Message: err.Error()}
			}
		}
	}
	if d.faults.has(faultRejectsUnknownFields) && len(card.Extra) > 0 {
		return &parseError{msg: "card has unknown members " + strings.Join(card.Extra.Keys(), ", ")}
	}
	changed := d.card != nil && d.etag != resp.Header.Get("ETag")
	if changed && d.faults.has(faultRefusesMovedCard) && d.cl != nil && !declares(card, d.cl.Interface().URL) {
		return &client.Error{Class: client.Protocol, Op: "card",
			Message: "the card no longer declares the endpoint in use (" + d.cl.Interface().URL + "): refused"}
	}
	if changed {
		d.rotatedCard = true
	}
	d.card, d.etag = card, resp.Header.Get("ETag")
	if d.modified = resp.Header.Get("Last-Modified"); d.modified == "" {
		d.modified = resp.Header.Get("Date")
	}
	d.report.Event("card", "card", "", card.Version, "")
	if changed {
		d.logf("the card changed (version %s): choosing the interface again", card.Version)
	}
	if d.cl == nil || changed {
		return d.choose()
	}
	return nil
}

// maxAge reads Cache-Control max-age (0 when absent: revalidate each time).
func maxAge(cc string) time.Duration {
	for _, p := range strings.Split(cc, ",") {
		p = strings.TrimSpace(strings.ToLower(p))
		if v, ok := strings.CutPrefix(p, "max-age="); ok {
			if n, err := strconv.Atoi(v); err == nil && n > 0 {
				return time.Duration(n) * time.Second
			}
		}
		if p == "no-store" || p == "no-cache" {
			return 0
		}
	}
	return 0
}

// choose walks supportedInterfaces in order and keeps every one whose
// binding the client speaks, the first in use (§8.3.2), the rest to fall
// back to (§5.2).
func (d *Driver) choose() error {
	d.candidates = nil
	for _, i := range d.card.SupportedInterfaces {
		if d.faults.has(faultPicksFirstInterface) {
			// The bug class: the first entry, spoken in the client's
			// favourite binding whatever the entry declares.
			i.ProtocolBinding = a2a.BindingJSONRPC
			d.candidates = append(d.candidates, i)
			break
		}
		if d.speaks(i.ProtocolBinding) && d.speaksVersion(i.ProtocolVersion) {
			d.candidates = append(d.candidates, i)
		}
	}
	if d.faults.has(faultPicksLastInterface) {
		d.candidates = lastOfEachBinding(d.candidates)
	}
	if len(d.candidates) == 0 {
		return &client.Error{Class: client.Protocol, Op: "card", Message: "no declared interface uses a binding this client speaks"}
	}
	return d.next()
}

// lastOfEachBinding is the fault picks-last-interface: one interface per
// binding, the last one listed, the bindings in the order they first appear
// (what @a2a-js/sdk 1.3.0's ClientFactory keeps).
func lastOfEachBinding(in []a2a.AgentInterface) []a2a.AgentInterface {
	var out []a2a.AgentInterface
	at := map[string]int{}
	for _, i := range in {
		if k, ok := at[i.ProtocolBinding]; ok {
			out[k] = i
			continue
		}
		at[i.ProtocolBinding] = len(out)
		out = append(out, i)
	}
	return out
}

// next switches to the next candidate interface.
func (d *Driver) next() error {
	if len(d.candidates) == 0 {
		return errors.New("no declared interface left to fall back to")
	}
	iface := d.candidates[0]
	d.candidates = d.candidates[1:]
	if d.faults.has(faultDropsTenant) {
		iface.Tenant = ""
	}
	if d.faults.has(faultCallerTenantWins) && d.env.Tenant != "" {
		iface.Tenant = d.env.Tenant
	}
	opts := []client.Option{client.WithHTTPClient(d.hc)}
	if d.faults.has(faultNoVersionHeader) {
		opts = append(opts, client.WithVersion(""))
	}
	cl, err := client.New(iface, opts...)
	if err != nil {
		return err
	}
	d.cl = cl
	d.logf("using %s at %s", iface.ProtocolBinding, iface.URL)
	return nil
}

// getTask reads task id with GetTask (revalidating the card first when
// force, as a transition does) and takes what it says as a poll.
func (d *Driver) getTask(ctx context.Context, id string, force bool) (*a2a.Task, error) {
	var t *a2a.Task
	if err := d.do(ctx, force, func(c *client.Client) error {
		var e error
		t, e = c.GetTask(ctx, &a2a.GetTaskRequest{ID: id})
		return e
	}); err != nil {
		return nil, err
	}
	d.seeTask("poll", t)
	return t, nil
}

// call runs one read (GetTask, a subscription), with the card revalidated
// only when its max-age ran out, and falls back to the next declared
// interface when the connection is refused.
func (d *Driver) call(ctx context.Context, op func(c *client.Client) error) error {
	return d.do(ctx, false, op)
}

// transition runs one operation that changes a task (send, follow-up,
// cancel, push registration): the card is revalidated first, whatever its
// max-age.
func (d *Driver) transition(ctx context.Context, op func(c *client.Client) error) error {
	return d.do(ctx, true, op)
}

func (d *Driver) do(ctx context.Context, force bool, op func(c *client.Client) error) error {
	if force && d.fresh {
		// Revalidated just before, for this very transition.
		d.fresh = false
	} else {
		if err := d.resolve(ctx, force); err != nil {
			return err
		}
		if force {
			d.fresh = false
		}
	}
	for {
		err := op(d.cl)
		if err == nil || !refused(err) || d.faults.has(faultNoFallback) || len(d.candidates) == 0 {
			return err
		}
		d.warn("interface %s refused the connection; falling back to the next declared interface", d.cl.Interface().URL)
		if d.variants.has(variantFallsBackToOtherBinding) {
			d.preferOtherBinding(d.cl.Interface().ProtocolBinding)
		}
		if nerr := d.next(); nerr != nil {
			return err
		}
	}
}

func refused(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED)
}

// message builds a user message with one text part.
func message(text, taskID, contextID string) *a2a.Message {
	return &a2a.Message{MessageID: "msg-" + strconv.FormatInt(time.Now().UnixNano(), 36), Role: a2a.RoleUser,
		TaskID: taskID, ContextID: contextID, Parts: []a2a.Part{{Text: &text}}}
}

// pollUntilSettled polls GetTask until the task is terminal or interrupted.
func (d *Driver) pollUntilSettled(ctx context.Context, taskID string) error {
	for {
		var t *a2a.Task
		err := d.call(ctx, func(c *client.Client) error {
			var e error
			t, e = c.GetTask(ctx, &a2a.GetTaskRequest{ID: taskID})
			return e
		})
		if err != nil {
			if _, a2aErr := client.AsError(err); a2aErr && d.faults.has(faultErrorReadAsLastState) && classify(err) != contract.ClassTransport {
				d.logf("GetTask failed (%v): keeping the task as last seen", err)
				return nil
			}
			return err
		}
		if err := d.strict(t, nil); err != nil {
			return err
		}
		d.seeTask("poll", t)
		if t.Status.State.Terminal() || (t.Status.State.Interrupted() && !d.faults.has(faultInterruptedReadAsWorking)) {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// consume reads a stream to its end, taking every event it carries.
// onWorking is called once when the task is first seen WORKING.
func (d *Driver) consume(ctx context.Context, s *client.Stream, via string, onWorking func(taskID string)) error {
	defer s.Close()
	working := false
	for {
		ev, err := s.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if errors.Is(err, client.ErrUnknownEventKind) && !d.faults.has(faultAbortsOnUnknownEvent) {
			// A newer kind of event: ignored as an unknown field is (§5.7).
			d.logf("skipped a stream event of a kind this client does not know: %v", err)
			continue
		}
		if err != nil {
			return err
		}
		if err := d.strict(ev.Task, ev.Message); err != nil {
			return err
		}
		var id string
		var st a2a.TaskState
		switch {
		case ev.Task != nil:
			id, st = ev.Task.ID, ev.Task.Status.State
			d.seeTask(via, ev.Task)
		case ev.StatusUpdate != nil:
			u := ev.StatusUpdate
			id, st = u.TaskID, u.Status.State
			d.see(via, "status", u.TaskID, u.ContextID, st)
		case ev.ArtifactUpdate != nil:
			d.see(via, "artifact", ev.ArtifactUpdate.TaskID, ev.ArtifactUpdate.ContextID, "")
		case ev.Message != nil:
			d.see(via, "message", ev.Message.TaskID, ev.Message.ContextID, "")
		}
		if st == a2a.TaskStateWorking && !working && onWorking != nil {
			working = true
			onWorking(id)
		}
	}
}

// Main is the reference driver as a command (a2a-conform client-driver,
// and the tests' own slim build of it): it reads the harness's environment,
// runs the action with cfg's faults and variants, and returns the exit
// code: 2 when the harness's variables are missing, and never when a fault
// made the client hang (it blocks until the harness kills it at its
// deadline).
func Main(cfg Config, stdout, stderr io.Writer) int {
	env := EnvFromOS()
	if env.CardURL == "" || env.Action == "" {
		fmt.Fprintln(stderr, "client-driver: A2A_CONFORM_CARD_URL and A2A_CONFORM_ACTION must be set (the harness sets them; see docs/client-driver.md)")
		return 2
	}
	code := RunWith(context.Background(), env, cfg, stdout, stderr)
	if code == ExitHung {
		select {} // a hung client: the harness kills it at its deadline
	}
	return code
}
