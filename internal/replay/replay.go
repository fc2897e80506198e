package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/sse"
	"github.com/a2a-conform/a2a-conform/reports"
)

// Options bound a replay.
type Options struct {
	// Target is the base URL the requests go to, in place of each
	// recorded request's origin.
	Target string
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
}

// Sent is one replayed request.
type Sent struct {
	Seq      int // the recorded exchange's number
	OffsetMs float64
	Method   string
	URL      string
	Status   int
	Error    string
	Events   int
}

// Result is what a replay saw and judged.
type Result struct {
	Sent       []Sent
	Violations []invariants.Violation
	// Tasks maps each task id of the recording to the one the replay got.
	Tasks map[string]string
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

// Run re-drives b's requests against o.Target at their recorded offsets,
// concurrently as they were sent, substituting the ids the agent assigns on
// the replay for the recorded ones, and judges terminal immutability and
// cancel finality over every task state the answers show.
func Run(ctx context.Context, b *Bundle, o Options) (*Result, error) {
	base, err := url.Parse(strings.TrimRight(o.Target, "/"))
	if err != nil || base.Host == "" || (base.Scheme != "http" && base.Scheme != "https") {
		return nil, fmt.Errorf("replay: target %q is not an http(s) URL", o.Target)
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
	var (
		mu      sync.Mutex
		mapped  = map[string]string{}
		changed = sync.NewCond(&mu)
		hist    = invariants.NewHistory()
		acked   = map[string]bool{} // replayed task ids whose cancel the agent acknowledged
		res     = &Result{Tasks: map[string]string{}}
	)
	first := b.Requests[0].AtMs
	// Every id a recorded request names must come from an earlier answer,
	// or be the client's own (message ids, a client-chosen context id).
	assigned := map[string]bool{}
	for _, ex := range b.Requests {
		for _, kv := range ids(ex.RespBody, eventsText(ex)) {
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
		changed.Broadcast()
	}
	start := time.Now()
	var wg sync.WaitGroup
	sent := make([]Sent, len(b.Requests))
	for i, ex := range b.Requests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := &sent[i]
			*s = Sent{Seq: ex.Seq, OffsetMs: ex.AtMs - first, Method: ex.Method}
			at := start.Add(time.Duration((ex.AtMs - first) * float64(time.Millisecond)))
			select {
			case <-ctx.Done():
				s.Error = ctx.Err().Error()
				return
			case <-time.After(time.Until(at)):
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
				if n == "Content-Length" {
					continue
				}
				for _, v := range vs {
					if strings.EqualFold(v, "[REDACTED]") {
						v = o.Header.Get(n)
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
			if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
				dec := sse.NewDecoder(sse.WithMaxEventSize(1<<20), sse.WithMaxLineLength(1<<20))
				var recorded [][2]string
				if len(ex.Events) > 0 {
					recorded = ids(ex.Events[0].Data)
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
					})
					if rerr != nil {
						break
					}
				}
				s.Events = n
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
			if op == "CancelTask" && st == a2a.TaskStateCanceled && id != "" {
				// The task the agent acknowledged, as its own answer names
				// it: never a mapped id, which may be misaligned.
				mu.Lock()
				acked[id] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	res.Sent = sent
	mu.Lock()
	defer mu.Unlock()
	for old, n := range mapped {
		res.Tasks[old] = n
	}
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
		res.Violations = append(res.Violations, invariants.TerminalImmutable(task)...)
	}
	recorded := map[string]string{}
	for old, n := range mapped {
		recorded[n] = old
	}
	ackedIDs := make([]string, 0, len(acked))
	for id := range acked {
		ackedIDs = append(ackedIDs, id)
	}
	sort.Strings(ackedIDs)
	for _, id := range ackedIDs {
		for _, o := range invariants.ForTask(obs, id) {
			if o.State.Terminal() && o.State != a2a.TaskStateCanceled {
				where := "task " + id
				if old, ok := recorded[id]; ok {
					where += " (recorded as " + old + ")"
				}
				res.Violations = append(res.Violations, invariants.Violation{Invariant: "cancel-acknowledged-is-final",
					Where: where + ", " + o.Ref, Expected: "TASK_STATE_CANCELED: the replayed cancel was acknowledged",
					Actual: string(o.State)})
			}
		}
	}
	return res, nil
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
	case strings.Contains(rawURL, "message:send"), strings.Contains(rawURL, "message:stream"):
		return "SendMessage"
	}
	return "GetTask"
}

// observe records the task state (and artifacts) an answer or event shows,
// on either binding, and returns the task it names and its state.
func observe(h *invariants.History, src invariants.Source, channel, data string, issued time.Duration, ref string) (string, a2a.TaskState) {
	var doc struct {
		Result json.RawMessage `json:"result"`
	}
	raw := []byte(data)
	if json.Unmarshal(raw, &doc) == nil && len(doc.Result) > 0 {
		raw = doc.Result
	}
	raw = bytes.TrimSpace(raw)
	var ev a2a.StreamResponse
	if json.Unmarshal(raw, &ev) != nil {
		return "", ""
	}
	var task *a2a.Task
	if ev.Task == nil && ev.StatusUpdate == nil && ev.ArtifactUpdate == nil && ev.Message == nil {
		var t a2a.Task
		if json.Unmarshal(raw, &t) == nil && t.ID != "" {
			task = &t
		}
	} else {
		task = ev.Task
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
