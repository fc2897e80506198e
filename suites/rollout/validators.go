package rollout

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

func init() {
	instanceNeeds["ROLL-011"] = "it reads the card on each instance, restarts one in the middle of a roll, and revalidates on a new instance the card the restarted one served"
}

// dateResolution is what an HTTP-date counts: whole seconds. An instance
// started after the clock passed into a new second started in a later
// second than every instance started before, so a Last-Modified taken from
// its start time differs from theirs.
const dateResolution = time.Second

// cardRead is one read of the card pinned to one instance (slot k).
type cardRead struct {
	k    int
	name string
	cr   *client.CardResponse
}

func (r cardRead) etag() string { return r.cr.Header.Get("ETag") }
func (r cardRead) date() string { return r.cr.Header.Get("Last-Modified") }
func (r cardRead) on() string   { return fmt.Sprintf("instance %d (%s)", r.k, r.name) }

// sameRead says whether two reads show the same card under the same
// validators.
func sameRead(a, b cardRead) bool {
	return bytes.Equal(a.cr.Raw, b.cr.Raw) && a.etag() == b.etag() && a.date() == b.date()
}

// readInstance reads the card on slot k through the harness's balancer;
// ok is false when it answered no card (the reason is in why).
func readInstance(ctx context.Context, t *suites.T, inst suites.Instances, k int, extra map[string]string) (r cardRead, why string, ok bool) {
	h := pinned(k)
	for a, b := range extra {
		h[a] = b
	}
	r = cardRead{k: k, name: inst.InstanceNames()[k]}
	cr, err := fetchCard(ctx, t, inst.BalancerURL(), h)
	switch {
	case err != nil:
		return r, suites.ErrText(err), false
	case cr.Status != http.StatusOK && cr.Status != http.StatusNotModified:
		return r, fmt.Sprintf("HTTP %d", cr.Status), false
	}
	r.cr = cr
	return r, "", true
}

// sameCardValidators compares the validators of reads that carry the same
// card, byte for byte: each read is held to the first read of its card.
// Cards that differ in anything (an instance naming its own address) may
// rightly carry different validators and are not compared.
func sameCardValidators(reads []cardRead) (vs []invariants.Violation, compared int) {
	for i, r := range reads {
		for _, ref := range reads[:i] {
			if !bytes.Equal(ref.cr.Raw, r.cr.Raw) {
				continue
			}
			compared++
			where := fmt.Sprintf("card on %s, byte for byte the card on %s (version %s)", r.on(), ref.on(), version(r.cr))
			if ref.etag() != r.etag() {
				vs = append(vs, invariants.Violation{Invariant: "validators-follow-card", Where: where + ", ETag",
					Expected: fmt.Sprintf("%s, as on %s: an ETag derived from the card's version or content is the same wherever the card is served", orDash(ref.etag()), ref.on()),
					Actual:   fmt.Sprintf("%s: a client revalidating with the ETag of %s downloads the unchanged card again whenever %s answers", orDash(r.etag()), ref.on(), r.on())})
			}
			if ref.date() != r.date() {
				vs = append(vs, invariants.Violation{Invariant: "validators-follow-card", Where: where + ", Last-Modified",
					Expected: fmt.Sprintf("%s, as on %s: the date the card was last modified, whichever instance serves it", orDash(ref.date()), ref.on()),
					Actual:   fmt.Sprintf("%s: If-Modified-Since revalidation then depends on which instance answers", orDash(r.date()))})
			}
			break
		}
	}
	return vs, compared
}

// midRoll is what the spec saw inside the roll, judged after it.
type midRoll struct {
	done bool
	// fresh is the new build's card on the first replaced slot; restarted
	// the old build's card on another slot once it restarted; cond the
	// first slot's answer to If-Modified-Since with restarted's date, and
	// again its card read after that.
	fresh, restarted, cond, again cardRead
	err                           string // why the mid-roll part could not run
}

// ROLL-011 (§8.6, §8.6.1, §8.6.2; scenario 1): the card's validators are the
// card's, not the instance's. Every instance serving the same card, byte
// for byte, gives it the same ETag and the same Last-Modified, and an
// instance gives it the same ones after it restarts (the restart lands in a
// later second than every earlier start, so a date taken from the start
// time shows). Both are SHOULD parts (warn): the ETag SHOULD be derived from
// the card's version or content; Last-Modified is optional, and when sent
// it is the date the card was last modified.
//
// Its one failing part is scenario 1's stale card, brought about the way a
// rollout brings it about: in the middle of a rolling replacement, an
// instance of the old build restarts after one of the new build started.
// A client holding the card the restarted instance serves, revalidating it
// by its date (If-Modified-Since, as §8.6.2 allows), must get the new card
// from the new instance, never 304: a 304 keeps the client on the old
// build's card while the instance that answered serves the new one. It is
// judged only when the new instance serves a card of another version,
// before and after the conditional GET.
var _ = suites.Spec("ROLL-011", func(ctx context.Context, t *suites.T) {
	inst := instances(t, 2)
	rs, ok := t.Env.Topology.(suites.InstanceRestarter)
	if !ok {
		t.CouldNotRun("driver %q cannot restart single instances; the embedded and process drivers can.", driverName(t))
	}
	roll, ok := t.Env.Topology.(suites.SteppedRoller)
	if !ok {
		t.CouldNotRun("driver %q cannot act between the steps of a rolling replacement; the embedded and process drivers can.", driverName(t))
	}

	// Each instance, twice: a difference between instances counts only
	// when each instance showed the same card and validators both times.
	var first, stable []cardRead
	var obs []string
	for round := 0; round < 2; round++ {
		for k, name := range inst.InstanceNames() {
			if name == "" {
				continue
			}
			r, why, ok := readInstance(ctx, t, inst, k, nil)
			switch {
			case !ok || r.cr.Status != http.StatusOK:
				if round == 0 {
					obs = append(obs, fmt.Sprintf("instance %d (%s) gave no card (%s)", k, name, orDash(why)))
				}
			case round == 0:
				first = append(first, r)
			default:
				for _, f := range first {
					if f.k == k && sameRead(f, r) {
						stable = append(stable, f)
					} else if f.k == k {
						obs = append(obs, fmt.Sprintf("%s changed its card or validators between two reads (DISC-004 judges one instance's stability); not compared", f.on()))
					}
				}
			}
		}
	}
	if len(first) == 0 {
		t.Indeterminate("no instance served its card (%s)", strings.Join(obs, "; "))
	}
	sent := false
	for _, r := range first {
		sent = sent || r.etag() != "" || r.date() != ""
	}
	if !sent {
		t.NotApplicable("the card carries neither an ETag nor a Last-Modified on any instance, so there is no validator to compare (DISC-004 judges the missing ETag; Last-Modified is optional)")
	}
	for _, r := range first {
		obs = append(obs, fmt.Sprintf("%s: version %s, ETag %s, Last-Modified %s", r.on(), version(r.cr), orDash(r.etag()), orDash(r.date())))
	}
	vs, compared := sameCardValidators(stable)
	t.Should(vs...)
	if compared == 0 && len(stable) > 1 {
		obs = append(obs, "the instances serve cards that differ (e.g. each names its own address), so their validators may rightly differ and were not compared")
	}
	before := map[int]cardRead{}
	for _, r := range first {
		before[r.k] = r
	}

	// The roll: once the first new instance serves and its predecessor
	// drains, an instance of the old build restarts, and the card it then
	// serves is revalidated on the new instance by its date. Nothing here
	// may end the spec while the driver is in the middle of its roll.
	var mid midRoll
	at := func(ctx context.Context, stage string, k int, oldURL, newURL string) {
		if stage != suites.RollDraining || mid.done {
			return
		}
		mid.done = true
		names := inst.InstanceNames()
		j := -1
		for i := len(names) - 1; i > k; i-- {
			if names[i] != "" {
				j = i
				break
			}
		}
		if j < 0 {
			mid.err = fmt.Sprintf("no instance of the old build was left beside the new instance %d", k)
			return
		}
		fresh, why, ok := readInstance(ctx, t, inst, k, nil)
		if !ok || fresh.cr.Status != http.StatusOK {
			mid.err = fmt.Sprintf("the new instance %d answered no card (%s)", k, why)
			return
		}
		mid.fresh = fresh
		// The restart lands in a later second than the new instance's start.
		now := time.Now()
		select {
		case <-ctx.Done():
			mid.err = ctx.Err().Error()
			return
		case <-time.After(now.Truncate(dateResolution).Add(dateResolution).Sub(now) + 10*time.Millisecond):
		}
		if err := rs.RestartInstance(ctx, j); err != nil {
			mid.err = fmt.Sprintf("restarting instance %d of the old build failed: %v", j, err)
			return
		}
		held, why, ok := readInstance(ctx, t, inst, j, nil)
		if !ok || held.cr.Status != http.StatusOK {
			mid.err = fmt.Sprintf("instance %d answered no card after its restart (%s)", j, why)
			return
		}
		mid.restarted = held
		if held.date() == "" {
			return
		}
		cond, why, ok := readInstance(ctx, t, inst, k, map[string]string{"If-Modified-Since": held.date()})
		if !ok {
			mid.err = fmt.Sprintf("the conditional GET on the new instance %d got no answer (%s)", k, why)
			return
		}
		mid.cond = cond
		again, why, ok := readInstance(ctx, t, inst, k, nil)
		if !ok || again.cr.Status != http.StatusOK {
			mid.err = fmt.Sprintf("the new instance %d answered no card after the conditional GET (%s)", k, why)
			return
		}
		mid.again = again
	}
	began := time.Now()
	gen, err := roll.RollStepped(ctx, at)
	step := reports.Step{Kind: "roll", Point: suites.HookRolloutStep, Accepts: []string{suites.HookRolloutStep}, Generation: gen}
	if err != nil {
		step.Error = err.Error()
	}
	t.Changed(step, began, time.Now())
	t.Observe("cards", strings.Join(obs, "; "))
	if err != nil {
		t.Indeterminate("the rolling replacement failed: %v", err)
	}
	t.Observe("rollout", fmt.Sprintf("generation %d, took %s", gen, since(began)))
	if mid.err != "" {
		t.Unchecked("the old build's card revalidated on a new instance", mid.err)
	}
	if !mid.done {
		t.Unchecked("the old build's card revalidated on a new instance", "the roll replaced no instance that had a predecessor to drain")
	}
	if mid.restarted.cr == nil {
		return
	}

	// The restarted instance's card, held to what it served before.
	r := mid.restarted
	t.Observe("restart", fmt.Sprintf("%s restarted mid-roll: version %s, ETag %s, Last-Modified %s", r.on(), version(r.cr), orDash(r.etag()), orDash(r.date())))
	if b, ok := before[r.k]; ok && bytes.Equal(b.cr.Raw, r.cr.Raw) {
		where := fmt.Sprintf("card on %s before and after its restart, byte for byte the same (version %s)", r.on(), version(r.cr))
		if b.etag() != r.etag() {
			t.Should(invariants.Violation{Invariant: "validators-follow-card", Where: where + ", ETag",
				Expected: orDash(b.etag()) + ", as before the restart: the card did not change",
				Actual:   orDash(r.etag()) + ": a client revalidating with the ETag it held downloads the unchanged card again"})
		}
		if b.date() != r.date() {
			t.Should(invariants.Violation{Invariant: "validators-follow-card", Where: where + ", Last-Modified",
				Expected: orDash(b.date()) + ", as before the restart: the card did not change",
				Actual:   orDash(r.date()) + ": the restart, not a change of the card, moved the date"})
		}
	} else if ok {
		t.Observe("restart.card", "the card changed across the restart (e.g. it names the new process's own address), so its validators may rightly differ and were not compared")
	}

	// The old build's card, revalidated by its date on the new instance.
	const part = "the old build's card revalidated on a new instance"
	switch {
	case r.date() == "":
		t.Observe("revalidation", "the restarted instance's card carries no Last-Modified (optional), so no client revalidates it by date")
	case mid.cond.cr == nil:
	case !bytes.Equal(mid.again.cr.Raw, mid.fresh.cr.Raw):
		t.Unchecked(part, fmt.Sprintf("%s served another card after the conditional GET (version %s, then %s), so which card answered it cannot be told", mid.fresh.on(), version(mid.fresh.cr), version(mid.again.cr)))
	case version(mid.fresh.cr) == version(r.cr):
		t.Unchecked(part, fmt.Sprintf("the new build's card on %s has the version of the old build's, %s, so a 304 cannot be told from one for the same card; a roll whose card has another version exercises it", mid.fresh.on(), version(r.cr)))
	default:
		where := fmt.Sprintf("GET on %s (new build, version %s) with If-Modified-Since: %s, the Last-Modified of the version %s card %s served after it restarted mid-roll",
			mid.fresh.on(), version(mid.fresh.cr), r.date(), version(r.cr), r.on())
		c := mid.cond.cr
		own := mid.cond.date()
		if own == "" {
			own = mid.fresh.date()
		}
		t.Observe("revalidation", fmt.Sprintf("%s: HTTP %d (Last-Modified of the card it serves: %s)", where, c.Status, orDash(own)))
		switch {
		case c.Status == http.StatusNotModified:
			t.Record(invariants.Violation{Invariant: "revalidate-gets-new-card", Where: where,
				Expected: "200 with the version " + version(mid.fresh.cr) + " card that instance serves",
				Actual:   "304 Not Modified: a client revalidating the version " + version(r.cr) + " card by its date keeps the old build's card"})
		case version(c) != version(mid.fresh.cr):
			t.Record(invariants.Violation{Invariant: "revalidate-gets-new-card", Where: where,
				Expected: "200 with the version " + version(mid.fresh.cr) + " card that instance serves",
				Actual:   fmt.Sprintf("HTTP %d with version %s", c.Status, version(c))})
		}
	}
})
