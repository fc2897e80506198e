package runner

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// fakeClock advances only when told.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time      { return c.t }
func (c *fakeClock) add(d time.Duration) { c.t = c.t.Add(d) }
func newClockedProgress(w *bytes.Buffer, total int, live bool) (*progress, *fakeClock) {
	c := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	p := newProgress(w, total, live)
	p.start, p.now = c.t, c.now
	return p, c
}

var (
	pass = reports.Result{ID: "DISC-001", Verdict: reports.Pass, DurationMs: 12, Title: "the card is served"}
	fail = reports.Result{ID: "LIFE-014", Verdict: reports.Fail, DurationMs: 1700, Title: "cancel wins or loses cleanly",
		Reason: "completed after cancel\nmore detail"}
)

// Off a terminal the output is exactly the per-spec lines the runner has
// always printed: no carriage returns, no escape sequences, no status line.
func TestProgressPlainWhenNotATerminal(t *testing.T) {
	var got, want bytes.Buffer
	p, clock := newClockedProgress(&got, 2, false)
	p.began(suites.Info{ID: "DISC-001"})
	p.began(suites.Info{ID: "LIFE-014"})
	clock.add(3 * time.Second)
	p.ended(suites.Info{ID: "DISC-001"})
	p.finished(pass)
	p.ended(suites.Info{ID: "LIFE-014"})
	p.finished(fail)
	p.end()

	progressLine(&want, pass)
	progressLine(&want, fail)
	if got.String() != want.String() {
		t.Fatalf("non-terminal output changed:\n got %q\nwant %q", got.String(), want.String())
	}
	if !strings.Contains(want.String(), "LIFE-014  fail") || !strings.Contains(want.String(), "└ completed after cancel") {
		t.Fatalf("plain line lost its shape: %q", want.String())
	}
}

// On a terminal the live line follows the plain lines, is erased before each
// plain line is printed, and names what is running.
func TestProgressLiveLineOnATerminal(t *testing.T) {
	var w bytes.Buffer
	p, clock := newClockedProgress(&w, 47, true)

	p.began(suites.Info{ID: "LIFE-014"})
	if s := p.status(); s != "0/47 done · 0s · running LIFE-014 (0s)" {
		t.Fatalf("one spec running: %q", s)
	}
	clock.add(2 * time.Second)
	p.began(suites.Info{ID: "DISC-001"})
	p.began(suites.Info{ID: "DISC-002"})
	clock.add(63 * time.Second)
	if s := p.status(); s != "0/47 done · 1m05s · running 3, oldest LIFE-014 (1m05s)" {
		t.Fatalf("three running: %q", s)
	}

	w.Reset()
	p.ended(suites.Info{ID: "DISC-001"})
	p.finished(pass)
	out := w.String()
	var plain bytes.Buffer
	progressLine(&plain, pass)
	// Each redraw erases the previous live line first; the plain line lands
	// on a clean row and the live line is drawn again after it.
	wantTail := "\r\x1b[K" + plain.String() + "1/47 done · 1m05s · running 2, oldest LIFE-014 (1m05s)"
	if !strings.HasSuffix(out, wantTail) {
		t.Fatalf("after a finished spec:\n got %q\nwant suffix %q", out, wantTail)
	}

	p.ended(suites.Info{ID: "LIFE-014"})
	p.finished(fail)
	p.ended(suites.Info{ID: "DISC-002"})
	if s := p.status(); s != "2/47 done · 1m05s" {
		t.Fatalf("nothing running: %q", s)
	}
	w.Reset()
	p.end()
	if w.String() != "\r\x1b[K" {
		t.Fatalf("end must erase the live line and print nothing else, got %q", w.String())
	}
}

// The live line never wraps: a wrapped line cannot be redrawn in place.
func TestProgressLiveLineFitsTheWidth(t *testing.T) {
	t.Setenv("COLUMNS", "30")
	var w bytes.Buffer
	p, _ := newClockedProgress(&w, 47, true)
	p.began(suites.Info{ID: "LIFE-014"})
	p.began(suites.Info{ID: "LIFE-015"})
	last := w.String()[strings.LastIndex(w.String(), "\x1b[K")+3:]
	if n := len([]rune(last)); n > 29 {
		t.Fatalf("live line %q is %d columns, terminal is 30", last, n)
	}
}

// The ticker moves the elapsed time while nothing finishes, and stops at end.
func TestProgressTicks(t *testing.T) {
	var w syncBuffer
	p := newProgress(&w, 3, true)
	p.tick(5 * time.Millisecond)
	time.Sleep(30 * time.Millisecond)
	p.end()
	n := strings.Count(w.String(), "0/3 done")
	if n < 2 {
		t.Fatalf("ticker drew the live line %d times in 30ms at 5ms", n)
	}
	after := w.String()
	time.Sleep(20 * time.Millisecond)
	if w.String() != after {
		t.Fatal("ticker still drawing after end")
	}
}

func TestIsTerminal(t *testing.T) {
	if isTerminal(&bytes.Buffer{}) {
		t.Fatal("a buffer is not a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Fatal("a regular file is not a terminal")
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !isTerminal(tty) {
			t.Fatal("/dev/tty is a terminal")
		}
		t.Setenv("TERM", "dumb")
		if isTerminal(tty) {
			t.Fatal("TERM=dumb gets plain lines")
		}
	}
}

func TestClock(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0: "0s", 1400 * time.Millisecond: "1s", 65 * time.Second: "1m05s", 3723 * time.Second: "1h02m03s",
	} {
		if got := clock(d); got != want {
			t.Errorf("clock(%s) = %q, want %q", d, got, want)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for the ticker's goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
