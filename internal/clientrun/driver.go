package clientrun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Vars are the values a driver gets, as placeholders and as environment
// variables (docs/client-driver.md).
type Vars struct {
	CardURL       string
	Case          string
	Action        string
	Text          string
	FollowUpText  string
	WebhookListen string
	WebhookURL    string
	PushToken     string
	// Tenant is a tenant the application passes to its client, where a case
	// sets one ("" otherwise): the card's own tenant must win (§8.3.2).
	Tenant string
	// Timeout is the driver's whole budget; the harness kills it after.
	Timeout time.Duration
}

// Env returns the A2A_CONFORM_* environment of the contract.
func (v Vars) Env() []string {
	secs := int((v.Timeout + time.Second - 1) / time.Second)
	return []string{
		"A2A_CONFORM_CARD_URL=" + v.CardURL,
		"A2A_CONFORM_CASE=" + v.Case,
		"A2A_CONFORM_ACTION=" + v.Action,
		"A2A_CONFORM_TEXT=" + v.Text,
		"A2A_CONFORM_FOLLOWUP_TEXT=" + v.FollowUpText,
		"A2A_CONFORM_WEBHOOK_LISTEN=" + v.WebhookListen,
		"A2A_CONFORM_WEBHOOK_URL=" + v.WebhookURL,
		"A2A_CONFORM_PUSH_TOKEN=" + v.PushToken,
		"A2A_CONFORM_TENANT=" + v.Tenant,
		"A2A_CONFORM_TIMEOUT=" + strconv.Itoa(secs),
	}
}

// Substitute replaces the contract's placeholders in one word.
func (v Vars) Substitute(word string) string {
	return strings.NewReplacer(
		"{card}", v.CardURL, "{case}", v.Case, "{action}", v.Action,
		"{webhook-listen}", v.WebhookListen, "{webhook-url}", v.WebhookURL,
	).Replace(word)
}

// DefaultOutputCap bounds what is kept of a driver's stdout and of its
// stderr, each.
const DefaultOutputCap = 1 << 20

// DriverOptions say how to run one driver invocation.
type DriverOptions struct {
	// Template is the --client-cmd template (split by SplitWords).
	Template string
	Vars     Vars
	// OutputCap bounds stdout and stderr each (DefaultOutputCap when 0).
	OutputCap int
	// Env is added to the driver's environment (after the process's own and
	// the contract's).
	Env []string
}

// DriverRun is what one invocation produced.
type DriverRun struct {
	Argv     []string
	Started  time.Time
	Duration time.Duration
	// ExitCode is the driver's exit status (-1 when killed by a signal or not
	// started).
	ExitCode int
	// ExitText describes how it ended ("exit status 1", "signal: killed"…).
	ExitText string
	// TimedOut says the harness killed it when its time was up.
	TimedOut bool
	// Killed says the harness had to kill its process group (timeout, or
	// members left behind after the leader exited).
	Killed bool
	Stdout []byte
	Stderr []byte
	// StdoutCut and StderrCut count the bytes dropped beyond the cap.
	StdoutCut, StderrCut int64
	// Result is the parsed result line (nil: none); ResultLine its text.
	Result     *Result
	ResultLine string
	// StartErr is set when the command could not be started at all.
	StartErr error
}

// OK reports whether the driver ran its action: exit 0, in time, with a
// result line.
func (d *DriverRun) OK() bool {
	return d.StartErr == nil && !d.TimedOut && d.ExitCode == 0 && d.Result != nil
}

// Cause says why the case could not run, naming the exit status and the
// tail of stderr; "" when OK.
func (d *DriverRun) Cause() string {
	var why string
	switch {
	case d.OK():
		return ""
	case d.StartErr != nil:
		why = "the client driver could not be started: " + d.StartErr.Error()
	case d.TimedOut:
		why = fmt.Sprintf("the client driver did not finish within its %s and was killed (its process group with it)", d.Duration.Round(time.Millisecond))
	case d.ExitCode != 0:
		why = "the client driver exited abnormally (" + d.ExitText + ")"
	case d.ResultLine != "":
		why = "the client driver's last JSON line is not a result of the contract: " + cut(d.ResultLine, 300)
	default:
		why = "the client driver printed no JSON result line on stdout"
		if len(bytes.TrimSpace(d.Stdout)) > 0 {
			why += "; its stdout ended: " + strconv.Quote(Tail(d.Stdout, 300))
		}
	}
	if t := Tail(d.Stderr, 600); t != "" {
		why += "; stderr ended: " + strconv.Quote(t)
	}
	return why
}

// Tail is the last n bytes of b, trimmed, starting at a line when it can.
func Tail(b []byte, n int) string {
	s := strings.TrimSpace(string(b))
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	if i := strings.IndexByte(s, '\n'); i >= 0 && i < len(s)-1 {
		s = s[i+1:]
	}
	return "…" + s
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// boundedBuffer keeps the first max bytes written and counts the rest.
type boundedBuffer struct {
	mu      sync.Mutex
	b       bytes.Buffer
	max     int
	dropped int64
}

func (w *boundedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	room := w.max - w.b.Len()
	if room >= len(p) {
		w.b.Write(p)
	} else {
		if room > 0 {
			w.b.Write(p[:room])
		}
		w.dropped += int64(len(p) - max(room, 0))
	}
	return len(p), nil
}

func (w *boundedBuffer) bytes() ([]byte, int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]byte(nil), w.b.Bytes()...), w.dropped
}

// RunDriver runs the driver once, in its own process group, and waits for
// it at most Vars.Timeout (then the whole group is killed). It never
// returns an error: everything that went wrong is in the DriverRun.
func RunDriver(ctx context.Context, o DriverOptions) *DriverRun {
	d := &DriverRun{ExitCode: -1, Started: time.Now()}
	words, err := SplitWords(o.Template)
	if err != nil {
		d.StartErr = err
		return d
	}
	for i, w := range words {
		words[i] = o.Vars.Substitute(w)
	}
	d.Argv = words
	capN := o.OutputCap
	if capN <= 0 {
		capN = DefaultOutputCap
	}
	timeout := o.Vars.Timeout
	if timeout <= 0 {
		timeout = 20 * time.Second
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	stdout, stderr := &boundedBuffer{max: capN}, &boundedBuffer{max: capN}
	cmd := exec.CommandContext(runCtx, words[0], words[1:]...)
	cmd.Env = append(append(os.Environ(), o.Vars.Env()...), o.Env...)
	cmd.Stdin = nil
	cmd.Stdout, cmd.Stderr = stdout, stderr
	ownGroup(cmd)
	cmd.Cancel = func() error {
		if cmd.Process != nil {
			killGroup(cmd.Process.Pid)
		}
		return nil
	}
	// Members of the group that keep the pipes open are killed with it;
	// WaitDelay bounds the wait for the pipes after that.
	cmd.WaitDelay = 2 * time.Second
	if err := cmd.Start(); err != nil {
		d.StartErr = err
		d.Duration = time.Since(d.Started)
		return d
	}
	pid := cmd.Process.Pid
	werr := cmd.Wait()
	d.Duration = time.Since(d.Started)
	if runCtx.Err() == context.DeadlineExceeded {
		d.TimedOut, d.Killed = true, true
	}
	// Whatever the leader did, nothing of the driver outlives the case.
	if groupAlive(pid) {
		killGroup(pid)
		d.Killed = true
	}
	if st := cmd.ProcessState; st != nil {
		d.ExitCode = st.ExitCode()
		d.ExitText = st.String()
	} else if werr != nil {
		d.ExitText = werr.Error()
	}
	var ee *exec.ExitError
	if werr != nil && !errors.As(werr, &ee) && d.ExitText == "" {
		d.ExitText = werr.Error()
	}
	d.Stdout, d.StdoutCut = stdout.bytes()
	d.Stderr, d.StderrCut = stderr.bytes()
	d.Result, d.ResultLine = ParseResult(d.Stdout)
	return d
}
