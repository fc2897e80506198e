package client_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/fakes"
	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
)

// At --max-rps 50, 20 requests from 4 goroutines to one address take at
// least 19 intervals, and no second holds more than 50; a second address
// has a bucket of its own.
func TestPaceBoundsEachAddress(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var at []time.Time
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		at = append(at, time.Now())
		mu.Unlock()
		w.Header().Set(client.InstanceHeader, "inst-a")
	})
	a := httptest.NewServer(handler)
	b := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(a.Close)
	t.Cleanup(b.Close)
	pace := client.NewPace(50)
	hc := &http.Client{Transport: pace.Transport(http.DefaultTransport)}
	began := time.Now()
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 5; i++ {
				resp, err := hc.Get(a.URL)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
			}
		}()
	}
	// Meanwhile another address gets two requests. Its own bucket lets
	// them through within one interval; a pacer that queued them behind the
	// first address's whole schedule would take them no sooner than its 20.
	// The bound is that schedule's own measured length, not a clock figure:
	// a loaded machine stretches both alike. (One bucket shared by both
	// addresses would only interleave the two among the 20, which no clock
	// bound a loaded machine keeps can tell: TestPaceBucketsWhateverTheLoad
	// catches it without a clock.)
	var tookOther time.Duration
	wg.Add(1)
	go func() {
		defer wg.Done()
		other := time.Now()
		for i := 0; i < 2; i++ {
			resp, err := hc.Get(b.URL)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
		}
		tookOther = time.Since(other)
	}()
	wg.Wait()
	took := time.Since(began)
	if least := 19 * (time.Second / 50); took < least {
		t.Errorf("20 requests at 50/s took %s, want at least %s", took, least)
	}
	if tookOther >= took {
		t.Errorf("two requests to another address took %s, as long as the first address's 20 (%s): held up by its bucket", tookOther, took)
	}
	for i := range at {
		// The bucket (a burst of one) gives the requests slots 20 ms apart
		// from the first: the i-th to arrive never arrives before its
		// slot, began + i x 20 ms. A loaded machine only makes arrivals
		// later, so this holds under any load; a gap between two arrivals
		// does not (a late-woken request shrinks the gap after it, as it
		// did to 55 ms for five slots in a clean-clone CI run), and a pacer
		// that let two go at once would still put one before its slot.
		if slot := began.Add(time.Duration(i) * (time.Second / 50)); at[i].Before(slot.Add(-time.Millisecond)) {
			t.Errorf("request %d arrived %s after the start, before its slot at %s", i, at[i].Sub(began), slot.Sub(began))
		}
	}
	rates := map[string]client.Rate{}
	for _, r := range pace.Rates() {
		rates[r.Instance] = r
	}
	got := rates["inst-a"]
	if got.Requests != 20 || got.PeakPerSec > 50 || got.PeakPerSec < 15 || got.MeanPerSec <= 0 || got.MeanPerSec > 50 {
		t.Errorf("rate of inst-a: %+v; want 20 requests, a peak of at most 50 a second", got)
	}
	if r, ok := rates[client.AuthorityOf(mustURL(t, b.URL))]; !ok || r.Requests != 2 {
		t.Errorf("rates %v: want the unnamed address counted under its authority", pace.Rates())
	}
}

// Unbounded (the default), the pace only counts; a wait ends with its
// context.
func TestPaceUnboundedAndCancelled(t *testing.T) {
	t.Parallel()
	free := client.NewPace(0)
	if free.Bounded() {
		t.Error("rps 0 must be unbounded")
	}
	for i := 0; i < 100; i++ {
		if err := free.Wait(context.Background(), "x:1", ""); err != nil {
			t.Fatal(err)
		}
	}
	var nilPace *client.Pace
	if nilPace.Rates() != nil || nilPace.Wait(context.Background(), "x:1", "") != nil {
		t.Error("a nil pace must neither bound nor count")
	}
	slow := client.NewPace(1)
	if err := slow.Wait(context.Background(), "x:1", ""); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	began := time.Now()
	if err := slow.Wait(ctx, "x:1", ""); err == nil || time.Since(began) > 500*time.Millisecond {
		t.Errorf("second request at 1/s with a 50 ms context: err %v after %s; want the context's error at once", err, time.Since(began))
	}
}

// The peak is the most requests in any one second, not in a calendar
// second: 10 just before and 10 just after a second boundary make 20.
func TestPaceCountsThePeakInAnySecond(t *testing.T) {
	t.Parallel()
	p := client.NewPace(0)
	start := time.Now().Add(time.Hour) // any origin after the pace's start
	for i := 0; i < 10; i++ {
		p.Count("i", start.Add(850*time.Millisecond+time.Duration(i)*time.Millisecond))
		p.Count("i", start.Add(1150*time.Millisecond+time.Duration(i)*time.Millisecond))
	}
	p.Count("i", start.Add(5*time.Second))
	rates := p.Rates()
	if len(rates) != 1 || rates[0].Requests != 21 || rates[0].PeakPerSec != 20 {
		t.Fatalf("rates %+v: want 21 requests with a peak of 20 in one second", rates)
	}
	if m := rates[0].MeanPerSec; m < 4.5 || m > 5.5 {
		t.Errorf("mean %v a second over about 4.2 s, want about 5", m)
	}
}

// gRPC calls are paced by the client's pace, and counted by the instance
// the answer names.
func TestPaceGRPC(t *testing.T) {
	t.Parallel()
	url := grpcAgent(t, fakes.Options{Name: "grpc-inst"})
	pace := client.NewPace(20)
	c, err := client.New(a2a.AgentInterface{URL: url, ProtocolBinding: a2a.BindingGRPC}, client.WithPace(pace))
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	for i := 0; i < 5; i++ {
		_, _ = c.GetTask(context.Background(), &a2a.GetTaskRequest{ID: "none"})
	}
	if took := time.Since(began); took < 4*(time.Second/20) {
		t.Errorf("5 gRPC calls at 20/s took %s", took)
	}
	rates := pace.Rates()
	if len(rates) != 1 || rates[0].Instance != "grpc-inst" || rates[0].Requests != 5 {
		t.Errorf("rates %+v: want 5 calls to grpc-inst", rates)
	}
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// balancerRoute routes as the runner does for a balancer at lb:80 in front
// of two instances: a pinned request to its slot's bucket, an unpinned one
// to both; any other address to its own.
func balancerRoute(authority, pin string) []string {
	switch {
	case authority != "lb:80":
		return nil
	case pin != "":
		return []string{"slot " + pin}
	}
	return []string{"slot 0", "slot 1"}
}

// Through a balancer, a pinned request waits only for its instance's
// bucket, an unpinned one for every instance's: each instance gets at most
// the bound, however the specs reach it.
func TestPaceRoutesToInstances(t *testing.T) {
	t.Parallel()
	p := client.NewPace(10) // 100 ms apart per instance
	p.Route(balancerRoute)
	ctx := context.Background()
	took := func(authority, pin string) time.Duration {
		began := time.Now()
		if err := p.Wait(ctx, authority, pin); err != nil {
			t.Fatal(err)
		}
		return time.Since(began)
	}
	// Load only makes a Wait return later than its slot, never earlier: a
	// bound below is kept from the start of the request that took the
	// slot, not from the return of the one before (a loaded machine's late
	// return left 60 ms of a 100 ms spacing to measure). Which requests go
	// at once is TestPaceBucketsWhateverTheLoad's, judged with no clock.
	took("lb:80", "0")
	slot1 := time.Now()
	took("lb:80", "1")
	// Unpinned: may reach either, so it waits for both to have room.
	if took("lb:80", ""); time.Since(slot1) < 95*time.Millisecond {
		t.Errorf("an unpinned request went %s after slot 1's first, before the slots had room", time.Since(slot1))
	}
	// Slot 1's next request waits for the unpinned one's slot too.
	if took("lb:80", "1"); time.Since(slot1) < 190*time.Millisecond {
		t.Errorf("slot 1 was given a second request %s after its first: the unpinned one between them was not counted", time.Since(slot1))
	}
}

// Which request must wait is decided when it takes its slot, not by how
// soon the machine runs it: with its context already ended, Wait returns
// nil when the slot is free now and the context's error when the request
// would have to wait. At one request per 1000 s no machine is slow enough
// to free a slot meanwhile, so each bucket's independence (per address,
// per instance behind the balancer) is judged whatever the load. A bucket
// shared by two addresses fails the second address's first request.
func TestPaceBucketsWhateverTheLoad(t *testing.T) {
	t.Parallel()
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	type req struct {
		authority, pin string
		free           bool
		what           string
	}
	for _, c := range []struct {
		name string
		reqs []req
	}{
		{"addresses", []req{
			{"a:1", "", true, "the first request to an address"},
			{"a:1", "", false, "a second request to it within the interval"},
			{"b:1", "", true, "the first request to another address"},
			{"b:1", "", false, "a second request to the other address"},
		}},
		{"pinned first", []req{
			{"lb:80", "0", true, "the first request pinned to slot 0"},
			{"lb:80", "1", true, "the first request pinned to slot 1"},
			{"lb:80", "", false, "an unpinned request once both slots took one"},
			{"other:80", "", true, "another address's first request"},
		}},
		{"unpinned first", []req{
			{"lb:80", "", true, "the first request, unpinned"},
			{"lb:80", "0", false, "a request pinned to slot 0 after it"},
			{"lb:80", "1", false, "a request pinned to slot 1 after it"},
		}},
		{"one slot busy", []req{
			{"lb:80", "1", true, "the first request pinned to slot 1"},
			{"lb:80", "0", true, "a request pinned to slot 0"},
			{"lb:80", "1", false, "a second request pinned to slot 1"},
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := client.NewPace(0.001)
			p.Route(balancerRoute)
			for i, r := range c.reqs {
				err := p.Wait(ended, r.authority, r.pin)
				if free := err == nil; free != r.free {
					t.Errorf("request %d, %s (%s pin %q): went at once %v, want %v (err %v)", i+1, r.what, r.authority, r.pin, free, r.free, err)
				}
			}
		})
	}
}
