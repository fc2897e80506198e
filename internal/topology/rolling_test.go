package topology

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/client"
)

// TestRollPreviousThenOn: the previous build's card lists its own interface
// and required extension (fakes tests that it serves them); the build
// rolled to after it (RollWithout) lists neither.
func TestRollPreviousThenOn(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	e, err := StartEmbedded(ctx, EmbeddedOptions{Instances: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	has := func() (iface, ext bool) {
		t.Helper()
		cr, err := client.FetchCard(ctx, nil, e.BalancerURL(), nil)
		if err != nil || cr.Card == nil {
			t.Fatalf("card: %v", err)
		}
		for _, i := range cr.Card.SupportedInterfaces {
			iface = iface || strings.HasSuffix(i.URL, fakes.PreviousBuildRESTPath)
		}
		for _, x := range cr.Card.Capabilities.Extensions {
			ext = ext || (x.URI == fakes.PreviousBuildExtension && x.Required)
		}
		return iface, ext
	}
	if i, x := has(); i || x {
		t.Fatalf("the run's own build declares the previous build's interface (%v) or extension (%v)", i, x)
	}
	gen, err := e.RollPrevious(ctx, nil)
	if err != nil || gen != 2 {
		t.Fatalf("RollPrevious: generation %d, %v", gen, err)
	}
	if i, x := has(); !i || !x {
		t.Fatalf("the previous build lacks its interface (%v) or its required extension (%v)", i, x)
	}
	if gen, err = e.RollWithout(ctx, true, false, nil); err != nil || gen != 3 {
		t.Fatalf("RollWithout: generation %d, %v", gen, err)
	}
	if i, x := has(); i || x {
		t.Fatalf("the build after the previous one still declares its interface (%v) or extension (%v)", i, x)
	}
	cr, _ := client.FetchCard(ctx, nil, e.BalancerURL(), nil)
	if cr.Card.Streaming() || !cr.Card.PushNotifications() {
		t.Fatalf("RollWithout(streaming): streaming %v, push %v", cr.Card.Streaming(), cr.Card.PushNotifications())
	}
}
