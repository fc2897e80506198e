package runner

import (
	"fmt"
	"io"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// progress prints one line per finished spec, as it always has. On a
// terminal it also keeps a live status line under them (specs done/total,
// elapsed, what is running), redrawn in place with a carriage return, so a
// run that waits minutes on a slow agent visibly moves. Anywhere else (CI
// logs, pipes, files) the output is the plain lines alone, unchanged.
type progress struct {
	mu      sync.Mutex
	w       io.Writer
	live    bool
	total   int
	start   time.Time
	now     func() time.Time
	done    map[string]bool
	running map[string]time.Time // spec ID → when its body began
	shown   bool                 // a live line is on screen
	// cnr groups could-not-run specs by their cause (cause): the first of
	// each is printed with its reason, the others only counted, and end
	// says each shared cause once ("68 specs could not run: …").
	cnr      map[string][]string
	cnrOrder []string
	stop     chan struct{}
	stopped  chan struct{}
}

// liveWidth bounds the live line: a line longer than the terminal wraps, and
// a carriage return then redraws only its last row. Without a dependency we
// cannot ask the terminal its width, so we take $COLUMNS or the classic 80.
func liveWidth() int {
	var n int
	if _, err := fmt.Sscan(os.Getenv("COLUMNS"), &n); err == nil && n >= 20 {
		return n - 1
	}
	return 79
}

// isTerminal reports whether w is a character device (a terminal) that
// understands a carriage return and the erase-line sequence. TERM=dumb
// (Emacs shells, some CI consoles) gets plain lines.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func newProgress(w io.Writer, total int, live bool) *progress {
	return &progress{
		w: w, live: live, total: total, start: time.Now(), now: time.Now,
		done: map[string]bool{}, running: map[string]time.Time{},
	}
}

// tick redraws the live line every interval until end is called, so the
// elapsed time moves while every running spec waits on the agent.
func (p *progress) tick(interval time.Duration) {
	if !p.live {
		return
	}
	p.stop, p.stopped = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(p.stopped)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.mu.Lock()
				p.draw()
				p.mu.Unlock()
			}
		}
	}()
}

// began and ended are told (by suites.OnBody) when a spec's body begins
// and ends.
func (p *progress) began(info suites.Info) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running[info.ID] = p.now()
	p.draw()
}

func (p *progress) ended(info suites.Info) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, info.ID)
	p.draw()
}

// finished is told (by suites.OnResult) that a spec ended: the plain line,
// then the live line again below it.
func (p *progress) finished(r reports.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.running, r.ID)
	p.done[r.ID] = true
	if p.sameCause(r) {
		p.draw()
		return
	}
	p.clear()
	progressLine(p.w, r)
	p.draw()
}

// end stops the ticker and erases the live line, leaving only plain lines.
func (p *progress) end() {
	if p.stop != nil {
		close(p.stop)
		<-p.stopped
		p.stop = nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	p.causes()
}

func (p *progress) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

func (p *progress) draw() {
	if !p.live {
		return
	}
	p.clear()
	fmt.Fprint(p.w, suites.Cut(p.status(), liveWidth()-1))
	p.shown = true
}

// status is the live line: "12/47 done · 1m05s · running LIFE-014 (41s)",
// and with several specs at once the count and the oldest of them, which is
// the one holding the run up: "running 6, oldest LIFE-014 (41s)".
func (p *progress) status() string {
	now := p.now()
	s := fmt.Sprintf("%d/%d done · %s", len(p.done), p.total, clock(now.Sub(p.start)))
	if len(p.running) == 0 {
		return s
	}
	ids := make([]string, 0, len(p.running))
	for id := range p.running {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(a, b int) bool {
		ta, tb := p.running[ids[a]], p.running[ids[b]]
		if !ta.Equal(tb) {
			return ta.Before(tb)
		}
		return ids[a] < ids[b]
	})
	oldest := fmt.Sprintf("%s (%s)", ids[0], clock(now.Sub(p.running[ids[0]])))
	if len(ids) == 1 {
		return s + " · running " + oldest
	}
	return fmt.Sprintf("%s · running %d, oldest %s", s, len(ids), oldest)
}

// clock renders a duration to the second: "7s", "1m05s", "1h02m03s".
func clock(d time.Duration) string {
	d = d.Round(time.Second)
	h, m, s := int(d/time.Hour), int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	switch {
	case h > 0:
		return fmt.Sprintf("%dh%02dm%02ds", h, m, s)
	case m > 0:
		return fmt.Sprintf("%dm%02ds", m, s)
	}
	return fmt.Sprintf("%ds", s)
}

// progressLine is the plain per-spec line.
func progressLine(w io.Writer, r reports.Result) {
	line := fmt.Sprintf("%-9s %-15s %6dms  %s", r.ID, r.Verdict, r.DurationMs, r.Title)
	if r.Verdict != reports.Pass && r.Reason != "" {
		line += "\n          └ " + suites.Cut(firstLine(r.Reason), 160)
	}
	fmt.Fprintln(w, line)
}
