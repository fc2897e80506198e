package sse

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"
	"testing/iotest"
)

// FuzzReader checks that no input panics, that every event and error respects
// the configured bounds, and that the result does not depend on how the input
// is split into reads (the CR/LF-across-reads case).
func FuzzReader(f *testing.F) {
	for _, s := range []string{
		"data: a\n\n",
		"data: a\r\ndata: b\r\n\r\n",
		"data: a\rdata: b\r\r",
		"\xEF\xBB\xBFevent: e\nid: 1\nretry: 10\ndata: x\n\n",
		": keep-alive\n\n",
		"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\ndata: tail",
		"id: a\x00b\ndata\n\n",
		"data:" + string(bytes.Repeat([]byte("x"), 300)) + "\n\n",
		"\r\n\r\r\n\n",
	} {
		f.Add([]byte(s))
	}
	const maxEvent, maxLine = 256, 128
	f.Fuzz(func(t *testing.T, in []byte) {
		run := func(src io.Reader) ([]Event, error) {
			r := NewReader(src, WithMaxEventSize(maxEvent), WithMaxLineLength(maxLine))
			var evs []Event
			for i := 0; ; i++ {
				if i > len(in)+1 {
					t.Fatalf("more events (%d) than input bytes (%d)", i, len(in))
				}
				ev, err := r.Next()
				if err != nil {
					return evs, err
				}
				if len(ev.Data) > maxEvent {
					t.Fatalf("event data of %d bytes exceeds the %d-byte bound", len(ev.Data), maxEvent)
				}
				evs = append(evs, ev)
			}
		}
		whole, errWhole := run(bytes.NewReader(in))
		split, errSplit := run(iotest.OneByteReader(bytes.NewReader(in)))
		if !reflect.DeepEqual(whole, split) {
			t.Fatalf("events depend on read boundaries:\nwhole %#v\nsplit %#v", whole, split)
		}
		if reflect.TypeOf(errWhole) != reflect.TypeOf(errSplit) {
			t.Fatalf("end error depends on read boundaries: %v vs %v", errWhole, errSplit)
		}
		var inc *IncompleteEventError
		if errors.As(errWhole, &inc) && len(inc.Pending) > maxPending {
			t.Fatalf("pending evidence of %d bytes exceeds its cap", len(inc.Pending))
		}
	})
}
