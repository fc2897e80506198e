package runner

import (
	"context"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/client"
)

// fronted is a deployment of two instances behind a balancer and a CDN.
type fronted struct{}

func (fronted) Driver() string          { return "process" }
func (fronted) BalancerURL() string     { return "http://127.0.0.1:9000" }
func (fronted) InstanceNames() []string { return []string{"a", "b"} }
func (fronted) InstanceURL(k int) string {
	return []string{"http://127.0.0.1:9001", "http://127.0.0.1:9002"}[k]
}
func (fronted) Pin(k int) client.Option     { return nil }
func (fronted) CDNURL() string              { return "http://127.0.0.1:9009/" }
func (fronted) ReleaseCard() (expired bool) { return false }
func (fronted) HoldCard(context.Context, http.Header) (string, time.Duration, error) {
	return "", 0, nil
}

// --max-rps holds per instance: a request to an instance's own address or
// pinned to its slot takes that slot's bucket; an unpinned one through the
// balancer or the CDN, or one to an address of no known instance (a gRPC
// listener), every slot's.
func TestPaceRouteByInstance(t *testing.T) {
	route := paceRoute(fronted{})
	for _, c := range []struct {
		authority, pin string
		want           []string
	}{
		{"127.0.0.1:9000", "", []string{"slot 0", "slot 1"}},
		{"127.0.0.1:9000", "1", []string{"slot 1"}},
		{"127.0.0.1:9009", "", []string{"slot 0", "slot 1"}},
		{"127.0.0.1:9000", "7", []string{"slot 0", "slot 1"}},
		{"127.0.0.1:9002", "", []string{"slot 1"}},
		{"127.0.0.1:9500", "", []string{"slot 0", "slot 1"}},
	} {
		if got := route(c.authority, c.pin); !reflect.DeepEqual(got, c.want) {
			t.Errorf("route(%q, %q) = %v, want %v", c.authority, c.pin, got, c.want)
		}
	}
	if paceRoute(nil) != nil {
		t.Error("without a fronted deployment every address is its own bucket")
	}
}
