package topology

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// The two builds the stale CDN is held across (scenario 3, ROLL-007;
// suites.BuildRoller), and the process driver's CDN. The harness's CDN sits
// in front of the vendor's instances as it does in front of the embedded
// ones; under the process driver the two builds are the vendor's own,
// --agent-cmd and --agent-cmd-next, and what the next build dropped is
// whatever its card no longer claims: the driver never asks it to drop
// anything.

// CDNURL is the base URL of the harness's CDN in front of the balancer (""
// without one).
func (p *Process) CDNURL() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.roll.cdn == nil {
		return ""
	}
	return p.roll.cdn.URL()
}

// HoldCard makes the CDN keep serving the card the instances serve now
// (CDN.Hold), after they move on, for at most the card's max-age; it
// returns the held copy's ETag and that max-age.
func (p *Process) HoldCard(ctx context.Context, header http.Header) (string, time.Duration, error) {
	p.mu.Lock()
	cdn := p.roll.cdn
	p.mu.Unlock()
	if cdn == nil {
		return "", 0, errors.New("process driver: the run has no CDN (rollout suite not selected)")
	}
	h, err := cdn.Hold(ctx, header)
	return h.ETag, h.MaxAge, err
}

// ReleaseCard ends a hold (CDN.Release).
func (p *Process) ReleaseCard() (expired bool) {
	p.mu.Lock()
	cdn := p.roll.cdn
	p.mu.Unlock()
	if cdn == nil {
		return false
	}
	return cdn.Release()
}

// Builds names the vendor's two builds: --agent-cmd, and --agent-cmd-next
// when it is given and is another command ("" otherwise: rolling would
// start the same build again). The commands themselves stay out of the
// report (they may carry credentials); the agent log has them, redacted.
func (p *Process) Builds() (oldBuild, newBuild string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.roll.next != "" && p.roll.next != p.roll.first {
		newBuild = "the vendor's next build (--agent-cmd-next)"
	}
	return "the vendor's build (--agent-cmd)", newBuild
}

// NewBuildRunning says whether every instance runs --agent-cmd-next's
// build, another command than --agent-cmd (a roll before ROLL-007 left them
// there).
func (p *Process) NewBuildRunning() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.roll.next != "" && p.roll.next != p.roll.first && p.roll.cmd == p.roll.next && !p.roll.unfinished
}

// RollOldBuild rolls to --agent-cmd's build unless the instances run it
// already (a roll before, to --agent-cmd-next, left them on the next one,
// or failed part way).
func (p *Process) RollOldBuild(ctx context.Context) (int, bool, error) {
	return p.rollToFirst(ctx)
}

// RollNewBuild rolls to the next build (Roll: --agent-cmd-next).
func (p *Process) RollNewBuild(ctx context.Context) (int, error) {
	return p.Roll(ctx, nil)
}

// RestoreBuild rolls back to --agent-cmd's build, the one the run began
// with, at the next generation (its {generation} keeps counting up), unless
// the instances run it already. Later rolls go to --agent-cmd-next again.
func (p *Process) RestoreBuild(ctx context.Context) (int, bool, error) {
	return p.rollToFirst(ctx)
}

func (p *Process) rollToFirst(ctx context.Context) (int, bool, error) {
	p.mu.Lock()
	cur, first, gen, mixed := p.roll.cmd, p.roll.first, p.roll.gen, p.roll.unfinished
	p.mu.Unlock()
	if cur == first && !mixed {
		return gen, false, nil
	}
	p.log.line("[harness] rolling back to the first build (--agent-cmd)")
	gen, err := p.rollTo(ctx, first, nil)
	return gen, true, err
}

// Builds names the embedded driver's two builds: the reference agent's
// previous build (RollPrevious) and the run's own without streaming and
// push (RollWithout).
func (e *Embedded) Builds() (oldBuild, newBuild string) {
	return "the reference agent's previous build (an HTTP+JSON interface and a required extension of its own)",
		"the reference agent's own build without streaming and push notifications"
}

// NewBuildRunning is false: the embedded driver's new build (RollWithout)
// is rolled to only by ROLL-007, which rolls back from it.
func (e *Embedded) NewBuildRunning() bool { return false }

// RollOldBuild rolls to the previous build (RollPrevious).
func (e *Embedded) RollOldBuild(ctx context.Context) (int, bool, error) {
	gen, err := e.RollPrevious(ctx, nil)
	return gen, true, err
}

// RollNewBuild rolls to a build that dropped streaming and push
// (RollWithout), and the previous build's interface and extension.
func (e *Embedded) RollNewBuild(ctx context.Context) (int, error) {
	return e.RollWithout(ctx, true, true, nil)
}

// RestoreBuild rolls back to the run's own build (RollWithout, nothing
// dropped).
func (e *Embedded) RestoreBuild(ctx context.Context) (int, bool, error) {
	gen, err := e.RollWithout(ctx, false, false, nil)
	return gen, true, err
}
