package client

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/clientrun"
	"github.com/a2a-conform/a2a-conform/internal/loopback"
	"github.com/a2a-conform/a2a-conform/suites"
)

// Re-exported so that spec files need only this package.
type (
	// Agent is the scripted agent of a case (clientrun.Script).
	Agent = clientrun.Script
	// Interface is one declared interface of the scripted card.
	Interface = clientrun.Interface
	// Stage is the running scripted agent.
	Stage = clientrun.Stage
	// Rotation is a card rotation of the stage.
	Rotation = clientrun.Rotation
	// HookEvent is a point of the flow a script's Hook acts at.
	HookEvent = clientrun.HookEvent
	// Request is one request the client sent, as received.
	Request = clientrun.Request
	// Result is what the driver reported.
	Result = clientrun.Result
	// DriverRun is one run of the driver.
	DriverRun = clientrun.DriverRun
)

// The contract's actions.
const (
	Send      = clientrun.ActionSend
	Stream    = clientrun.ActionStream
	Poll      = clientrun.ActionPoll
	List      = clientrun.ActionList
	Cancel    = clientrun.ActionCancel
	FollowUp  = clientrun.ActionFollowUp
	Subscribe = clientrun.ActionSubscribe
	Push      = clientrun.ActionPush
	Resolve   = clientrun.ActionResolve
	// PushCancel is push, then a cancel once a push says WORKING.
	PushCancel = clientrun.ActionPushCancel
	// PushDefault is two new tasks by a client given a default push config.
	PushDefault = clientrun.ActionPushDefault
	// ExtendedCard is stream, the extended card, then stream again.
	ExtendedCard = clientrun.ActionExtendedCard
)

// Config is how the run invokes the vendor's driver.
type Config struct {
	// Template is --client-cmd; empty: no driver (every client spec is
	// could-not-run).
	Template string
	// Timeout is each case's budget (default 20s; A2A_CONFORM_TIMEOUT).
	Timeout time.Duration
	// OutputCap bounds stdout and stderr each (default 1 MiB).
	OutputCap int
	// Env is added to the driver's environment (tests: GOCOVERDIR…).
	Env []string
}

var (
	cfgMu sync.Mutex
	cfg   Config
	stats struct{ cases, connected int }
)

// Configure installs the driver configuration; the runner calls it before
// the specs run.
func Configure(c Config) {
	cfgMu.Lock()
	defer cfgMu.Unlock()
	cfg = c
	stats.cases, stats.connected = 0, 0
}

// Connected reports how many cases ran a driver and in how many the client
// reached the scripted agent at all (`a2a-conform client` exits 3 when it
// never did).
func Connected() (cases, connected int) {
	cfgMu.Lock()
	defer cfgMu.Unlock()
	return stats.cases, stats.connected
}

func config() Config {
	cfgMu.Lock()
	defer cfgMu.Unlock()
	return cfg
}

// DefaultTimeout is a case's budget when the run names none.
const DefaultTimeout = 20 * time.Second

// Case is one run of the driver against one scripted agent.
type Case struct {
	// Name is unique within the spec ("send", "after-rotation"…); the driver
	// gets "<spec ID>/<name>" as A2A_CONFORM_CASE.
	Name   string
	Action string
	Agent  Agent
	// Timeout overrides the run's budget for this case.
	Timeout time.Duration
	// CallerTenant is a tenant the application passes to its client
	// (A2A_CONFORM_TENANT), for the cases that check the card's own tenant
	// wins over it.
	CallerTenant string
	// HangIsEvidence returns the outcome of a driver that ran out of time
	// (killed, no result line) instead of ending the spec could-not-run, for
	// a spec whose question is whether the client ever reports (e.g. a lost
	// task it keeps polling): the spec then judges o.Driver.TimedOut with
	// o.Requests, and must itself keep a slow-but-progressing client from
	// failing ("late is not lost"). o.Result is an empty Result then.
	HangIsEvidence bool
}

// Outcome is what one case produced.
type Outcome struct {
	Case Case
	// Result is the driver's report (never nil: RunCase ends the spec when
	// there is none).
	Result *Result
	// Requests is every request the client sent to the stage, in order.
	Requests []Request
	Driver   *DriverRun
	// Stage is the (stopped) scripted agent: its Notes say what it did.
	Stage *Stage
	// Text and FollowUpText are what the driver was asked to send.
	Text, FollowUpText string
	// WebhookURL and PushToken are what a push case registered.
	WebhookURL, PushToken string
	// Tasks is the scripted agent's own record of the tasks it holds when
	// the driver has ended, with their push configs (TasksErr: why not).
	Tasks    []clientrun.StageTask
	TasksErr error
}

// Ops returns the requests that were A2A operations (not card fetches, nor
// fetches of the card's signing key set).
func (o *Outcome) Ops() []Request {
	var out []Request
	for _, r := range o.Requests {
		if !r.Card && r.Op != clientrun.OpKeySet && r.Op != clientrun.OpExtendedKeySet {
			out = append(out, r)
		}
	}
	return out
}

// CardFetches returns the card requests.
func (o *Outcome) CardFetches() []Request {
	var out []Request
	for _, r := range o.Requests {
		if r.Card {
			out = append(out, r)
		}
	}
	return out
}

// Where names a request in a violation: "request 3 (POST …/message:send, SendMessage)".
func Where(r Request) string {
	op := r.Op
	if op == "" {
		op = "unrecognised"
	}
	return fmt.Sprintf("request %d (%s %s, %s)", r.Seq, r.Method, r.Path, op)
}

// AfterOp is a Hook that calls f once, after the first answer to the named
// operation (e.g. "SendMessage").
func AfterOp(op string, f func(s *Stage)) func(*Stage, HookEvent) {
	var once sync.Once
	return func(s *Stage, e HookEvent) {
		if e.After && e.Request.Op == op {
			once.Do(func() { f(s) })
		}
	}
}

// BeforeOp is a Hook that calls f once, before the first request of the
// named operation is served.
func BeforeOp(op string, f func(s *Stage)) func(*Stage, HookEvent) {
	var once sync.Once
	return func(s *Stage, e HookEvent) {
		if !e.After && e.Request.Op == op {
			once.Do(func() { f(s) })
		}
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// RunCase runs the driver once against the case's scripted agent and
// returns what happened. When the driver could not do its action (no
// driver configured, could not start, hung, crashed, printed no result, or
// its client never reached the agent) it ends the spec could-not-run,
// naming the cause; it never fails a client for its driver's defects.
func RunCase(ctx context.Context, t *suites.T, c Case) *Outcome {
	conf := config()
	if strings.TrimSpace(conf.Template) == "" {
		t.CouldNotRun("no client driver is configured: client specs run under `a2a-conform client --client-cmd 'DRIVER …'` (docs/client-driver.md).")
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = conf.Timeout
	}
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	// The driver's budget never outlasts the spec's: a driver killed at its
	// own deadline is could-not-run with that cause, not a spec cut short.
	if dl, ok := ctx.Deadline(); ok {
		if left := time.Until(dl) - 2*time.Second; left < timeout {
			timeout = max(left, time.Second)
		}
	}
	caseName := t.Info.ID + "/" + c.Name
	o := &Outcome{Case: c,
		Text:         "a2a-conform case " + strings.ToLower(caseName) + " " + randomHex(4),
		FollowUpText: "a2a-conform follow-up of " + strings.ToLower(caseName) + " " + randomHex(4),
	}
	var rec clientrun.ServedRecorder
	if t.Env != nil && t.Env.Transcript != nil {
		rec, _ = t.Env.Transcript.(clientrun.ServedRecorder)
	}
	stage, err := clientrun.StartStage(ctx, c.Agent, clientrun.StageOptions{
		Text: o.Text, FollowUpText: o.FollowUpText, Recorder: rec, Owner: t.Info.ID})
	if err != nil {
		t.Indeterminate("harness error: the scripted agent of case %s did not start: %v", caseName, err)
	}
	o.Stage = stage
	defer stage.Close()
	o.PushToken = "a2a-conform-push-" + randomHex(12)
	if t.Env != nil && t.Env.Transcript != nil {
		t.Env.Transcript.AddSecret(o.PushToken)
	}
	var run *clientrun.DriverRun
	// The receiver's port is free when the harness picks it, but another
	// program may take it before the driver binds it: a driver that
	// stopped on that, before its client sent anything, runs once more on
	// another port.
	for try := 1; ; try++ {
		listen, err := loopback.FreeAddr()
		if err != nil {
			t.Indeterminate("harness error: no loopback port for the webhook receiver: %v", err)
		}
		o.WebhookURL = "http://" + listen + "/a2a-conform/webhook"
		vars := clientrun.Vars{CardURL: stage.CardURL(), Case: caseName, Action: c.Action,
			Text: o.Text, FollowUpText: o.FollowUpText, WebhookListen: listen, WebhookURL: o.WebhookURL,
			PushToken: o.PushToken, Tenant: c.CallerTenant, Timeout: timeout}
		run = clientrun.RunDriver(ctx, clientrun.DriverOptions{Template: conf.Template, Vars: vars,
			OutputCap: conf.OutputCap, Env: conf.Env})
		if try > 1 || len(stage.Requests()) > 0 || !portTaken(run) || ctx.Err() != nil {
			break
		}
		t.Observe("case "+c.Name+": webhook port", fmt.Sprintf("%s was taken before the driver bound it (%s); run again on another port", listen, cut(runError(run), 300)))
	}
	o.Driver, o.Result, o.Requests = run, run.Result, stage.Requests()
	o.Tasks, o.TasksErr = stage.Tasks(ctx)
	if run.Result != nil {
		t.SuppliedBy(run.Result.Supplied)
	}
	t.Observe("case "+c.Name, summary(o))
	if len(run.Stderr) > 0 {
		t.Observe("case "+c.Name+": driver stderr (tail)", clientrun.Tail(run.Stderr, 2000))
	}
	if n := stage.Notes(); len(n) > 0 {
		t.Observe("case "+c.Name+": scripted agent", strings.Join(n, "; "))
	}
	cfgMu.Lock()
	stats.cases++
	if len(o.Requests) > 0 {
		stats.connected++
	}
	cfgMu.Unlock()
	if c.HangIsEvidence && run.TimedOut && run.StartErr == nil && len(o.Requests) > 0 {
		if o.Result == nil {
			o.Result = &Result{}
		}
		return o
	}
	if !run.OK() {
		t.CouldNotRun("case %s: %s.", caseName, run.Cause())
	}
	if len(o.Requests) == 0 {
		t.CouldNotRun("case %s: the client driver ran but its client never reached the scripted agent at %s (no request arrived); check that the driver resolves A2A_CONFORM_CARD_URL.", caseName, stage.CardURL())
	}
	return o
}

// portTaken says a driver stopped because its push receiver's port was in
// use, as its result's error or its stderr says.
func portTaken(run *clientrun.DriverRun) bool {
	return strings.Contains(runError(run), "address already in use")
}

func runError(run *clientrun.DriverRun) string {
	msg := string(run.Stderr)
	if run.Result != nil && run.Result.Error != nil {
		msg = run.Result.Error.Message + " " + msg
	}
	return msg
}

func summary(o *Outcome) string {
	d := o.Driver
	s := fmt.Sprintf("action %s; driver %q ran %s, %s", o.Case.Action, strings.Join(d.Argv, " "), d.Duration.Round(time.Millisecond), d.ExitText)
	if d.TimedOut {
		s += " (timed out, killed)"
	}
	s += fmt.Sprintf("; %d requests reached the scripted agent", len(o.Requests))
	if d.ResultLine != "" {
		s += "; result: " + d.ResultLine
	}
	return s
}
