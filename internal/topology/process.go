package topology

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/loopback"
)

// HarnessPIDEnv names, in every agent command's environment, the process
// ID of the harness that started it. The kernel stops the command's first
// process when the harness dies (dieWithHarness), but /bin/sh may not exec
// the command it runs (Debian's dash does not), and a process it started
// then outlives a harness killed with SIGKILL, which no cleanup code
// survives. An agent may watch the PID and stop when it is gone; the
// reference agent (a2a-conform fake) does.
const HarnessPIDEnv = "A2A_CONFORM_HARNESS_PID"

// ReadyTimeout bounds how long StartProcess waits for every instance to serve
// its card. It covers a cold start of a real agent (runtime start-up, store
// migrations); an instance that is still not serving after it is reported as
// unreachable rather than waited on.
const ReadyTimeout = 30 * time.Second

// StopGrace is how long Close lets an instance's process group drain after
// SIGTERM before it sends SIGKILL, matching the embedded driver's drain.
const StopGrace = 5 * time.Second

// TailLines is how many of an instance's last output lines a start error
// quotes, enough to show a stack trace's head or a usage message.
const TailLines = 20

// maxLineBytes caps one quoted or logged output line: the agent's output is
// untrusted and a line without a newline must not grow without bound.
const maxLineBytes = 1024

// MaxLogBytes caps what the instances may write to the run's agent log in
// total; past it lines are dropped (the tail quoted in errors is still kept).
const MaxLogBytes = 32 << 20

// readyPoll is the pause between card requests while an instance starts.
const readyPoll = 100 * time.Millisecond

// readyRequestTimeout bounds one readiness request, so that an instance that
// accepts connections and never answers cannot stall the wait past its bound.
const readyRequestTimeout = 2 * time.Second

// ProcessOptions configure the process driver.
type ProcessOptions struct {
	// Cmd is the vendor's command template: a shell command line run with
	// /bin/sh -c after the placeholders are replaced. {port} is a free
	// loopback port per instance, {instance} the instance's index (0, 1, …),
	// {generation} its generation (1 for the instances started here), {store}
	// the path Dir/store.db, one per run and the same for every instance. The
	// values substituted are ours (numbers and a path checked to hold no shell
	// metacharacters), so substitution cannot inject shell syntax; the rest of
	// the template is the vendor's own command line.
	Cmd string
	// Instances is how many instances to start (default 1).
	Instances int
	// Dir holds the shared store; empty means a temporary directory that
	// Close removes.
	Dir string
	// Log receives the instances' combined stdout and stderr, each line
	// prefixed with "[agent N] "; nil discards it (start errors still quote
	// the last lines).
	Log io.Writer
	// ReadyTimeout and StopGrace override the package's bounds of the same
	// names (tests shorten them).
	ReadyTimeout time.Duration
	StopGrace    time.Duration
	// Next is the next generation's command template (--agent-cmd-next),
	// used by Roll; empty means Cmd again.
	Next string
	// Balance puts the harness's load balancer in front of the instances
	// (process_roll.go), and its CDN in front of the balancer
	// (builds.go); URL is then the balancer's.
	Balance bool
}

// Process runs vendor agent instances as local processes, each in its own
// process group so that stopping an instance stops everything it started.
type Process struct {
	mu        sync.Mutex
	instances []*procInstance
	ownDir    string
	log       *lineLog
	grace     time.Duration
	closed    bool
	// For rolling replacement (process_roll.go).
	roll rollState
	// ports holds every loopback port an instance was started on, in any
	// generation (IsInstanceOrigin).
	ports map[int]bool
	// exits are the instances' exits the harness did not cause (under mu).
	exits []Exit
}

// Exit is an instance's exit the harness did not cause: the agent died
// (crashed, was killed, or returned) while the run needed it. The run
// reports it, and the specs it affects are not judged on the harness's own
// errors reaching a dead agent.
type Exit struct {
	Instance int
	// Status is the process's exit status ("exit status 1", "signal: killed").
	Status string
	At     time.Time
	// Output is the instance's last output lines (at most TailLines).
	Output []string
	// Replaced is when the harness started another process in the slot
	// (a roll or restart); zero while the slot stays dead.
	Replaced time.Time

	in *procInstance
}

// UnexpectedExits lists the instances' exits the harness did not cause, in
// order.
func (p *Process) UnexpectedExits() []Exit {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Exit(nil), p.exits...)
}

type procInstance struct {
	index   int
	port    int
	url     string
	command string
	cmd     *exec.Cmd
	out     *prefixWriter
	outDone chan struct{} // the output pipe reached EOF
	exited  chan struct{} // the shell exited and was reaped
	state   *os.ProcessState
	stopped bool // Close is stopping it: an exit is expected, not news
	// collided: it died because another program took its port before it
	// bound it (the harness's own race, see launch), so its exit is not the
	// agent's.
	collided bool
}

// StartError says why an instance did not come up. Prepare reports it as
// "could not reach the target", not as a usage error: the configuration was
// valid, the agent did not serve.
type StartError struct {
	Instance int
	// URL is where the instance was expected to serve.
	URL string
	// Command is the shell command line with the placeholders substituted.
	Command string
	// Status is the process's exit status ("exit status 7", "signal:
	// killed"), empty while it was still running.
	Status string
	// Reason is what went wrong ("exited before it served its card", …).
	Reason string
	// Output is the instance's last output lines (at most TailLines).
	Output []string
}

func (e *StartError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "agent instance %d (%s) %s", e.Instance, e.URL, e.Reason)
	if e.Status != "" {
		fmt.Fprintf(&b, " (%s)", e.Status)
	}
	fmt.Fprintf(&b, "; command: /bin/sh -c %s", strconv.Quote(e.Command))
	writeOutputTail(&b, e.Output)
	return b.String()
}

// safePath is what a substituted path may contain: nothing the shell would
// interpret, whatever quoting the template puts around the placeholder.
var safePath = regexp.MustCompile(`^[A-Za-z0-9/._+-]+$`)

// Substitute replaces the template's placeholders; unknown braces are left
// to the shell.
func Substitute(tmpl string, port, instance, generation int, store string) string {
	return strings.NewReplacer(
		"{port}", strconv.Itoa(port),
		"{instance}", strconv.Itoa(instance),
		"{generation}", strconv.Itoa(generation),
		"{store}", store,
	).Replace(tmpl)
}

// StartProcess starts o.Instances instances of the vendor's command and waits
// (at most ReadyTimeout) until each answers GET /.well-known/agent-card.json.
// A 503 or a refused connection means "not yet"; any other answer means the
// instance serves (a card that is not 200 is for the specs to judge, not a
// reason to wait until the deadline). An instance that
// exits, or is still not serving at the deadline, stops every instance and
// returns a *StartError naming it.
//
// Ports are found by listening on a free loopback port (below the ephemeral
// range where the system has one: loopback.FreePorts) and closing the
// listener before the instance starts: another program may take the port in
// between. The window is small; when it happens the instance fails to bind
// and its error shows it.
func StartProcess(ctx context.Context, o ProcessOptions) (*Process, error) {
	// The ports are free when chosen but released before the agent binds
	// them, so another process may take one in between. An instance that
	// says so is started again on fresh ports, a bounded number of times.
	var se *StartError
	return onFreshPorts(func() (*Process, error) { return startOnce(ctx, o) },
		func(_ *Process, err error) bool { return errors.As(err, &se) && portTaken(se) },
		func(next int) {
			if o.Log != nil {
				fmt.Fprintf(o.Log, "[harness] instance %d's port was taken before it could bind it; starting again on fresh ports (attempt %d of %d)\n", se.Instance, next, portAttempts)
			}
		})
}

// portAttempts bounds the restarts after a port race.
const portAttempts = 3

// onFreshPorts runs start, which picks fresh ports each time, again while
// it fails because another program took a port between the choice and the
// bind (raced), at most portAttempts times in all; say is told before each
// new attempt, with its number. Agents started at once (StartProcess) and
// one by one in a roll (Process.launch) retry the same way.
func onFreshPorts[T any](start func() (T, error), raced func(T, error) bool, say func(next int)) (T, error) {
	for attempt := 1; ; attempt++ {
		v, err := start()
		if err == nil || attempt == portAttempts || !raced(v, err) {
			return v, err
		}
		say(attempt + 1)
	}
}

// portTaken reports an instance that failed because its port was in use.
func portTaken(se *StartError) bool {
	for _, l := range se.Output {
		if strings.Contains(l, "address already in use") {
			return true
		}
	}
	return false
}

func startOnce(ctx context.Context, o ProcessOptions) (*Process, error) {
	if strings.TrimSpace(o.Cmd) == "" {
		return nil, errors.New("process driver: empty agent command")
	}
	if o.Instances <= 0 {
		o.Instances = 1
	}
	if o.ReadyTimeout <= 0 {
		o.ReadyTimeout = ReadyTimeout
	}
	if o.StopGrace <= 0 {
		o.StopGrace = StopGrace
	}
	p := &Process{log: &lineLog{w: o.Log}, grace: o.StopGrace, roll: rollState{cmd: o.Cmd, first: o.Cmd, next: o.Next, gen: 1, ready: o.ReadyTimeout}}
	dir := o.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "a2a-conform-agent-")
		if err != nil {
			return nil, fmt.Errorf("process driver: %w", err)
		}
		dir, p.ownDir = d, d
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("process driver: %w", err)
	}
	store := filepath.Join(dir, "store.db")
	if !safePath.MatchString(store) {
		p.Close()
		return nil, fmt.Errorf("process driver: store path %q holds characters the shell would interpret; use a work directory without them", store)
	}
	p.roll.store = store
	ports, err := loopback.FreePorts(o.Instances)
	if err != nil {
		p.Close()
		return nil, fmt.Errorf("process driver: %w", err)
	}
	for i, port := range ports {
		in, err := p.spawn(i, Substitute(o.Cmd, port, i, 1, store), port)
		if err != nil {
			p.Close()
			return nil, err
		}
		p.mu.Lock()
		p.instances = append(p.instances, in)
		p.mu.Unlock()
	}

	rctx, cancel := context.WithTimeout(ctx, o.ReadyTimeout)
	defer cancel()
	errs := make(chan error, len(p.instances))
	for _, in := range p.instances {
		go func() { errs <- in.waitReady(rctx, cancel, o.ReadyTimeout) }()
	}
	var first error
	for range p.instances {
		if err := <-errs; err != nil && (first == nil || errors.Is(first, errReadyCanceled)) {
			first = err
		}
	}
	if first != nil {
		p.Close()
		if errors.Is(first, errReadyCanceled) && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, first
	}
	if o.Balance {
		if err := p.balance(); err != nil {
			p.Close()
			return nil, err
		}
	}
	return p, nil
}

func (p *Process) spawn(index int, command string, port int) (*procInstance, error) {
	p.mu.Lock()
	if p.ports == nil {
		p.ports = map[int]bool{}
	}
	p.ports[port] = true
	for i := range p.exits {
		if p.exits[i].Instance == index && p.exits[i].Replaced.IsZero() {
			p.exits[i].Replaced = time.Now()
		}
	}
	p.mu.Unlock()
	in := &procInstance{
		index: index, command: command, port: port,
		url:     "http://127.0.0.1:" + strconv.Itoa(port),
		out:     &prefixWriter{prefix: fmt.Sprintf("[agent %d] ", index), log: p.log},
		outDone: make(chan struct{}), exited: make(chan struct{}),
	}
	// Our own pipe rather than exec's: exec's Wait would also wait for every
	// grandchild holding the pipe, and we must learn at once that the shell
	// itself exited.
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("process driver: %w", err)
	}
	in.cmd = exec.Command("/bin/sh", "-c", command)
	in.cmd.Env = append(os.Environ(), HarnessPIDEnv+"="+strconv.Itoa(os.Getpid()))
	in.cmd.Stdin = nil
	in.cmd.Stdout, in.cmd.Stderr = w, w
	if err := ownGroup(in.cmd); err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	if err := in.cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil, &StartError{Instance: index, URL: in.url, Command: command, Reason: "could not be started: " + err.Error()}
	}
	w.Close()
	go func() {
		defer close(in.outDone)
		defer r.Close()
		_, _ = io.Copy(in.out, r)
		in.out.flush()
	}()
	go func() {
		_ = in.cmd.Wait()
		p.mu.Lock()
		in.state = in.cmd.ProcessState
		stopped := in.stopped
		p.mu.Unlock()
		at := time.Now()
		close(in.exited)
		if !stopped {
			p.log.line(fmt.Sprintf("[harness] agent %d exited: %s", index, in.state))
			// Its last words: the pipe ends once every process holding it
			// has; a grandchild may hold it open, so wait only briefly.
			select {
			case <-in.outDone:
			case <-time.After(200 * time.Millisecond):
			}
			p.mu.Lock()
			if !in.collided {
				p.exits = append(p.exits, Exit{Instance: index, Status: in.state.String(), At: at, Output: in.out.tailLines(), in: in})
			}
			p.mu.Unlock()
		}
	}()
	return in, nil
}

var errReadyCanceled = errors.New("readiness wait canceled")

// waitReady polls the instance's card until it answers, the process exits or
// ctx ends. On failure it cancels the other instances' waits.
func (in *procInstance) waitReady(ctx context.Context, cancel func(), bound time.Duration) error {
	client := cardProbeClient()
	defer client.CloseIdleConnections()
	last := "no answer yet"
	for {
		status, err := cardStatus(ctx, client, in.url)
		switch {
		case err == nil && status != http.StatusServiceUnavailable:
			// Any answer but 503 means the instance serves; what its card
			// says (even a 404) is for the specs to judge.
			return nil
		case err == nil:
			last = "the card answered 503 (still starting)"
		default:
			last = err.Error()
		}
		select {
		case <-in.exited:
			cancel()
			return in.startError("exited before it served its card")
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				cancel()
				return in.startError(fmt.Sprintf("did not serve its card within %s (last attempt: %s)", bound, last))
			}
			return errReadyCanceled
		case <-time.After(readyPoll):
		}
	}
}

// cardProbeClient is the client of the drivers' card probes (readiness, a
// hook's target, a drain's sign): no proxy, a fresh connection each time so
// that a stopped instance is seen at once, each request bounded by
// readyRequestTimeout, and redirects answered as they are.
func cardProbeClient() *http.Client {
	return &http.Client{
		Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true},
		Timeout:   readyRequestTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

func cardStatus(ctx context.Context, c *http.Client, base string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/.well-known/agent-card.json", nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	resp.Body.Close()
	return resp.StatusCode, nil
}

// startError waits briefly for the output to drain so that the quoted lines
// include what the instance printed on its way out.
func (in *procInstance) startError(reason string) *StartError {
	e := &StartError{Instance: in.index, URL: in.url, Command: in.command, Reason: reason}
	select {
	case <-in.exited:
		select {
		case <-in.outDone:
		case <-time.After(500 * time.Millisecond):
		}
		e.Status = in.cmd.ProcessState.String()
	default:
	}
	e.Output = in.out.tailLines()
	return e
}

// Driver names the driver.
func (p *Process) Driver() string { return DriverProcess }

// URL is the balancer's base URL when there is one, else instance 0's: the
// one clients use.
func (p *Process) URL() string {
	if lb := p.BalancerURL(); lb != "" {
		return lb
	}
	u := p.URLs()
	if len(u) == 0 {
		return ""
	}
	return u[0]
}

// IsInstanceOrigin reports whether origin (scheme://host:port) is, or was,
// one instance's own address: a loopback host and a port an instance of any
// generation was started on. An agent started here names that address in
// its card (it knows only its {port}); once the harness replaces the
// instance the port is gone, so clients built from the card go through the
// balancer instead (suites.InstanceOrigins).
func (p *Process) IsInstanceOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	switch u.Hostname() {
	case "127.0.0.1", "localhost", "::1":
	default:
		return false
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.ports[port]
}

// URLs are every instance's base URL, in instance order.
func (p *Process) URLs() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]string, 0, len(p.instances))
	for _, in := range p.instances {
		out = append(out, in.url)
	}
	return out
}

// Restart stops every instance as Close does (SIGTERM, StopGrace, SIGKILL)
// and starts the same command again on the same port with the same {store},
// waiting (at most ReadyTimeout) until it serves its card again. What
// survives is what the agent keeps in its store.
func (p *Process) Restart(ctx context.Context) error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return errors.New("process driver: restart after close")
	}
	ins := append([]*procInstance(nil), p.instances...)
	for _, in := range ins {
		in.stopped = true
	}
	p.mu.Unlock()
	for i, in := range ins {
		if killed := stopGroup(in.cmd.Process.Pid, in.exited, p.grace); killed {
			p.log.line(fmt.Sprintf("[harness] agent %d was still running %s after SIGTERM; sent SIGKILL", in.index, p.grace))
		}
		<-in.exited
		p.log.line(fmt.Sprintf("[harness] restarting agent %d", in.index))
		next, err := p.spawn(in.index, in.command, in.port)
		if err != nil {
			return err
		}
		p.mu.Lock()
		p.instances[i] = next
		p.mu.Unlock()
		rctx, cancel := context.WithTimeout(ctx, p.roll.ready)
		err = next.waitReady(rctx, cancel, p.roll.ready)
		cancel()
		if err != nil {
			return err
		}
	}
	return nil
}

// Close stops every instance: SIGTERM to its process group, StopGrace for the
// group to drain, then SIGKILL to whatever is left. It removes the work
// directory it created. Calling it again does nothing.
func (p *Process) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	var ins []*procInstance
	for _, in := range p.instances {
		if in != nil {
			in.stopped = true
			ins = append(ins, in)
		}
	}
	lb, cdn := p.roll.lb, p.roll.cdn
	p.mu.Unlock()
	if cdn != nil {
		cdn.Close()
	}
	if lb != nil {
		lb.Close()
	}

	var wg sync.WaitGroup
	for _, in := range ins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if killed := stopGroup(in.cmd.Process.Pid, in.exited, p.grace); killed {
				p.log.line(fmt.Sprintf("[harness] agent %d was still running %s after SIGTERM; sent SIGKILL", in.index, p.grace))
			}
			<-in.exited
			select {
			case <-in.outDone:
			case <-time.After(time.Second):
				// Something outside the group still holds the pipe; stop
				// waiting for it.
			}
		}()
	}
	wg.Wait()
	if p.ownDir != "" {
		return os.RemoveAll(p.ownDir)
	}
	return nil
}

// stopGroup sends SIGTERM to the group pgid, waits up to grace for the
// leader to be reaped and the group to empty, then SIGKILLs the group. It
// reports whether SIGKILL was needed.
func stopGroup(pgid int, leaderExited <-chan struct{}, grace time.Duration) bool {
	return stopGroupWhile(pgid, leaderExited, grace, nil)
}

// stopGroupWhile is stopGroup that runs during (when set) between the
// SIGTERM and the wait; grace counts from the SIGTERM.
func stopGroupWhile(pgid int, leaderExited <-chan struct{}, grace time.Duration, during func()) bool {
	signalGroup(pgid, false)
	graceT := time.NewTimer(grace)
	defer graceT.Stop()
	if during != nil {
		during()
	}
	gone := func() bool {
		select {
		case <-leaderExited:
			return !groupAlive(pgid)
		default:
			return false
		}
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-graceT.C:
			// during may outlast the grace: a group that exited in
			// time meanwhile needs no SIGKILL, nor a log saying so.
			if gone() {
				return false
			}
			signalGroup(pgid, true)
			return true
		case <-tick.C:
			if gone() {
				return false
			}
		}
	}
}

// lineLog writes whole lines from every instance to one writer, at most
// MaxLogBytes in total.
type lineLog struct {
	mu      sync.Mutex
	w       io.Writer
	written int
	full    bool
}

func (l *lineLog) line(s string) {
	if l == nil || l.w == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.full {
		return
	}
	if l.written+len(s)+1 > MaxLogBytes {
		l.full = true
		fmt.Fprintf(l.w, "[harness] agent log reached %d bytes; further output is dropped\n", MaxLogBytes)
		return
	}
	n, _ := io.WriteString(l.w, s+"\n")
	l.written += n
}

// prefixWriter splits an instance's output into lines (each capped at
// maxLineBytes), logs them with the instance's prefix and keeps the last
// TailLines for start errors.
type prefixWriter struct {
	prefix string
	log    *lineLog
	mu     sync.Mutex
	cur    []byte
	over   bool
	tail   []string
}

func (w *prefixWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, c := range b {
		if c == '\n' {
			w.endLine()
			continue
		}
		if len(w.cur) < maxLineBytes {
			w.cur = append(w.cur, c)
		} else {
			w.over = true
		}
	}
	return len(b), nil
}

func (w *prefixWriter) endLine() {
	s := strings.TrimRight(strings.ToValidUTF8(string(w.cur), "\uFFFD"), "\r")
	if w.over {
		s += " …[line truncated]"
	}
	w.cur, w.over = w.cur[:0], false
	w.tail = append(w.tail, s)
	if len(w.tail) > TailLines {
		w.tail = w.tail[len(w.tail)-TailLines:]
	}
	w.log.line(w.prefix + s)
}

func (w *prefixWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.cur) > 0 || w.over {
		w.endLine()
	}
}

func (w *prefixWriter) tailLines() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.tail...)
}

// writeOutputTail ends an error message of a command (an instance, a hook)
// with the last lines it wrote, or says it wrote none.
func writeOutputTail(b *strings.Builder, lines []string) {
	if len(lines) == 0 {
		b.WriteString("; it wrote no output")
		return
	}
	fmt.Fprintf(b, "; its last %d output line(s):", len(lines))
	for _, l := range lines {
		b.WriteString("\n  | ")
		b.WriteString(l)
	}
}
