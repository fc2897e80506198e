package topology

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// Hook points: the moments of a spec at which the hooks driver runs one of
// the vendor's commands (DESIGN.md "Topology").
const (
	// HookRotateCard changes the card the deployment serves (a new version,
	// interfaces or auth) and returns once every instance serves it.
	HookRotateCard = "rotate-card"
	// HookRestartInstance restarts the agent's instance(s) with the same
	// build and card, and returns once they serve again.
	HookRestartInstance = "restart-instance"
	// HookRolloutStep takes the deployment to the next build (all of it: a
	// canary that needs several promotions does them in one command) and
	// returns once the rollout is done.
	HookRolloutStep = "rollout-step"
)

// HookPointNames lists the hook points in the order the documentation gives
// them.
var HookPointNames = []string{HookRotateCard, HookRestartInstance, HookRolloutStep}

// DefaultHookTimeout bounds one hook command when the configuration does not:
// a Kubernetes rollout of a few pods with readiness probes takes a minute or
// two, and `kubectl rollout status` waits for all of it.
const DefaultHookTimeout = 5 * time.Minute

// HookStopGrace is how long a hook command that outlived its timeout has
// between SIGTERM to its process group and SIGKILL.
const HookStopGrace = 5 * time.Second

// hookOutputWait bounds the wait for a hook's output to reach its end after
// the command exited: something it started in the background may hold the
// pipe open, and its output is not the hook's.
const hookOutputWait = time.Second

// hookTailLines is how many of a hook's last output lines a successful run's
// account quotes (a failure quotes TailLines).
const hookTailLines = 5

// maxHookValue caps a task id or an instance name passed to a hook: both
// come from the agent, which is untrusted.
const maxHookValue = 256

// HookEnvVars documents the environment of every hook command, beside the
// harness's own environment, which it inherits. docs/config-reference.md is
// generated from it.
var HookEnvVars = []struct{ Name, Meaning string }{
	{"A2A_CONFORM_POINT", "the hook point: `rotate-card`, `restart-instance` or `rollout-step`"},
	{"A2A_CONFORM_TARGET", "the `--target` URL"},
	{"A2A_CONFORM_GENERATION", "the generation the deployment is at when the hook has run: 1 at the start of the run, one more after each `rotate-card` or `rollout-step` that succeeded (so 2 for the first); `restart-instance` keeps it"},
	{"A2A_CONFORM_SPEC", "the ID of the spec running the hook, e.g. `ROLL-002`"},
	{"A2A_CONFORM_TASK_IDS", "the ids of the tasks the spec has running, comma-separated; empty when it has none (an id that holds a comma, a space or a control character, or is over 256 bytes, is left out)"},
	{"A2A_CONFORM_INSTANCE", "the instance that served the spec's task, as the agent named it in an `A2A-Conform-Instance` response header; empty when unknown (the harness cannot see instances behind your endpoint)"},
}

// HooksOptions configure the hooks driver.
type HooksOptions struct {
	// Target is the deployment's base URL (--target): passed to the
	// commands, and polled after each until it serves its card.
	Target string
	// Commands maps a hook point to a shell command line, run with
	// /bin/sh -c as given (no placeholders: the values are in the
	// environment, HookEnvVars).
	Commands map[string]string
	// Timeout bounds each command (default DefaultHookTimeout).
	Timeout time.Duration
	// ReadyTimeout bounds the wait for the target to serve its card after a
	// command returned (default ReadyTimeout).
	ReadyTimeout time.Duration
	// StopGrace overrides HookStopGrace (tests shorten it).
	StopGrace time.Duration
	// Log receives each command's start, output (each line prefixed with
	// "[hook POINT] ") and end; nil discards it.
	Log io.Writer
}

// Hooks is the hooks driver: a deployment the harness does not run and
// cannot see into (a staging endpoint behind the vendor's own balancer),
// changed only by running the vendor's commands at scripted points. It
// offers no instances, so the specs that need to address one cannot run.
type Hooks struct {
	o    HooksOptions
	log  *lineLog
	run  sync.Mutex // one hook at a time
	mu   sync.Mutex
	gen  int
	runs int
}

// NewHooks checks the commands and returns the driver; nothing runs yet.
func NewHooks(o HooksOptions) (*Hooks, error) {
	if o.Target == "" {
		return nil, errors.New("hooks driver: no target")
	}
	cmds := map[string]string{}
	for p, c := range o.Commands {
		if !knownPoint(p) {
			return nil, fmt.Errorf("hooks driver: unknown hook point %q (known: %s)", p, strings.Join(HookPointNames, ", "))
		}
		if strings.TrimSpace(c) != "" {
			cmds[p] = c
		}
	}
	if len(cmds) == 0 {
		return nil, errors.New("hooks driver: no hook command")
	}
	if err := ownGroup(exec.Command("/bin/sh")); err != nil {
		return nil, errors.New("hooks driver: needs a Unix system (it runs /bin/sh -c and stops process groups)")
	}
	o.Commands = cmds
	if o.Timeout <= 0 {
		o.Timeout = DefaultHookTimeout
	}
	if o.ReadyTimeout <= 0 {
		o.ReadyTimeout = ReadyTimeout
	}
	if o.StopGrace <= 0 {
		o.StopGrace = HookStopGrace
	}
	return &Hooks{o: o, log: &lineLog{w: o.Log}, gen: 1}, nil
}

func knownPoint(p string) bool {
	for _, k := range HookPointNames {
		if k == p {
			return true
		}
	}
	return false
}

// Driver names the driver.
func (h *Hooks) Driver() string { return DriverHooks }

// HookPoints lists the points that have a command, in HookPointNames order.
func (h *Hooks) HookPoints() []string {
	var out []string
	for _, p := range HookPointNames {
		if _, ok := h.o.Commands[p]; ok {
			out = append(out, p)
		}
	}
	return out
}

// Generation is the deployment's generation as the harness counts it: 1,
// then one more after each rotate-card or rollout-step that succeeded.
func (h *Hooks) Generation() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.gen
}

// HookError says why a hook did not complete: its command exited non-zero,
// outlived its timeout, could not start, or the target did not serve its
// card afterwards. A spec that needed the hook is could-not-run with it:
// the deployment's state is then unknown, and nothing about the agent
// follows from it.
type HookError struct {
	Point   string
	Command string
	// Status is the command's end: "exit status 3", "timed out after 5m0s
	// …", "could not be started: …".
	Status string
	Took   time.Duration
	// Reason is set when the command succeeded and what followed failed
	// (the target did not serve its card).
	Reason string
	// Output is the command's last output lines (at most TailLines).
	Output []string
}

func (e *HookError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "hook %s (/bin/sh -c %s) ", e.Point, strconv.Quote(e.Command))
	if e.Reason != "" {
		fmt.Fprintf(&b, "returned (%s after %s), but %s", e.Status, e.Took.Round(time.Millisecond), e.Reason)
	} else {
		fmt.Fprintf(&b, "failed: %s after %s", e.Status, e.Took.Round(time.Millisecond))
	}
	writeOutputTail(&b, e.Output)
	return b.String()
}

// RunHook runs point's command with /bin/sh -c in a process group of its
// own, its environment the harness's plus HookEnvVars (spec, the ids of the
// tasks the spec has running, and the instance that served them, "" when
// unknown). It waits until the command exits (at most the timeout, after
// which the group gets SIGTERM, then SIGKILL after the grace) and then until
// the target answers its card with anything but 502, 503 or 504 or a refused
// connection (at most ReadyTimeout). It returns the generation the
// deployment is at afterwards and a one-line account of the run (exit
// status, time, the tail of its output) for the spec to record; on failure
// the error is a *HookError.
func (h *Hooks) RunHook(ctx context.Context, point, spec string, taskIDs []string, instance string) (int, string, error) {
	command, ok := h.o.Commands[point]
	if !ok {
		return h.Generation(), "", fmt.Errorf("hooks driver: no command for hook %s (configured: %s)", point, strings.Join(h.HookPoints(), ", "))
	}
	h.run.Lock()
	defer h.run.Unlock()
	h.mu.Lock()
	gen := h.gen
	h.runs++
	n := h.runs
	h.mu.Unlock()
	next := gen
	if point != HookRestartInstance {
		next = gen + 1
	}
	ids, dropped := hookTaskIDs(taskIDs)
	env := append(os.Environ(),
		"A2A_CONFORM_POINT="+point,
		"A2A_CONFORM_TARGET="+h.o.Target,
		"A2A_CONFORM_GENERATION="+strconv.Itoa(next),
		"A2A_CONFORM_SPEC="+hookValue(spec),
		"A2A_CONFORM_TASK_IDS="+strings.Join(ids, ","),
		"A2A_CONFORM_INSTANCE="+hookValue(instance),
	)
	h.log.line(fmt.Sprintf("[harness] hook %s #%d for %s (generation %d, tasks [%s], instance %q): /bin/sh -c %s",
		point, n, spec, next, strings.Join(ids, ","), hookValue(instance), strconv.Quote(command)))
	res := h.exec(ctx, point, command, env)
	h.log.line(fmt.Sprintf("[harness] hook %s #%d: %s after %s", point, n, res.status, res.took.Round(time.Millisecond)))
	account := fmt.Sprintf("%s after %s", res.status, res.took.Round(time.Millisecond))
	if dropped > 0 {
		account += fmt.Sprintf(", %d task id(s) left out of A2A_CONFORM_TASK_IDS (a comma, space or control character, or over %d bytes)", dropped, maxHookValue)
	}
	if !res.ok {
		return gen, account, &HookError{Point: point, Command: command, Status: res.status, Took: res.took, Output: res.output}
	}
	took, err := h.waitTarget(ctx)
	if err != nil {
		h.log.line(fmt.Sprintf("[harness] hook %s #%d: %v", point, n, err))
		return gen, account, &HookError{Point: point, Command: command, Status: res.status, Took: res.took, Output: res.output, Reason: err.Error()}
	}
	h.mu.Lock()
	h.gen = next
	h.mu.Unlock()
	account += fmt.Sprintf(", generation %d; the target served its card %s later", next, took.Round(time.Millisecond))
	if tail := lastLines(res.output, hookTailLines); len(tail) > 0 {
		account += fmt.Sprintf("; its last %d output line(s): %s", len(tail), strings.Join(tail, " | "))
	} else {
		account += "; it wrote no output"
	}
	return next, account, nil
}

type hookResult struct {
	ok     bool
	status string
	took   time.Duration
	output []string
}

// exec runs one command to its end or its timeout.
func (h *Hooks) exec(ctx context.Context, point, command string, env []string) hookResult {
	began := time.Now()
	out := &prefixWriter{prefix: "[hook " + point + "] ", log: h.log}
	fail := func(status string) hookResult {
		return hookResult{status: status, took: time.Since(began), output: out.tailLines()}
	}
	// Our own pipe rather than exec's: exec's Wait would also wait for
	// anything the command left running in the background holding it.
	r, w, err := os.Pipe()
	if err != nil {
		return fail("could not be started: " + err.Error())
	}
	cmd := exec.Command("/bin/sh", "-c", command)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = w, w
	if err := ownGroup(cmd); err != nil {
		r.Close()
		w.Close()
		return fail("could not be started: " + err.Error())
	}
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return fail("could not be started: " + err.Error())
	}
	w.Close()
	outDone := make(chan struct{})
	go func() {
		defer close(outDone)
		_, _ = io.Copy(out, r)
	}()
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	timer := time.NewTimer(h.o.Timeout)
	defer timer.Stop()
	why := ""
	select {
	case <-exited:
	case <-timer.C:
		why = fmt.Sprintf("timed out after %s", h.o.Timeout)
	case <-ctx.Done():
		why = "stopped: the spec's time ran out while it ran"
	}
	if why != "" {
		if stopGroup(cmd.Process.Pid, exited, h.o.StopGrace) {
			why += fmt.Sprintf("; its process group got SIGTERM, then SIGKILL after %s", h.o.StopGrace)
		} else {
			why += "; its process group got SIGTERM and ended"
		}
	}
	<-exited
	select {
	case <-outDone:
	case <-time.After(hookOutputWait):
	}
	r.Close()
	<-outDone
	out.flush()
	res := hookResult{took: time.Since(began), output: out.tailLines()}
	switch {
	case why != "":
		res.status = why
	case cmd.ProcessState.Success():
		res.ok, res.status = true, cmd.ProcessState.String()
	default:
		res.status = cmd.ProcessState.String()
	}
	return res
}

// waitTarget polls the target's card until it answers with anything but
// 502, 503 or 504 (a gateway or an agent still starting) or a transport
// error, at most ReadyTimeout: a hook that returned while its rollout is
// still settling must not make the spec judge a target that is not there.
func (h *Hooks) waitTarget(ctx context.Context) (time.Duration, error) {
	began := time.Now()
	client := cardProbeClient()
	defer client.CloseIdleConnections()
	rctx, cancel := context.WithTimeout(ctx, h.o.ReadyTimeout)
	defer cancel()
	last := "no answer yet"
	for {
		status, err := cardStatus(rctx, client, h.o.Target)
		switch {
		case err == nil && status != http.StatusBadGateway && status != http.StatusServiceUnavailable && status != http.StatusGatewayTimeout:
			return time.Since(began), nil
		case err == nil:
			last = fmt.Sprintf("the card answered %d", status)
		default:
			last = err.Error()
		}
		select {
		case <-rctx.Done():
			if ctx.Err() != nil {
				return time.Since(began), fmt.Errorf("the spec's time ran out while the harness waited for the target to serve its card (last attempt: %s)", last)
			}
			return time.Since(began), fmt.Errorf("the target did not serve its card within %s after it (last attempt: %s)", h.o.ReadyTimeout, last)
		case <-time.After(readyPoll):
		}
	}
}

// hookTaskIDs keeps, in order and once each, the ids that a comma-separated
// list can carry intact, and reports how many it left out.
func hookTaskIDs(ids []string) ([]string, int) {
	var out []string
	dropped := 0
	seen := map[string]bool{}
	for _, id := range ids {
		if id == "" || len(id) > maxHookValue || !utf8.ValidString(id) || strings.IndexFunc(id, func(r rune) bool {
			return r == ',' || unicode.IsSpace(r) || unicode.IsControl(r)
		}) >= 0 {
			dropped++
			continue
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out, dropped
}

// hookValue bounds an agent-supplied value for the environment: valid
// UTF-8, no control characters (an environment entry cannot hold NUL),
// at most maxHookValue bytes; anything else is passed as "".
func hookValue(s string) string {
	if len(s) > maxHookValue || !utf8.ValidString(s) || strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return ""
	}
	return s
}

func lastLines(lines []string, n int) []string {
	if len(lines) > n {
		return lines[len(lines)-n:]
	}
	return lines
}
