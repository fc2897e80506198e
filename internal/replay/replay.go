package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/sse"
	"github.com/a2a-conform/a2a-conform/internal/topology"
	"github.com/a2a-conform/a2a-conform/reports"
)

// Options bound a replay.
type Options struct {
	// Targets maps each of the bundle's roles (Bundle.Roles: "target",
	// "instance-0", …) to the base URL its requests go to, in place of the
	// recorded origin; several roles may share one URL.
	Targets map[string]string
	// Target is the base URL of a bundle with one role, when Targets is
	// empty.
	Target string
	// Hooks maps a hook point ("rollout-step", "rotate-card",
	// "restart-instance") to the shell command that makes that change to
	// the deployment, with the contract of the hooks driver
	// (topology.HookEnvVars). A bundle with steps cannot be replayed
	// without a command for one point each step accepts.
	Hooks map[string]string
	// HookTimeout bounds each command (default topology.DefaultHookTimeout).
	HookTimeout time.Duration
	// HookLog receives the commands' output; nil discards it.
	HookLog io.Writer
	// Header supplies the values of redacted headers (by name) and any
	// other header to add.
	Header http.Header
	// HTTP is the client (default: one with Timeout per request).
	HTTP *http.Client
	// Timeout bounds each request and stream (default 30 s).
	Timeout time.Duration
	// Wait bounds how long a request waits for an id an earlier answer
	// must give it (default 10 s).
	Wait time.Duration
	// StreamGrace is how long a subscription is given, past its recorded
	// end and past the moment another answer showed its task terminal, to
	// deliver the terminal event and close (default: the recording's own
	// gap between them, at least 2 s).
	StreamGrace time.Duration
}

// CannotReplay says why a bundle cannot be replayed as given: a step
// without a command to perform it, a command that failed, a role without a
// URL. Nothing about the target follows from such a replay.
type CannotReplay struct{ Reason string }

func (e *CannotReplay) Error() string { return "cannot reproduce: " + e.Reason }

// Sent is one replayed request.
type Sent struct {
	Seq      int // the recorded exchange's number
	Role     string
	OffsetMs float64
	Method   string
	URL      string
	Status   int
	Error    string
	Events   int
}

// Done is one step the replay performed.
type Done struct {
	Point      string
	OffsetMs   float64 // the recorded offset
	Took       time.Duration
	Generation int
	Account    string
}

// Result is what a replay saw and judged.
type Result struct {
	Sent  []Sent
	Steps []Done
	// Violations are those of the invariants the bundle judges (Judges):
	// any one reproduces the failure.
	Violations []invariants.Violation
	// Other are violations of invariants the spec did not fail on, for the
	// reader; they decide nothing.
	Other []invariants.Violation
	// Tasks maps each task id of the recording to the one the replay got.
	Tasks map[string]string
	// LeftOut names the recorded steps the replay did not perform (the
	// harness's own stage): without a violation, the replay says nothing
	// about what they did.
	LeftOut []string
	// Unjudged maps each invariant of the bundle's Judges that this replay
	// had nothing to judge by (no cancel acknowledged, no stream whose task
	// another answer showed terminal, no card read on both sides of the
	// change) to why: its silence is not "not reproduced".
	Unjudged map[string]string
}

// targets resolves the URL of each role of b.
func targets(b *Bundle, o Options) (map[string]*url.URL, error) {
	roles := b.Roles()
	given := o.Targets
	if len(given) == 0 {
		if o.Target == "" {
			return nil, errors.New("replay: no target")
		}
		if len(roles) > 1 {
			return nil, fmt.Errorf("replay: the bundle's requests went to %d places (%s); give a URL for each role (--target ROLE=URL, several roles may share one)", len(roles), strings.Join(roles, ", "))
		}
		given = map[string]string{roles[0]: o.Target}
	}
	out := map[string]*url.URL{}
	var missing []string
	for _, r := range roles {
		raw, ok := given[r]
		if !ok {
			missing = append(missing, r)
			continue
		}
		u, err := url.Parse(strings.TrimRight(raw, "/"))
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return nil, fmt.Errorf("replay: target %q for %s is not an http(s) URL", raw, r)
		}
		out[r] = u
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("replay: no URL for role(s) %s (the bundle's roles: %s)", strings.Join(missing, ", "), strings.Join(roles, ", "))
	}
	for r := range given {
		if !slices.Contains(roles, r) {
			return nil, fmt.Errorf("replay: the bundle has no role %q (its roles: %s)", r, strings.Join(roles, ", "))
		}
	}
	return out, nil
}

// hookFor returns the first point step accepts that has a command.
func hookFor(s reports.Step, hooks map[string]string) string {
	accepts := s.Accepts
	if len(accepts) == 0 {
		accepts = []string{s.Point}
	}
	for _, p := range accepts {
		if strings.TrimSpace(hooks[p]) != "" {
			return p
		}
	}
	return ""
}

// idField matches the ids an agent assigns (task and context ids) in a JSON
// body, in document order.
var idField = regexp.MustCompile(`"(id|taskId|contextId)"\s*:\s*"([^"\\]{1,256})"`)

// ids lists the (key, value) pairs idField finds in the body or events.
func ids(bodies ...string) [][2]string {
	var out [][2]string
	for _, b := range bodies {
		for _, m := range idField.FindAllStringSubmatch(b, 64) {
			out = append(out, [2]string{m[1], m[2]})
		}
	}
	return out
}

// answer is what one replayed request got, for the judgments across steps.
type answer struct {
	seq      int
	role     string
	op       string
	task     string // the replayed task the request named ("" when none)
	issued   time.Duration
	notFound bool
	got      *a2a.Task // the task the answer holds (nil for none)
}

// cardRead is one replayed read of the agent card, for the judgments of
// its validators across a step.
type cardRead struct {
	seq      int
	role     string
	issued   time.Duration
	received time.Duration
	status   int
	sentTag  string // the If-None-Match sent ("" for a plain read)
	etag     string
	body     []byte
}

// streamRead is one replayed subscription, for stream-across-instances.
type streamRead struct {
	seq      int
	role     string
	task     string
	events   []string // each event's label
	first    bool     // the first event was the Task
	last     a2a.TaskState
	closed   bool // by the agent, not cut by the replay
	endedAt  time.Time
	cutAfter time.Duration // how long after its task was seen terminal it was cut
}

// isCard says whether a recorded request reads the agent card.
func isCard(ex reports.Exchange) bool {
	u, err := url.Parse(ex.URL)
	return err == nil && ex.Method == http.MethodGet && strings.Contains(u.Path, "/.well-known/") && strings.HasSuffix(u.Path, ".json")
}

// Run re-drives b's requests at their recorded offsets, each to the URL of
// its role, concurrently as they were sent, and performs b's steps at
// theirs with the commands in o.Hooks. A request waits for every request
// the recording shows finished before it began, and for every step that had
// ended; after a step that took longer than recorded, the schedule moves on
// by the difference. The ids the agent assigns on the replay replace the
// recorded ones. It judges terminal immutability and cancel finality over
// every task state the answers show, and across each step what a task must
// be (task-survives-rotation, task-survives-rollout,
// lost-task-not-recreated). A step it cannot perform ends it with a
// *CannotReplay.
func Run(ctx context.Context, b *Bundle, o Options) (*Result, error) {
	bases, err := targets(b, o)
	if err != nil {
		return nil, err
	}
	// The steps a command of the vendor's performs; the harness's own stage
	// (its CDN holding a card, its builds) is left out, and said so.
	var steps []reports.Step
	var leftOut []string
	for _, st := range b.Steps {
		if Performable(st) {
			steps = append(steps, st)
		} else {
			leftOut = append(leftOut, fmt.Sprintf("%s at %+.0fms", stepName(st), st.AtMs-b.Requests[0].AtMs))
		}
	}
	var hooks *topology.Hooks
	if len(steps) > 0 {
		for _, st := range steps {
			if hookFor(st, o.Hooks) == "" {
				accepts := st.Accepts
				if len(accepts) == 0 {
					accepts = []string{st.Point}
				}
				var flags []string
				for _, p := range accepts {
					flags = append(flags, "--hook-"+p)
				}
				return nil, &CannotReplay{Reason: fmt.Sprintf(
					"the spec changed the deployment at %+.0fms (%s to generation %d) and the failure rests on that change; give the command that makes it (%s), with the contract of the hooks driver",
					st.AtMs-b.Requests[0].AtMs, stepName(st), st.Generation, strings.Join(flags, " or "))}
			}
		}
		main := bases[RoleTarget]
		if main == nil {
			main = bases[b.Roles()[0]]
		}
		hooks, err = topology.NewHooks(topology.HooksOptions{Target: main.String(), Commands: o.Hooks, Timeout: o.HookTimeout, Log: o.HookLog})
		if err != nil {
			return nil, &CannotReplay{Reason: err.Error()}
		}
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	if o.Wait <= 0 {
		o.Wait = 10 * time.Second
	}
	hc := o.HTTP
	if hc == nil {
		hc = &http.Client{}
	}
	ctx, cancelAll := context.WithCancel(ctx)
	defer cancelAll()
	var (
		mu      sync.Mutex
		mapped  = map[string]string{}
		hist    = invariants.NewHistory()
		acked   = map[string]bool{} // replayed task ids whose cancel the agent acknowledged
		res     = &Result{Tasks: map[string]string{}, LeftOut: leftOut}
		answers []answer
		firstOf = map[string]string{} // replayed task id → the message id that created it
		stepErr error
		// etags maps each ETag the recording's card reads got to the one
		// the replay's got, for the If-None-Match a later read sends.
		etags   = map[string]string{}
		cards   []cardRead
		streams []streamRead
		// terminalAt is when an answer other than a stream first showed a
		// replayed task terminal, terminal in which state, through which
		// role.
		terminalAt = map[string]time.Time{}
		terminal   = map[string][2]string{}
	)
	if o.StreamGrace <= 0 {
		o.StreamGrace = 2 * time.Second
	}
	first := b.Requests[0].AtMs
	// Every id a recorded request names must come from an earlier answer,
	// or be the client's own (message ids, a client-chosen context id).
	assigned := map[string]bool{}
	for _, ex := range b.Requests {
		for _, kv := range ids(ex.RespBody, eventsText(ex.Exchange)) {
			// Short values (a JSON-RPC id) would be replaced everywhere.
			if len(kv[1]) >= 8 {
				assigned[kv[1]] = true
			}
		}
	}
	subst := func(s string) (string, bool) {
		mu.Lock()
		defer mu.Unlock()
		ok := true
		for old := range assigned {
			if !strings.Contains(s, old) {
				continue
			}
			if n, has := mapped[old]; has {
				s = strings.ReplaceAll(s, old, n)
			} else {
				ok = false
			}
		}
		return s, ok
	}
	learn := func(recorded, replayed [][2]string) {
		mu.Lock()
		defer mu.Unlock()
		for i := 0; i < len(recorded) && i < len(replayed); i++ {
			if recorded[i][0] == replayed[i][0] && assigned[recorded[i][1]] {
				if _, has := mapped[recorded[i][1]]; !has {
					mapped[recorded[i][1]] = replayed[i][1]
				}
			}
		}
	}
	substTag := func(v string) string {
		mu.Lock()
		defer mu.Unlock()
		for old, n := range etags {
			v = strings.ReplaceAll(v, old, n)
		}
		return v
	}
	start := time.Now()
	// The schedule: done[i] closes when request i has its answer, and
	// stepDone[k] when step k has run; stepEnd[k] is when (hist clock
	// stepAt[k] began it), for the offsets after it and the judgments.
	done := make([]chan struct{}, len(b.Requests))
	for i := range done {
		done[i] = make(chan struct{})
	}
	stepDone := make([]chan struct{}, len(steps))
	stepEnd := make([]time.Time, len(steps))
	stepAt := make([][2]time.Duration, len(steps))
	for k := range stepDone {
		stepDone[k] = make(chan struct{})
	}
	recEnd := func(ex reports.Exchange) float64 { return ex.AtMs + ex.DurMs }
	stepRecEnd := func(st reports.Step) float64 { return st.AtMs + st.DurMs }
	// waitFor waits for ch, false when the replay was cancelled.
	waitFor := func(ch chan struct{}) bool {
		select {
		case <-ch:
			return true
		case <-ctx.Done():
			return false
		}
	}
	// sleepUntil waits until at, false when the replay was cancelled.
	sleepUntil := func(at time.Time) bool {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(time.Until(at)):
			return true
		}
	}
	// due is when an exchange recorded at recAt goes: its offset, moved on
	// by how much longer each step before it took on the replay.
	due := func(recAt float64, upto int) (time.Time, bool) {
		at := start.Add(time.Duration((recAt - first) * float64(time.Millisecond)))
		for k, st := range steps[:upto] {
			if recAt < stepRecEnd(st) {
				continue
			}
			if !waitFor(stepDone[k]) {
				return at, false
			}
			if t := stepEnd[k].Add(time.Duration((recAt - stepRecEnd(st)) * float64(time.Millisecond))); t.After(at) {
				at = t
			}
		}
		return at, true
	}
	// after waits for every request before the n-th recorded as finished
	// by recAt (for a step, strictly before: the recorded order decides).
	after := func(recAt float64, n int, strict bool) bool {
		for j, prev := range b.Requests[:n] {
			end := recEnd(prev.Exchange)
			if (end < recAt || (!strict && end == recAt)) && !waitFor(done[j]) {
				return false
			}
		}
		return true
	}
	var wg sync.WaitGroup
	for k, st := range steps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(stepDone[k])
			point := hookFor(st, o.Hooks)
			at, ok := due(st.AtMs, k)
			if ok && k > 0 {
				ok = waitFor(stepDone[k-1])
			}
			if !ok || !after(st.AtMs, len(b.Requests), true) || !sleepUntil(at) {
				return
			}
			var taskIDs []string
			mu.Lock()
			for _, id := range st.TaskIDs {
				if n, has := mapped[id]; has {
					taskIDs = append(taskIDs, n)
				}
			}
			mu.Unlock()
			began, h0 := time.Now(), hist.Now()
			gen, account, err := hooks.RunHook(ctx, point, b.Spec, taskIDs, "")
			stepEnd[k], stepAt[k] = time.Now(), [2]time.Duration{h0, hist.Now()}
			mu.Lock()
			defer mu.Unlock()
			res.Steps = append(res.Steps, Done{Point: point, OffsetMs: st.AtMs - first, Took: time.Since(began), Generation: gen, Account: account})
			if err != nil && stepErr == nil {
				stepErr = &CannotReplay{Reason: fmt.Sprintf("the %s command did not complete, so the deployment's state after it is unknown: %v", point, err)}
				cancelAll()
			}
		}()
	}
	sent := make([]Sent, len(b.Requests))
	for i, ex := range b.Requests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer close(done[i])
			s := &sent[i]
			*s = Sent{Seq: ex.Seq, Role: ex.role(), OffsetMs: ex.AtMs - first, Method: ex.Method}
			at, ok := due(ex.AtMs, len(steps))
			if !ok || !after(ex.AtMs, i, false) || !sleepUntil(at) {
				s.Error = "not sent: the replay was stopped"
				return
			}
			// Wait (bounded) for the ids this request names.
			deadline := time.Now().Add(o.Wait)
			var u, body string
			for {
				var ok1, ok2 bool
				u, ok1 = subst(ex.URL)
				body, ok2 = subst(ex.ReqBody)
				if (ok1 && ok2) || time.Now().After(deadline) {
					if !(ok1 && ok2) {
						s.Error = "sent with an id the replay never learnt (an earlier answer did not give it)"
					}
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			ru, err := url.Parse(u)
			if err != nil {
				s.Error = err.Error()
				return
			}
			base := bases[ex.role()]
			ru.Scheme, ru.Host = base.Scheme, base.Host
			if base.Path != "" && !strings.HasPrefix(ru.Path, base.Path) {
				ru.Path = base.Path + ru.Path
			}
			s.URL = ru.String()
			rctx, cancel := context.WithTimeout(ctx, o.Timeout)
			defer cancel()
			req, err := http.NewRequestWithContext(rctx, ex.Method, s.URL, strings.NewReader(body))
			if err != nil {
				s.Error = err.Error()
				return
			}
			for n, vs := range ex.ReqHeader {
				// The role's URL stands for the harness's pin.
				if n == "Content-Length" || http.CanonicalHeaderKey(n) == http.CanonicalHeaderKey(PinHeader) {
					continue
				}
				for _, v := range vs {
					if strings.EqualFold(v, "[REDACTED]") {
						v = o.Header.Get(n)
					}
					if http.CanonicalHeaderKey(n) == "If-None-Match" {
						v = substTag(v)
					}
					if v != "" {
						req.Header.Add(n, v)
					}
				}
			}
			for n, vs := range o.Header {
				if req.Header.Get(n) == "" {
					req.Header[n] = vs
				}
			}
			issued := hist.Now()
			resp, err := hc.Do(req)
			if err != nil {
				s.Error = err.Error()
				return
			}
			defer resp.Body.Close()
			s.Status = resp.StatusCode
			op := operation(ex.ReqBody, ex.URL)
			if isCard(ex.Exchange) {
				data, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
				c := cardRead{seq: ex.Seq, role: ex.role(), issued: issued, received: hist.Now(), status: resp.StatusCode,
					sentTag: req.Header.Get("If-None-Match"), etag: resp.Header.Get("ETag"), body: data}
				mu.Lock()
				defer mu.Unlock()
				if old := ex.RespHeader.Get("ETag"); old != "" && c.etag != "" && ex.Status == http.StatusOK && c.status == http.StatusOK {
					if _, has := etags[old]; !has {
						etags[old] = c.etag
					}
				}
				cards = append(cards, c)
				return
			}
			if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
				dec := sse.NewDecoder(sse.WithMaxEventSize(1<<20), sse.WithMaxLineLength(1<<20))
				var recorded [][2]string
				if len(ex.Events) > 0 {
					recorded = ids(ex.Events[0].Data)
				}
				sentAt := time.Now()
				sr := streamRead{seq: ex.Seq, role: ex.role(), task: namedTask(body, s.URL, op)}
				var cut atomic.Int64 // how long after its task was seen terminal the replay cut it (ns)
				if op == "SubscribeToTask" && sr.task != "" {
					// A subscription is cut once it has had the grace past
					// its recorded end and past its task seen terminal.
					grace := max(o.StreamGrace, recordedGap(b, ex))
					recEndAt := sentAt.Add(time.Duration(ex.DurMs * float64(time.Millisecond)))
					stop := make(chan struct{})
					defer close(stop)
					go func() {
						tick := time.NewTicker(20 * time.Millisecond)
						defer tick.Stop()
						for {
							select {
							case <-stop:
								return
							case <-rctx.Done():
								return
							case <-tick.C:
							}
							mu.Lock()
							seen, ok := terminalAt[sr.task]
							mu.Unlock()
							// Until its task is seen terminal the
							// stream also waits as long as a re-read
							// task does (Wait): on a slower agent the
							// end comes later, and late is not lost.
							deadline := recEndAt.Add(grace + o.Wait)
							if ok {
								deadline = recEndAt.Add(grace)
								if seen.Add(grace).After(deadline) {
									deadline = seen.Add(grace)
								}
							}
							if time.Now().After(deadline) {
								if ok {
									cut.Store(int64(max(time.Since(seen), 1)))
								} else {
									cut.Store(-1)
								}
								cancel()
								return
							}
						}
					}()
				}
				buf := make([]byte, 32<<10)
				n := 0
				for {
					k, rerr := resp.Body.Read(buf)
					_ = dec.Feed(buf[:k], func(e sse.Event) {
						if n == 0 {
							learn(recorded, ids(e.Data))
						}
						n++
						observe(hist, invariants.FromStream, fmt.Sprintf("stream #%d", ex.Seq), e.Data, hist.Now(), fmt.Sprintf("replayed stream #%d event %d", ex.Seq, n))
						label, st, isTask := eventLabel(e.Data)
						if n == 1 {
							sr.first = isTask
						}
						if st != "" {
							sr.last = st
						}
						sr.events = append(sr.events, label)
					})
					if rerr != nil {
						sr.closed = errors.Is(rerr, io.EOF) && cut.Load() == 0
						break
					}
				}
				s.Events = n
				sr.endedAt = time.Now()
				if c := cut.Load(); c > 0 {
					sr.cutAfter = time.Duration(c)
				}
				mu.Lock()
				streams = append(streams, sr)
				mu.Unlock()
				return
			}
			data, _ := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
			learn(ids(ex.RespBody), ids(string(data)))
			src := invariants.FromGet
			switch op {
			case "SendMessage":
				src = invariants.FromSend
			case "CancelTask":
				src = invariants.FromCancel
			}
			id, st := observe(hist, src, "", string(data), issued, fmt.Sprintf("replayed %s #%d", op, ex.Seq))
			// A read that found the task terminal ended the spec's wait for
			// it: while the replayed one still shows it running, it is read
			// again (bounded by Wait), as the spec's wait would have: late
			// is not lost.
			if rec := taskIn([]byte(ex.RespBody)); op == "GetTask" && rec != nil && rec.Status.State.Terminal() {
				for again := time.Now().Add(o.Wait); id != "" && st != "" && !st.Terminal() && time.Now().Before(again); {
					if !sleepUntil(time.Now().Add(50 * time.Millisecond)) {
						break
					}
					r2 := req.Clone(rctx)
					r2.Body = io.NopCloser(strings.NewReader(body))
					issued = hist.Now()
					resp2, err := hc.Do(r2)
					if err != nil {
						break
					}
					data, _ = io.ReadAll(io.LimitReader(resp2.Body, 8<<20))
					resp2.Body.Close()
					s.Status = resp2.StatusCode
					id, st = observe(hist, src, "", string(data), issued, fmt.Sprintf("replayed %s #%d (read again)", op, ex.Seq))
				}
			}
			if st.Terminal() && id != "" {
				mu.Lock()
				if _, has := terminalAt[id]; !has {
					terminalAt[id], terminal[id] = time.Now(), [2]string{string(st), fmt.Sprintf("%s #%d through %s", op, ex.Seq, ex.role())}
				}
				mu.Unlock()
			}
			an := answer{seq: ex.Seq, role: ex.role(), op: op, task: namedTask(body, s.URL, op), issued: issued,
				notFound: taskNotFound(s.Status, data), got: taskIn(data)}
			mu.Lock()
			defer mu.Unlock()
			answers = append(answers, an)
			if op == "SendMessage" && an.got != nil && an.task == "" {
				if _, has := firstOf[an.got.ID]; !has {
					firstOf[an.got.ID] = messageID(body)
				}
			}
			if op == "CancelTask" && st == a2a.TaskStateCanceled && id != "" {
				// The task the agent acknowledged, as its own answer names
				// it: never a mapped id, which may be misaligned.
				acked[id] = true
			}
		}()
	}
	wg.Wait()
	if stepErr != nil {
		return nil, stepErr
	}
	if err := ctx.Err(); err != nil {
		// Stopped (a signal, a deadline) before every request was sent:
		// what did not happen proves nothing either way.
		return nil, &CannotReplay{Reason: "the replay was stopped before its schedule ended: " + err.Error()}
	}
	res.Sent = sent
	mu.Lock()
	defer mu.Unlock()
	for old, n := range mapped {
		res.Tasks[old] = n
	}
	recorded := map[string]string{}
	for old, n := range mapped {
		recorded[n] = old
	}
	named := func(id string) string {
		if old, ok := recorded[id]; ok && old != id {
			return "task " + id + " (recorded as " + old + ")"
		}
		return "task " + id
	}
	var vs []invariants.Violation
	obs := hist.Observations()
	var tasks []string
	seen := map[string]bool{}
	for _, o := range obs {
		if !seen[o.TaskID] {
			seen[o.TaskID] = true
			tasks = append(tasks, o.TaskID)
		}
	}
	sort.Strings(tasks)
	for _, id := range tasks {
		task := invariants.ForTask(obs, id)
		vs = append(vs, invariants.TerminalImmutable(task)...)
	}
	ackedIDs := make([]string, 0, len(acked))
	for id := range acked {
		ackedIDs = append(ackedIDs, id)
	}
	sort.Strings(ackedIDs)
	for _, id := range ackedIDs {
		for _, o := range invariants.ForTask(obs, id) {
			if o.State.Terminal() && o.State != a2a.TaskStateCanceled {
				vs = append(vs, invariants.Violation{Invariant: "cancel-acknowledged-is-final",
					Where: named(id) + ", " + o.Ref, Expected: "TASK_STATE_CANCELED: the replayed cancel was acknowledged",
					Actual: string(o.State)})
			}
		}
	}
	judges := b.Judges
	if len(judges) == 0 {
		judges = Judged
	}
	var across stepJudged
	for k, st := range steps {
		v, j := acrossStep(answers, firstOf, stepAt[k], stepName(st), named, judges)
		vs = append(vs, v...)
		across.reads += j.reads
		across.followUps += j.followUps
		vs = append(vs, acrossCardStep(cards, stepAt[k], stepName(st))...)
	}
	res.Unjudged = map[string]string{}
	if across.reads == 0 {
		why := "no task the replay saw before a performed change was read after it, so no task was held to surviving it"
		res.Unjudged["task-survives-rotation"] = why
		res.Unjudged["task-survives-rollout"] = why
	}
	if across.followUps == 0 {
		res.Unjudged["lost-task-not-recreated"] = "no follow-up message named a task answered TaskNotFound after a performed change, so no lost task was held to staying lost"
	}
	if !slices.ContainsFunc(obs, func(o invariants.Observation) bool { return o.State.Terminal() }) {
		res.Unjudged["terminal-immutable"] = "no replayed answer showed a task terminal, so no terminal state was held to staying final"
	}
	if len(acked) == 0 {
		res.Unjudged["cancel-acknowledged-is-final"] = "no replayed CancelTask was answered TASK_STATE_CANCELED, so no cancel's finality was held to anything"
	}
	if !cardsBothSides(cards, stepAt) {
		why := "no card was read through one role both before and after a performed change"
		res.Unjudged["etag-tracks-card"] = why
		res.Unjudged["revalidate-gets-new-card"] = why
	}
	streamsJudged := 0
	sort.Slice(streams, func(i, j int) bool { return streams[i].seq < streams[j].seq })
	for _, sr := range streams {
		end, ok := terminal[sr.task]
		if !ok || (!sr.closed && sr.cutAfter == 0) {
			// Its task was never seen terminal elsewhere, or the stream
			// ended for another reason (a timeout): nothing to hold it to.
			continue
		}
		streamsJudged++
		where := fmt.Sprintf("SubscribeToTask %s through %s (replayed #%d), the task seen %s by %s", named(sr.task), sr.role, sr.seq, end[0], end[1])
		got := strings.Join(sr.events, ", ")
		if got == "" {
			got = "no events"
		}
		vs = append(vs, invariants.StreamToTerminal(invariants.StreamSeen{Where: where, FirstIsTask: sr.first,
			Events: got, Last: sr.last, Closed: sr.closed, Held: sr.cutAfter,
			End: a2a.TaskState(end[0]), SeenBy: end[1]})...)
	}
	if streamsJudged == 0 {
		res.Unjudged["stream-across-instances"] = fmt.Sprintf("none of the %d replayed subscriptions had a task another answer showed terminal (or each ended by a timeout), so no stream was held to a terminal state", len(streams))
	}
	for inv := range res.Unjudged {
		if !slices.Contains(judges, inv) {
			delete(res.Unjudged, inv)
		}
	}
	for _, v := range vs {
		if slices.Contains(judges, v.Invariant) {
			res.Violations = append(res.Violations, v)
		} else {
			res.Other = append(res.Other, v)
		}
	}
	return res, nil
}

// Performable says whether a replay performs a recorded step: a roll or a
// hook, each with the vendor's command for a hook point; the harness's own
// stage ("stage": its CDN holding a card, its previous and next builds) no
// command of the vendor's stands for.
func Performable(st reports.Step) bool { return st.Kind == "roll" || st.Kind == "hook" }

// stepName names a recorded step for the reader.
func stepName(st reports.Step) string {
	switch st.Kind {
	case "roll":
		return "the harness's rolling replacement (" + st.Point + ")"
	case "hook":
		return "the " + st.Point + " hook"
	}
	return "the harness's own " + st.Point + " (" + st.Kind + ")"
}

// acrossStep judges what a task seen before a step (at: when the step began
// and ended, on the history clock) was after it, as ROLL-002 and ROLL-003
// do: a task the answers showed before the change, read after it, is the
// same task (not a fresh TASK_STATE_SUBMITTED one, its first message in its
// history) or TaskNotFound (task-survives-rotation); the rollout's tasks
// must be found (task-survives-rollout); and a follow-up message naming a
// task that was answered TaskNotFound after the change must not get a task
// (lost-task-not-recreated).
// stepJudged counts what acrossStep could hold to its invariants: reads
// after the step of a task seen before it, and follow-ups naming a task
// lost across it. Zero of either leaves its invariants unjudged.
type stepJudged struct{ reads, followUps int }

func acrossStep(answers []answer, firstOf map[string]string, at [2]time.Duration, step string, named func(string) string, judges []string) ([]invariants.Violation, stepJudged) {
	var judged stepJudged
	before := map[string]a2a.TaskState{}
	for _, a := range answers {
		if a.got != nil && a.issued < at[0] {
			if st, ok := before[a.got.ID]; !ok || st == a2a.TaskStateSubmitted {
				before[a.got.ID] = a.got.Status.State
			}
		}
	}
	sort.Slice(answers, func(i, j int) bool { return answers[i].seq < answers[j].seq })
	lost := map[string]bool{}
	var vs []invariants.Violation
	// One violation per invariant and task, as the specs give, counting
	// the further reads that showed it.
	first, more := map[[2]string]int{}, map[int]int{}
	add := func(inv, task, where, expected, actual string) {
		if !slices.Contains(judges, inv) {
			return
		}
		if i, ok := first[[2]string{inv, task}]; ok {
			more[i]++
			return
		}
		first[[2]string{inv, task}] = len(vs)
		vs = append(vs, invariants.Violation{Invariant: inv, Where: where, Expected: expected, Actual: actual})
	}
	for _, a := range answers {
		if a.issued < at[1] || a.op != "GetTask" {
			continue
		}
		was, ok := before[a.task]
		if !ok || (!a.notFound && a.got == nil) {
			continue
		}
		judged.reads++
		where := fmt.Sprintf("GetTask %s through %s after %s (replayed #%d)", named(a.task), a.role, step, a.seq)
		switch {
		case a.notFound:
			lost[a.task] = true
			add("task-survives-rollout", a.task, where, "the task, running on or finished by the new instances", "TaskNotFoundError")
		case a.got == nil:
		default:
			if a.got.Status.State == a2a.TaskStateSubmitted && was != a2a.TaskStateSubmitted {
				for _, inv := range []string{"task-survives-rotation", "task-survives-rollout"} {
					add(inv, a.task, where, "the task as it was ("+string(was)+" or later)", "TASK_STATE_SUBMITTED: a fresh task under the same id")
				}
			}
			if m := firstOf[a.task]; m != "" && !a.got.HasMessage(m) {
				add("task-survives-rotation", a.task, where, "its history to hold the first message "+m, fmt.Sprintf("%d history messages without it", len(a.got.History)))
			}
		}
	}
	for _, a := range answers {
		if a.issued < at[1] || a.op != "SendMessage" || !lost[a.task] {
			continue
		}
		judged.followUps++
		if a.got == nil {
			continue
		}
		add("lost-task-not-recreated", a.task, fmt.Sprintf("SendMessage naming the lost %s through %s after %s (replayed #%d)", named(a.task), a.role, step, a.seq),
			"TaskNotFoundError (§3.1.1: the id is the server's; a task it lost is unknown)",
			fmt.Sprintf("a task %s in %s with %d history message(s)", a.got.ID, a.got.Status.State, len(a.got.History)))
	}
	for i, n := range more {
		vs[i].Actual += fmt.Sprintf(" (and %d more answer(s) like it)", n)
	}
	return vs, judged
}

// namedTask is the task a request names: GetTask's and CancelTask's id,
// a message's taskId (a follow-up), on either binding.
func namedTask(body, rawURL, op string) string {
	var doc struct {
		Params  json.RawMessage `json:"params"`
		ID      string          `json:"id"`
		Message *struct {
			TaskID string `json:"taskId"`
		} `json:"message"`
	}
	raw := []byte(body)
	var rpc struct {
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(raw, &rpc) == nil && len(rpc.Params) > 0 {
		raw = rpc.Params
	}
	_ = json.Unmarshal(raw, &doc)
	if op == "SendMessage" {
		if doc.Message != nil {
			return doc.Message.TaskID
		}
		return ""
	}
	if doc.ID != "" {
		return doc.ID
	}
	if u, err := url.Parse(rawURL); err == nil {
		if _, rest, ok := strings.Cut(u.Path, "/tasks/"); ok {
			id, _, _ := strings.Cut(rest, "/")
			id, _, _ = strings.Cut(id, ":")
			return id
		}
	}
	return ""
}

// messageID is the id of the message a SendMessage request sends.
func messageID(body string) string {
	var doc struct {
		Params struct {
			Message struct {
				MessageID string `json:"messageId"`
			} `json:"message"`
		} `json:"params"`
		Message struct {
			MessageID string `json:"messageId"`
		} `json:"message"`
	}
	_ = json.Unmarshal([]byte(body), &doc)
	if doc.Params.Message.MessageID != "" {
		return doc.Params.Message.MessageID
	}
	return doc.Message.MessageID
}

// taskNotFound says whether an answer is TaskNotFoundError, on either
// binding (JSON-RPC code -32001, HTTP+JSON's TASK_NOT_FOUND reason).
func taskNotFound(status int, body []byte) bool {
	var rpc struct {
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &rpc) == nil && rpc.Error != nil && rpc.Error.Code == -32001 {
		return true
	}
	return status == http.StatusNotFound && bytes.Contains(body, []byte(`"TASK_NOT_FOUND"`))
}

// parse reads an answer or an event on either binding: the stream response
// it is, and the task snapshot it holds (nil for none).
func parse(data []byte) (a2a.StreamResponse, *a2a.Task, bool) {
	var doc struct {
		Result json.RawMessage `json:"result"`
	}
	raw := data
	if json.Unmarshal(raw, &doc) == nil && len(doc.Result) > 0 {
		raw = doc.Result
	}
	raw = bytes.TrimSpace(raw)
	var ev a2a.StreamResponse
	if json.Unmarshal(raw, &ev) != nil {
		return ev, nil, false
	}
	if ev.Task == nil && ev.StatusUpdate == nil && ev.ArtifactUpdate == nil && ev.Message == nil {
		var t a2a.Task
		if json.Unmarshal(raw, &t) == nil && t.ID != "" {
			return ev, &t, true
		}
		return ev, nil, true
	}
	return ev, ev.Task, true
}

// taskIn is the task snapshot an answer holds, nil for none.
func taskIn(data []byte) *a2a.Task {
	_, t, _ := parse(data)
	return t
}

// eventsText joins the data of a recorded exchange's events.
func eventsText(ex reports.Exchange) string {
	var b strings.Builder
	for _, e := range ex.Events {
		b.WriteString(e.Data)
		b.WriteByte('\n')
	}
	return b.String()
}

// operation names the A2A method a recorded request called.
func operation(body, rawURL string) string {
	var rpc struct {
		Method string `json:"method"`
	}
	if json.Unmarshal([]byte(body), &rpc) == nil && rpc.Method != "" {
		return rpc.Method
	}
	switch {
	case strings.HasSuffix(rawURL, ":cancel"):
		return "CancelTask"
	case strings.HasSuffix(rawURL, ":subscribe"):
		return "SubscribeToTask"
	case strings.Contains(rawURL, "message:send"), strings.Contains(rawURL, "message:stream"):
		return "SendMessage"
	}
	return "GetTask"
}

// observe records the task state (and artifacts) an answer or event shows,
// on either binding, and returns the task it names and its state.
func observe(h *invariants.History, src invariants.Source, channel, data string, issued time.Duration, ref string) (string, a2a.TaskState) {
	ev, task, ok := parse([]byte(data))
	if !ok {
		return "", ""
	}
	o := invariants.Observation{Source: src, Issued: issued, Received: h.Now(), Channel: channel, Ref: ref}
	switch {
	case task != nil:
		o.TaskID, o.State, o.Snapshot, o.Artifacts = task.ID, task.Status.State, true, invariants.ArtifactsOf(task.Artifacts)
	case ev.StatusUpdate != nil:
		o.TaskID, o.State = ev.StatusUpdate.TaskID, ev.StatusUpdate.Status.State
	case ev.ArtifactUpdate != nil:
		o.TaskID = ev.ArtifactUpdate.TaskID
		o.Artifacts = invariants.ArtifactsOf([]a2a.Artifact{ev.ArtifactUpdate.Artifact})
	default:
		return "", ""
	}
	if o.TaskID == "" {
		return "", ""
	}
	h.Add(o)
	return o.TaskID, o.State
}

// recordedGap is how long the recorded subscription ex stayed open after
// the first other recorded answer that showed its task terminal ended: the
// grace the spec gave it (0 when no answer showed that).
func recordedGap(b *Bundle, ex Request) time.Duration {
	task := namedTask(ex.ReqBody, ex.URL, "SubscribeToTask")
	seen := -1.0
	for _, o := range b.Requests {
		if o.Seq == ex.Seq || o.RespBody == "" {
			continue
		}
		if t := taskIn([]byte(o.RespBody)); t != nil && t.ID == task && t.Status.State.Terminal() {
			if end := o.AtMs + o.DurMs; seen < 0 || end < seen {
				seen = end
			}
		}
	}
	if seen < 0 {
		return 0
	}
	return time.Duration((ex.AtMs + ex.DurMs - seen) * float64(time.Millisecond))
}

// eventLabel names a stream event for the reader, with the task state it
// shows and whether it is the Task itself.
func eventLabel(data string) (string, a2a.TaskState, bool) {
	ev, task, ok := parse([]byte(data))
	switch {
	case !ok:
		return "unreadable", "", false
	case ev.Task != nil:
		return "task " + string(ev.Task.Status.State), ev.Task.Status.State, true
	case ev.StatusUpdate != nil:
		return "status " + string(ev.StatusUpdate.Status.State), ev.StatusUpdate.Status.State, false
	case ev.ArtifactUpdate != nil:
		return "artifact", "", false
	case ev.Message != nil:
		return "message", "", false
	case task != nil:
		return "task " + string(task.Status.State), task.Status.State, true
	}
	return "other", "", false
}

// acrossCardStep judges the card's validators across a step (at: when it
// began and ended, on the history clock), role by role, as ROLL-001 and
// ROLL-008 do: a card read after the change that differs from one read
// before must not carry the same ETag (etag-tracks-card), and a conditional
// GET after the change with an ETag a read before got must not be answered
// 304 while every plain read of that role after the change served one card,
// not the one that ETag named (revalidate-gets-new-card). A role whose reads
// after the change still show several cards may reach an instance that
// rightly serves the old one: its 304s are not judged.
// cardsBothSides reports whether some role's card was read (200, with a
// body) before a performed change and read again after it.
func cardsBothSides(cards []cardRead, steps [][2]time.Duration) bool {
	for _, at := range steps {
		before, after := map[string]bool{}, map[string]bool{}
		for _, c := range cards {
			if c.status == http.StatusOK && c.received < at[0] && len(c.body) > 0 {
				before[c.role] = true
			}
			if c.issued >= at[1] {
				after[c.role] = true
			}
		}
		for r := range before {
			if after[r] {
				return true
			}
		}
	}
	return false
}

func acrossCardStep(cards []cardRead, at [2]time.Duration, step string) []invariants.Violation {
	sort.Slice(cards, func(i, j int) bool { return cards[i].seq < cards[j].seq })
	var roles []string
	for _, c := range cards {
		if !slices.Contains(roles, c.role) {
			roles = append(roles, c.role)
		}
	}
	var vs []invariants.Violation
	for _, role := range roles {
		var before, after, plain []cardRead
		for _, c := range cards {
			switch {
			case c.role != role:
			case c.status == http.StatusOK && c.received < at[0] && len(c.body) > 0:
				before = append(before, c)
			case c.issued >= at[1]:
				after = append(after, c)
				if c.status == http.StatusOK && c.sentTag == "" {
					plain = append(plain, c)
				}
			}
		}
		var tracks, reval *invariants.Violation
		tracksMore, revalMore := 0, 0
		for _, now := range after {
			if now.status != http.StatusOK || now.etag == "" {
				continue
			}
			for _, old := range before {
				if old.etag == now.etag && !bytes.Equal(old.body, now.body) {
					if tracks != nil {
						tracksMore++
						break
					}
					tracks = &invariants.Violation{Invariant: "etag-tracks-card",
						Where:    fmt.Sprintf("card through %s after %s (replayed #%d)", role, step, now.seq),
						Expected: fmt.Sprintf("a new ETag: the card changed from the one read before (replayed #%d)", old.seq),
						Actual:   "the same ETag " + now.etag}
					break
				}
			}
		}
		// The one card every plain read of the role served after the step.
		var served []byte
		for i, c := range plain {
			if i == 0 {
				served = c.body
			} else if !bytes.Equal(served, c.body) {
				served = nil
				break
			}
		}
		for _, c := range after {
			if c.status != http.StatusNotModified || c.sentTag == "" || served == nil {
				continue
			}
			for _, old := range before {
				if old.etag == "" || !strings.Contains(c.sentTag, old.etag) || bytes.Equal(old.body, served) {
					continue
				}
				if reval != nil {
					revalMore++
					break
				}
				reval = &invariants.Violation{Invariant: "revalidate-gets-new-card",
					Where:    fmt.Sprintf("card through %s after %s (replayed #%d), If-None-Match: %s", role, step, c.seq, c.sentTag),
					Expected: fmt.Sprintf("200 with the new card, which every plain read through %s after the change served (%d read(s)): the ETag held is from before it", role, len(plain)),
					Actual:   fmt.Sprintf("304 Not Modified: a revalidating client keeps the card read before (replayed #%d)", old.seq)}
				break
			}
		}
		for _, v := range []struct {
			v    *invariants.Violation
			more int
		}{{tracks, tracksMore}, {reval, revalMore}} {
			if v.v == nil {
				continue
			}
			if v.more > 0 {
				v.v.Actual += fmt.Sprintf(" (and %d more answer(s) like it)", v.more)
			}
			vs = append(vs, *v.v)
		}
	}
	return vs
}
