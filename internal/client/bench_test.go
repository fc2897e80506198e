package client

import (
	"context"
	"net"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/test/bufconn"
	"google.golang.org/protobuf/types/dynamicpb"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/a2agrpc"
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

// BenchmarkGetTaskGRPC is the same call over gRPC: an in-memory listener
// (bufconn) and a real HTTP/2 server answering the same Task, so it also
// pays for the server's framing, which the HTTP mocks do not have.
func BenchmarkGetTaskGRPC(b *testing.B) {
	schema := a2agrpc.MustBuiltin()
	m, _ := schema.Method(a2a.MethodGetTask)
	answer, err := a2agrpc.FromJSON(m.Out, []byte(taskJSON))
	if err != nil {
		b.Fatal(err)
	}
	ln := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	srv.RegisterService(&grpc.ServiceDesc{ServiceName: a2agrpc.Service, HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{{MethodName: a2a.MethodGetTask,
			Handler: func(_ any, _ context.Context, dec func(any) error, _ grpc.UnaryServerInterceptor) (any, error) {
				if err := dec(dynamicpb.NewMessage(m.In)); err != nil {
					return nil, err
				}
				return answer, nil
			}}}}, struct{}{})
	go srv.Serve(ln)
	defer srv.Stop()
	c, err := New(a2a.AgentInterface{URL: "http://127.0.0.1:1", ProtocolBinding: a2a.BindingGRPC},
		WithGRPCDialOptions(grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return ln.DialContext(ctx) })))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.GetTask(ctx, &a2a.GetTaskRequest{ID: "t1"}); err != nil {
			b.Fatal(err)
		}
	}
}
