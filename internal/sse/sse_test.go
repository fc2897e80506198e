package sse

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// readAll drains a Reader, returning the events and the final error.
func readAll(r *Reader) ([]Event, error) {
	var evs []Event
	for {
		ev, err := r.Next()
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
}

func TestWHATWGRules(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want []Event
		err  error // io.EOF unless set
	}{
		{"single data", "data: hello\n\n", []Event{{Data: "hello"}}, nil},
		{"no space after colon", "data:hello\n\n", []Event{{Data: "hello"}}, nil},
		{"only one space removed", "data:  two\n\n", []Event{{Data: " two"}}, nil},
		{"multi-line data joined with LF", "data: a\ndata: b\ndata:\n\n", []Event{{Data: "a\nb\n"}}, nil},
		{"empty data dispatches empty event", "data\n\n", []Event{{Data: ""}}, nil},
		{"event and id", "event: update\nid: 7\ndata: x\n\n", []Event{{Type: "update", ID: "7", Data: "x"}}, nil},
		{"id persists, type resets", "id: 1\nevent: e\ndata: a\n\ndata: b\n\n",
			[]Event{{Type: "e", ID: "1", Data: "a"}, {ID: "1", Data: "b"}}, nil},
		{"id with NUL ignored", "id: 1\ndata: a\n\nid: x\x00y\ndata: b\n\n",
			[]Event{{ID: "1", Data: "a"}, {ID: "1", Data: "b"}}, nil},
		{"empty id resets", "id: 1\ndata: a\n\nid\ndata: b\n\n",
			[]Event{{ID: "1", Data: "a"}, {ID: "", Data: "b"}}, nil},
		{"comments and keep-alives skipped", ": keep-alive\n\n:\ndata: x\n: mid\n\n: keep-alive\n\n",
			[]Event{{Data: "x"}}, nil},
		{"CRLF endings", "data: a\r\ndata: b\r\n\r\n", []Event{{Data: "a\nb"}}, nil},
		{"CR endings", "data: a\rdata: b\r\r", []Event{{Data: "a\nb"}}, nil},
		{"mixed endings", "data: a\r\ndata: b\rdata: c\n\r\n", []Event{{Data: "a\nb\nc"}}, nil},
		{"BOM at start dropped", "\xEF\xBB\xBFdata: x\n\n", []Event{{Data: "x"}}, nil},
		{"BOM later is data", "data: x\n\n\xEF\xBB\xBFdata: y\n\n", []Event{{Data: "x"}}, nil},
		{"event without data not dispatched", "event: ping\n\ndata: x\n\n", []Event{{Data: "x"}}, nil},
		{"unknown fields ignored", "foo: bar\ndata: x\nDATA: y\n\n", []Event{{Data: "x"}}, nil},
		{"colon in value kept", `data: {"a":"b:c"}` + "\n\n", []Event{{Data: `{"a":"b:c"}`}}, nil},
		{"blank lines between events", "\n\n\ndata: a\n\n\n\ndata: b\n\n", []Event{{Data: "a"}, {Data: "b"}}, nil},
		{"clean end after pending event field", "data: a\n\nevent: x\n", []Event{{Data: "a"}}, nil},
		{"clean end after comment without newline", "data: a\n\n: bye", []Event{{Data: "a"}}, nil},
		{"empty stream", "", nil, nil},
		{"final event without blank line discarded", "data: a\n\ndata: b\n", []Event{{Data: "a"}}, &IncompleteEventError{}},
		{"partial final line discarded", "data: a\n\ndata: b", []Event{{Data: "a"}}, &IncompleteEventError{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, mode := range []string{"whole", "one-byte"} {
				var src io.Reader = strings.NewReader(tc.in)
				if mode == "one-byte" {
					src = iotest.OneByteReader(src)
				}
				got, err := readAll(NewReader(src))
				if !reflect.DeepEqual(got, tc.want) {
					t.Errorf("%s: events\n got %#v\nwant %#v", mode, got, tc.want)
				}
				if tc.err == nil {
					if err != io.EOF {
						t.Errorf("%s: end error %v, want io.EOF", mode, err)
					}
				} else if reflect.TypeOf(err) != reflect.TypeOf(tc.err) {
					t.Errorf("%s: end error %T (%v), want %T", mode, err, err, tc.err)
				}
			}
		})
	}
}

func TestIncompleteEventKeepsEvidence(t *testing.T) {
	_, err := readAll(NewReader(strings.NewReader("data: {\"task\":1}\n")))
	var inc *IncompleteEventError
	if !errors.As(err, &inc) {
		t.Fatalf("got %v, want IncompleteEventError", err)
	}
	if string(inc.Pending) != "{\"task\":1}\n" {
		t.Fatalf("pending %q", inc.Pending)
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("IncompleteEventError should unwrap to io.ErrUnexpectedEOF")
	}
	// The error is sticky.
	if _, err2 := NewReader(strings.NewReader("x")).Next(); err2 == nil {
		t.Fatal("partial line without terminator should be reported")
	}
}

func TestRetry(t *testing.T) {
	r := NewReader(strings.NewReader("retry: 1500\ndata: a\n\nretry: 12x\ndata: b\n\n"))
	if _, ok := r.Retry(); ok {
		t.Fatal("retry set before any input")
	}
	if _, err := readAll(r); err != io.EOF {
		t.Fatal(err)
	}
	d, ok := r.Retry()
	if !ok || d != 1500*time.Millisecond {
		t.Fatalf("retry %v %v, want 1.5s (the invalid 12x must be ignored)", d, ok)
	}
	r = NewReader(strings.NewReader("retry: 99999999999999999999999\ndata: a\n\n"))
	readAll(r)
	if _, ok := r.Retry(); ok {
		t.Fatal("overflowing retry must be ignored")
	}
}

func TestLimits(t *testing.T) {
	t.Run("event size", func(t *testing.T) {
		in := "data: ok\n\n" + strings.Repeat("data: 0123456789\n", 20) + "\n"
		got, err := readAll(NewReader(strings.NewReader(in), WithMaxEventSize(100)))
		var le *LimitError
		if !errors.As(err, &le) || le.Limit != "event size" || le.Max != 100 {
			t.Fatalf("got %v, want event size LimitError", err)
		}
		if len(got) != 1 || got[0].Data != "ok" {
			t.Fatalf("events before the limit must be delivered: %#v", got)
		}
		if !strings.Contains(err.Error(), "100-byte") {
			t.Fatalf("error should name the limit: %v", err)
		}
	})
	t.Run("line length without terminator", func(t *testing.T) {
		src := io.MultiReader(strings.NewReader("data: "), neverEnding('x'))
		_, err := readAll(NewReader(src, WithMaxLineLength(1000)))
		var le *LimitError
		if !errors.As(err, &le) || le.Limit != "line length" {
			t.Fatalf("got %v, want line length LimitError", err)
		}
	})
	t.Run("comment lines bounded too", func(t *testing.T) {
		in := ":" + strings.Repeat("k", 5000) + "\n\n"
		_, err := readAll(NewReader(strings.NewReader(in), WithMaxLineLength(1000)))
		var le *LimitError
		if !errors.As(err, &le) {
			t.Fatalf("got %v, want LimitError", err)
		}
	})
	t.Run("comments do not count toward the event", func(t *testing.T) {
		in := strings.Repeat(": keep-alive\n", 100) + "data: x\n\n"
		got, err := readAll(NewReader(strings.NewReader(in), WithMaxEventSize(20)))
		if err != io.EOF || len(got) != 1 {
			t.Fatalf("got %v %v", got, err)
		}
	})
	t.Run("unbounded stream of small events stays bounded", func(t *testing.T) {
		// Blank lines forever: no event, no growth; stop after a bounded amount.
		r := NewReader(&countingReader{r: neverEnding('\n'), max: 1 << 20})
		if _, err := r.Next(); err != io.EOF {
			t.Fatalf("got %v", err)
		}
	})
}

func TestSplitCRLFDoesNotBlockDispatch(t *testing.T) {
	// The event ends with CR CR; the decoder must dispatch without waiting for
	// a possible LF, and the LF arriving later must not become a blank line.
	pr, pw := io.Pipe()
	r := NewReader(pr)
	go func() {
		pw.Write([]byte("data: a\r\r"))
	}()
	ev, err := r.Next()
	if err != nil || ev.Data != "a" {
		t.Fatalf("got %#v %v", ev, err)
	}
	go func() {
		pw.Write([]byte("\ndata: b\r\n\r\n"))
		pw.Close()
	}()
	got, err := readAll(r)
	if err != io.EOF || len(got) != 1 || got[0].Data != "b" {
		t.Fatalf("got %#v %v", got, err)
	}
}

func TestSourceErrorsSurface(t *testing.T) {
	boom := errors.New("boom")
	r := NewReader(io.MultiReader(strings.NewReader("data: a\n\n"), iotest.ErrReader(boom)))
	got, err := readAll(r)
	if len(got) != 1 || !errors.Is(err, boom) {
		t.Fatalf("got %#v %v", got, err)
	}
	r = NewReader(zeroReader{})
	if _, err := r.Next(); !errors.Is(err, io.ErrNoProgress) {
		t.Fatalf("got %v, want io.ErrNoProgress", err)
	}
}

func TestDecoderFeedMatchesReader(t *testing.T) {
	in := "data: a\r\n\r\n: c\ndata: b\rid: 9\r\r"
	var got []Event
	d := NewDecoder()
	for i := 0; i < len(in); i++ {
		if err := d.Feed([]byte{in[i]}, func(ev Event) { got = append(got, ev) }); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.End(); err != nil {
		t.Fatal(err)
	}
	want := []Event{{Data: "a"}, {Data: "b", ID: "9"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %#v want %#v", got, want)
	}
}

type neverEnding byte

func (b neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

type countingReader struct {
	r   io.Reader
	n   int
	max int
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.n >= c.max {
		return 0, io.EOF
	}
	if len(p) > c.max-c.n {
		p = p[:c.max-c.n]
	}
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

type zeroReader struct{}

func (zeroReader) Read([]byte) (int, error) { return 0, nil }

func BenchmarkReader(b *testing.B) {
	var buf bytes.Buffer
	for i := 0; i < 1000; i++ {
		buf.WriteString(`data: {"jsonrpc":"2.0","id":1,"result":{"statusUpdate":{"taskId":"t","contextId":"c","status":{"state":"TASK_STATE_WORKING"}}}}` + "\n\n")
	}
	in := buf.Bytes()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		r := NewReader(bytes.NewReader(in))
		for {
			if _, err := r.Next(); err != nil {
				break
			}
		}
	}
}
