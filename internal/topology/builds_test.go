//go:build unix

package topology_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/topology"
)

// helperBuild is the helper agent's command for a build named build.
func helperBuild(build string) string {
	return fmt.Sprintf("%s=1 %s=%s exec %s {port}", helperEnv, buildHelperEnv, build, os.Args[0])
}

// cardBody is the card served at base, or the error.
func cardBody(base string) string {
	resp, err := http.Get(base + topology.CardPath)
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return strings.TrimSpace(string(b))
}

// The process driver's two builds behind its CDN (ROLL-007): the CDN holds
// the old build's card while the instances roll to --agent-cmd-next's,
// RestoreBuild rolls back to --agent-cmd's at the next generation, and a
// roll after it goes to --agent-cmd-next again.
func TestProcessBuildsBehindTheCDN(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	p, err := topology.StartProcess(ctx, topology.ProcessOptions{Cmd: helperBuild("old"), Next: helperBuild("new"), Instances: 2, Balance: true, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if oldBuild, newBuild := p.Builds(); oldBuild == "" || newBuild == "" {
		t.Fatalf("Builds() = %q, %q: want both named", oldBuild, newBuild)
	}
	oldCard, newCard := `{"name":"helper","version":"old"}`, `{"name":"helper","version":"new"}`
	if gen, rolled, err := p.RollOldBuild(ctx); err != nil || rolled || gen != 1 {
		t.Fatalf("RollOldBuild on the first build: generation %d, rolled %v, %v; want 1, nothing rolled", gen, rolled, err)
	}
	_, window, err := p.HoldCard(ctx, nil)
	if err != nil || window != 30*time.Second {
		t.Fatalf("HoldCard: window %s, %v; want 30s", window, err)
	}
	if gen, err := p.RollNewBuild(ctx); err != nil || gen != 2 {
		t.Fatalf("RollNewBuild: generation %d, %v", gen, err)
	}
	if got := cardBody(p.BalancerURL()); got != newCard {
		t.Errorf("the balancer serves %s after the roll, want the new build's card", got)
	}
	if got := cardBody(p.CDNURL()); got != oldCard {
		t.Errorf("the held CDN serves %s after the roll, want the old build's card", got)
	}
	if expired := p.ReleaseCard(); expired {
		t.Errorf("the hold expired within its 30 s window")
	}
	if got := cardBody(p.CDNURL()); got != newCard {
		t.Errorf("the released CDN serves %s, want the new build's card", got)
	}
	if gen, rolled, err := p.RestoreBuild(ctx); err != nil || !rolled || gen != 3 {
		t.Fatalf("RestoreBuild: generation %d, rolled %v, %v; want 3, rolled", gen, rolled, err)
	}
	if got := cardBody(p.BalancerURL()); got != oldCard {
		t.Errorf("the balancer serves %s after RestoreBuild, want the first build's card", got)
	}
	if gen, rolled, err := p.RestoreBuild(ctx); err != nil || rolled || gen != 3 {
		t.Errorf("RestoreBuild again: generation %d, rolled %v, %v; want 3, nothing rolled", gen, rolled, err)
	}
	if gen, err := p.Roll(ctx, nil); err != nil || gen != 4 || cardBody(p.BalancerURL()) != newCard {
		t.Errorf("Roll after RestoreBuild: generation %d, %v, card %s; want 4 and the next build", gen, err, cardBody(p.BalancerURL()))
	}
	if gen, rolled, err := p.RollOldBuild(ctx); err != nil || !rolled || gen != 5 || cardBody(p.BalancerURL()) != oldCard {
		t.Errorf("RollOldBuild from the next build: generation %d, rolled %v, %v; want 5, rolled to the first build", gen, rolled, err)
	}
}

// Without --agent-cmd-next (or with the same command) there is no new build.
func TestProcessWithoutANextBuildHasNoNewBuild(t *testing.T) {
	t.Parallel()
	for _, next := range []string{"", helperBuild("old")} {
		p, err := topology.StartProcess(context.Background(), topology.ProcessOptions{Cmd: helperBuild("old"), Next: next, Balance: true, Log: io.Discard})
		if err != nil {
			t.Fatal(err)
		}
		if _, newBuild := p.Builds(); newBuild != "" {
			t.Errorf("next %q: Builds() names a new build %q", next, newBuild)
		}
		p.Close()
	}
}

// A roll to the next build that fails part way (its second instance exits)
// leaves the first slot on the next build: RestoreBuild still rolls every
// slot back to --agent-cmd's.
func TestProcessRestoreBuildAfterAFailedRoll(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	next := "[ {instance} = 1 ] && exit 3; " + helperBuild("new")
	p, err := topology.StartProcess(ctx, topology.ProcessOptions{Cmd: helperBuild("old"), Next: next, Instances: 2, Balance: true, Log: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if _, err := p.RollNewBuild(ctx); err == nil {
		t.Fatal("RollNewBuild: the second instance exited, want an error")
	}
	pinned := func(k int) string {
		req, _ := http.NewRequest(http.MethodGet, p.BalancerURL()+topology.CardPath, nil)
		req.Header.Set(topology.PinHeader, fmt.Sprint(k))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return strings.TrimSpace(string(b))
	}
	if got := pinned(0); !strings.Contains(got, `"new"`) {
		t.Fatalf("slot 0 after the failed roll: %s, want the next build", got)
	}
	if _, rolled, err := p.RestoreBuild(ctx); err != nil || !rolled {
		t.Fatalf("RestoreBuild after a failed roll: rolled %v, %v; want rolled", rolled, err)
	}
	for k := range 2 {
		if got := pinned(k); !strings.Contains(got, `"old"`) {
			t.Errorf("slot %d after RestoreBuild: %s, want the first build", k, got)
		}
	}
}
