package fakes

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// keepAliveEvery is how often an idle stream sends an SSE comment, so that
// proxies do not cut a stream waiting on a long delay.
const keepAliveEvery = 15 * time.Second

// rewrite applies the faults that corrupt every JSON body the agent sends
// (results, stream events, pushes).
func (a *Agent) rewrite(b []byte) []byte {
	if a.faults.has(faultSnakeCaseFields) {
		b = snakeCaseKeys(b)
	}
	if a.faults.has(faultTimestampWithOffset) {
		b = offsetTimestamps(b)
	}
	if a.faults.has(faultV03TaskShape) {
		b = v03Kinds(b)
	}
	return b
}

// eventSink is where pump writes a stream: an SSE response, or a gRPC
// server stream (grpc.go).
type eventSink interface {
	event(data []byte) error
	comment(text string) error
}

// sseWriter writes one text/event-stream response.
type sseWriter struct {
	w       http.ResponseWriter
	flusher http.Flusher
}

func startSSE(w http.ResponseWriter) *sseWriter {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	f, _ := w.(http.Flusher)
	s := &sseWriter{w: w, flusher: f}
	s.flush()
	return s
}

func (s *sseWriter) flush() {
	if s.flusher != nil {
		s.flusher.Flush()
	}
}

// event writes one event; data is a single line of JSON (encoding/json never
// emits a raw newline), so one data: line suffices.
func (s *sseWriter) event(data []byte) error {
	buf := make([]byte, 0, len(data)+8)
	buf = append(buf, "data: "...)
	buf = append(buf, data...)
	buf = append(buf, '\n', '\n')
	if _, err := s.w.Write(buf); err != nil {
		return err
	}
	s.flush()
	return nil
}

func (s *sseWriter) comment(text string) error {
	if _, err := s.w.Write([]byte(": " + text + "\n\n")); err != nil {
		return err
	}
	s.flush()
	return nil
}

// keepsStreamIn reports whether a SendStreamingMessage stream stays open in
// an interrupted state: in AUTH_REQUIRED the credential may arrive out of
// band and the task go on without a client message, so the agent keeps the
// stream (spec §7.6.1 SHOULD); INPUT_REQUIRED ends the turn, as a blocking
// SendMessage would return. Options.CloseStreamAtAuthRequired takes §11.7's
// reading instead (streams close on interrupted states; A2A v1.0 §3.1.6 UNSURE).
func (a *Agent) keepsStreamIn(st a2a.TaskState) bool {
	return st == a2a.TaskStateAuthRequired && !a.opts.CloseStreamAtAuthRequired
}

// pump writes a stream's events through frame (which adds the binding's
// envelope) until the stream's end, the client leaving, or shutdown. Under
// stream-no-close it keeps the stream open after the terminal event.
func (a *Agent) pump(ctx context.Context, es *eventStream, out eventSink, frame func([]byte) []byte) {
	if es.sub != nil {
		defer es.sub.close()
	}
	if es.release != nil {
		defer es.release()
	}
	muted := es.muted
	for _, ev := range es.first {
		b, _ := json.Marshal(ev)
		if out.event(frame(a.rewrite(b))) != nil {
			return
		}
	}
	if es.sub == nil {
		return
	}
	keepAlive := time.NewTicker(keepAliveEvery)
	defer keepAlive.Stop()
	noClose := a.faults.has(faultStreamNoClose)
	// kept says the stream was kept open in AUTH_REQUIRED (for the fault
	// auth-required-stream-dropped, which drops it when the task moves on).
	kept := false
	remote := a.remoteArtifactFilter()
	for {
		select {
		case <-ctx.Done():
			return
		case <-keepAlive.C:
			if out.comment("keep-alive") != nil {
				return
			}
		case <-es.sub.ready:
			evs, closed := es.sub.take()
			for _, e := range evs {
				if e.Version <= es.after || remote.drop(e, a.owner) {
					continue
				}
				if kept && e.State != "" && e.State != a2a.TaskStateAuthRequired && a.faults.has(faultAuthRequiredStreamDropped) {
					return
				}
				if !muted && out.event(frame(a.rewrite(e.Body))) != nil {
					return
				}
				end := e.State.Terminal() || (es.closeOnInterrupted && e.State.Interrupted() && !a.keepsStreamIn(e.State))
				if end && !noClose {
					return
				}
				kept = kept || (es.closeOnInterrupted && e.State == a2a.TaskStateAuthRequired)
			}
			if closed {
				return
			}
		}
	}
}
