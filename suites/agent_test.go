package suites

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
)

// fronted is a deployment whose instances served on ports 4001 and 4002
// (two generations), behind a balancer on 5000.
type fronted struct{}

func (fronted) Driver() string          { return "process" }
func (fronted) BalancerURL() string     { return "http://127.0.0.1:5000" }
func (fronted) InstanceNames() []string { return []string{"a"} }
func (fronted) InstanceURL(int) string  { return "http://127.0.0.1:4002" }
func (fronted) Pin(int) client.Option   { return nil }
func (fronted) IsInstanceOrigin(o string) bool {
	return o == "http://127.0.0.1:4001" || o == "http://127.0.0.1:4002"
}

// plain has no InstanceOrigins: nothing is rewritten.
type plain struct{}

func (plain) Driver() string { return "none" }

func TestThroughBalancer(t *testing.T) {
	for _, c := range []struct {
		topo     Topology
		url, out string
	}{
		{fronted{}, "http://127.0.0.1:4001/a2a/jsonrpc", "http://127.0.0.1:5000/a2a/jsonrpc"}, // a replaced instance
		{fronted{}, "http://127.0.0.1:4002/a2a/rest?x=1", "http://127.0.0.1:5000/a2a/rest?x=1"},
		{fronted{}, "http://127.0.0.1:5000/a2a/jsonrpc", "http://127.0.0.1:5000/a2a/jsonrpc"}, // the balancer itself
		{fronted{}, "https://agent.example.com/a2a", "https://agent.example.com/a2a"},         // the vendor's public URL
		{fronted{}, "127.0.0.1:4001", "127.0.0.1:4001"},                                       // gRPC host:port
		{plain{}, "http://127.0.0.1:4001/a2a/jsonrpc", "http://127.0.0.1:4001/a2a/jsonrpc"},
		{nil, "http://127.0.0.1:4001/a2a/jsonrpc", "http://127.0.0.1:4001/a2a/jsonrpc"},
	} {
		in := a2a.AgentInterface{URL: c.url, ProtocolBinding: "JSONRPC"}
		if got := throughBalancer(c.topo, in); got.URL != c.out || got.ProtocolBinding != "JSONRPC" {
			t.Errorf("%T %s: got %s, want %s", c.topo, c.url, got.URL, c.out)
		}
	}
}
