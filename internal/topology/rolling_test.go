package topology

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
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
	t.Parallel()
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

// cardStatus is the status of a card request to base ("refused" when
// nothing answers).
func cardAt(base string, pin string) string {
	req, _ := http.NewRequest(http.MethodGet, base+CardPath, nil)
	if pin != "" {
		req.Header.Set(PinHeader, pin)
	}
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Do(req)
	if err != nil {
		return "refused"
	}
	defer resp.Body.Close()
	var card struct {
		Version string `json:"version"`
	}
	json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&card)
	if card.Version == "" {
		return fmt.Sprintf("%d", resp.StatusCode)
	}
	return fmt.Sprintf("%d (%s)", resp.StatusCode, card.Version)
}

// TestEmbeddedRollStopsBetweenItsSteps: RollStepped calls back, for each
// slot, before anything changed, once the new instance is ready (the old
// one still holds the slot and serves), and while the old one drains (the
// slot points at the new one; the old one still answers on its own URL,
// refusing new work, until the callback returns). Roll, with only a step
// function, still replaces every slot.
func TestEmbeddedRollStopsBetweenItsSteps(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e, err := StartEmbedded(ctx, EmbeddedOptions{Instances: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	lb := e.BalancerURL()
	var seen []string
	var olds []string
	gen, err := e.RollStepped(ctx, func(ctx context.Context, stage string, k int, oldURL, newURL string) {
		pin := fmt.Sprint(k)
		switch stage {
		case RollBefore:
			if newURL != "" {
				t.Errorf("slot %d before: new URL %q, want none yet", k, newURL)
			}
		case RollReady:
			olds = append(olds, oldURL)
			// The slot still routes to the old instance, which serves.
			seen = append(seen, fmt.Sprintf("%d ready: old %s, pinned %s, new %s", k,
				cardAt(oldURL, ""), cardAt(lb, pin), cardAt(newURL, "")))
			return
		case RollDraining:
			seen = append(seen, fmt.Sprintf("%d draining: old %s, pinned %s", k, cardAt(oldURL, ""), cardAt(lb, pin)))
			return
		}
		seen = append(seen, fmt.Sprintf("%d %s", k, stage))
	})
	if err != nil {
		t.Fatal(err)
	}
	if gen != 2 {
		t.Errorf("generation %d, want 2", gen)
	}
	want := []string{
		"0 before",
		"0 ready: old 200 (1.1.0), pinned 200 (1.1.0), new 200 (1.2.0)",
		"0 draining: old 503, pinned 200 (1.2.0)",
		"1 before",
		"1 ready: old 200 (1.1.0), pinned 200 (1.1.0), new 200 (1.2.0)",
		"1 draining: old 503, pinned 200 (1.2.0)",
	}
	if got := strings.Join(seen, "\n"); got != strings.Join(want, "\n") {
		t.Fatalf("stages:\n%s\nwant:\n%s", got, strings.Join(want, "\n"))
	}
	// Once the roll is over, the old instances are stopped.
	for k, u := range olds {
		if s := cardAt(u, ""); s != "refused" {
			t.Errorf("old instance %d after the roll: %s, want its listener closed", k, s)
		}
	}
	// Roll (Roller's form) is the same roll, told only before each slot.
	var steps []int
	if gen, err := e.Roll(ctx, func(k int) { steps = append(steps, k) }); err != nil || gen != 3 {
		t.Fatalf("Roll: generation %d, %v", gen, err)
	}
	if fmt.Sprint(steps) != "[0 1]" {
		t.Errorf("Roll told %v, want [0 1]", steps)
	}
}
