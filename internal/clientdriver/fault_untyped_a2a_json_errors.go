package clientdriver

import (
	"bytes"
	"io"
	"mime"
	"net/http"
)

// faultUntypedA2AJSONErrors: an HTTP+JSON error answered with Content-Type
// application/a2a+json (the media type v1.0.1 asks for) is not parsed: its
// body is dropped as if it were no JSON, so the error is raised as a bare
// HTTP error and its ErrorInfo reason (TASK_NOT_FOUND, …) is lost; the same
// body as application/json is typed (an SDK bug class: an error parser gated
// on Content-Type == application/json).
var faultUntypedA2AJSONErrors = registerFault(Fault{
	Name:        "untyped-a2a-json-errors",
	Description: "Drops the body of an HTTP+JSON error answered as application/a2a+json, so the error is raised untyped (a bare HTTP status) instead of as the A2A error its ErrorInfo names.",
	Specs:       []string{"CLI-009"},
})

// transport applies the faults that act on HTTP requests and answers.
func (fs faultSet) transport(base http.RoundTripper) http.RoundTripper {
	if fs.has(faultSnakeCaseListParams) {
		base = snakeCaseListParams(base)
	}
	if !fs.has(faultUntypedA2AJSONErrors) {
		return base
	}
	return roundTripper(func(r *http.Request) (*http.Response, error) {
		resp, err := base.RoundTrip(r)
		if err != nil || resp.StatusCode < 400 {
			return resp, err
		}
		if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt == "application/a2a+json" {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
			resp.Body.Close()
			resp.Body = io.NopCloser(bytes.NewReader(nil))
			resp.ContentLength = 0
			resp.Header.Del("Content-Length")
		}
		return resp, nil
	})
}
