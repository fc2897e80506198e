package fakes

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
)

func benchInstance(b *testing.B, st *Store, name string) *client.Client {
	b.Helper()
	a, err := New(fastOpts(Options{Name: name, Store: st}))
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(a)
	if err := a.Start(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { a.Shutdown(context.Background()); srv.Close() })
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	c, err := client.New(a2a.AgentInterface{URL: srv.URL + JSONRPCPath, ProtocolBinding: a2a.BindingJSONRPC, ProtocolVersion: "1.0"},
		client.WithHTTPClient(hc))
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkSendGet measures SendMessage (blocking echo: create, WORKING,
// artifact, COMPLETED, all committed) followed by GetTask, over JSON-RPC on
// loopback. With two instances the send goes to A and the get to B.
func BenchmarkSendGet(b *testing.B) {
	cases := []struct {
		name  string
		setup func(b *testing.B) (send, get *client.Client)
	}{
		{"memory-1-instance", func(b *testing.B) (*client.Client, *client.Client) {
			c := benchInstance(b, OpenMemoryStore(), "a")
			return c, c
		}},
		{"sqlite-1-instance", func(b *testing.B) (*client.Client, *client.Client) {
			st, err := OpenSQLiteStore(filepath.Join(b.TempDir(), "bench.db"))
			if err != nil {
				b.Fatal(err)
			}
			b.Cleanup(func() { st.Close() })
			c := benchInstance(b, st, "a")
			return c, c
		}},
		{"sqlite-2-instances", func(b *testing.B) (*client.Client, *client.Client) {
			path := filepath.Join(b.TempDir(), "bench.db")
			var cs []*client.Client
			for _, name := range []string{"a", "b"} {
				st, err := OpenSQLiteStore(path)
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { st.Close() })
				cs = append(cs, benchInstance(b, st, name))
			}
			return cs[0], cs[1]
		}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			send, get := c.setup(b)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					resp, err := send.SendMessage(ctx, &a2a.SendMessageRequest{Message: userMsg("bench")})
					if err != nil {
						b.Error(err)
						return
					}
					if resp.Task.Status.State != a2a.TaskStateCompleted {
						b.Errorf("state %s", resp.Task.Status.State)
						return
					}
					if _, err := get.GetTask(ctx, &a2a.GetTaskRequest{ID: resp.Task.ID}); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "roundtrips/s")
		})
	}
}
