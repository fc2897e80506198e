package recorder

import (
	"context"
	"net/http"
	"net/url"
	"time"
)

// Call is the record of one gRPC call (the gRPC binding has no
// http.RoundTripper to wrap): method is the rpc name, the URL
// grpc://host/lf.a2a.v1.A2AService/Method, bodies and stream messages are
// ProtoJSON, headers are the metadata, and Status is the gRPC status code
// (0 OK, omitted in reports; the grpc-status header says it too). Bodies are
// capped and redacted exactly as HTTP bodies are.
type Call struct {
	r  *Recorder
	ex *exchange
}

// BeginCall records the start of a gRPC call.
func (r *Recorder) BeginCall(ctx context.Context, method, target string, header http.Header, body []byte) *Call {
	u, err := url.Parse(target)
	if err != nil {
		u = &url.URL{Scheme: "grpc", Opaque: target}
	}
	ex := &exchange{at: time.Since(r.start), dir: "out", method: method, url: u,
		reqHeader: header.Clone(), owner: OwnerOf(ctx)}
	r.mu.Lock()
	limit := r.bodyCap + r.overlap()
	r.mu.Unlock()
	ex.reqBody.write(body, limit)
	r.add(ex)
	noteSeq(ctx, ex.seq)
	return &Call{r: r, ex: ex}
}

// Event records one message of a server stream.
func (c *Call) Event(data []byte) {
	r := c.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(c.ex.events) >= r.eventCap {
		c.ex.evDropped++
		return
	}
	limit := r.bodyCap + r.overlap()
	d, cut := data, len(data) > limit
	if cut {
		d = d[:limit]
	}
	c.ex.events = append(c.ex.events, event{at: time.Since(r.start), data: append([]byte(nil), d...), cut: cut})
}

// End records the outcome: status code, response metadata (header and
// trailer), the response or google.rpc.Status as ProtoJSON, and a failure
// that left no status. A second End is ignored.
func (c *Call) End(code int, header http.Header, body []byte, err error) {
	r := c.r
	r.mu.Lock()
	if c.ex.finished {
		r.mu.Unlock()
		return
	}
	limit := r.bodyCap + r.overlap()
	c.ex.status = code
	c.ex.respHeader = header.Clone()
	if r.instanceHeader != "" && header != nil {
		c.ex.instance = header.Get(r.instanceHeader)
	}
	c.ex.respBody.write(body, limit)
	if err != nil {
		c.ex.err = err.Error()
	}
	r.mu.Unlock()
	r.finish(c.ex, nil)
}
