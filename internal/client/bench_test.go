package client

import (
	"context"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// BenchmarkGetTask measures the client's own cost per call (request build,
// envelope checks, lenient decode) over an in-memory transport.
func BenchmarkGetTask(b *testing.B) {
	for _, binding := range []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON} {
		b.Run(binding, func(b *testing.B) {
			answer := fixed(200, "application/json", taskJSON)
			if binding == a2a.BindingJSONRPC {
				answer = rpcResult(taskJSON)
			}
			c, m := newMocked(b, binding, "", answer)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: "t1"}); err != nil {
					b.Fatal(err)
				}
				m.requests = m.requests[:0]
			}
		})
	}
}
