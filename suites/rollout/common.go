// Package rollout holds the specs that change the deployment under running
// tasks: card rotations, rolling restarts, instances that start or serve
// stale cards, and the cross-instance halves of streams, cancels and push
// (the three scenarios of docs/scenarios.md). They need the harness to
// control the instances (suites.Instances and the other controls of
// suites/topology.go); without it each is could-not-run, naming the drivers
// that would enable it. The rotation specs (ROLL-001, 002, 008) ask for a
// change and views instead (deployment.go) and judge once, whatever the
// driver: under the hooks driver (a --target changed by the vendor's
// commands) they read through the target; the specs that need single
// instances are could-not-run there, saying why (hooks.go).
package rollout

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/internal/directive"
	"github.com/a2a-conform/a2a-conform/suites"
)

// step is the per-step delay of tasks that must outlive a rollout step: a
// rolling replacement of the embedded instances takes a few hundred
// milliseconds, and the task (working, a chunk, completed: three steps) must
// still be running when it ends. Under a prompt map the agent's own "slow"
// task is used and its measured span decides every wait.
const step = 400 * time.Millisecond

// crossStep is the step of tasks watched across instances (streams, cancels).
const crossStep = 150 * time.Millisecond

func driverName(t *suites.T) string {
	if t.Env.Topology == nil {
		return "none"
	}
	return t.Env.Topology.Driver()
}

// instances returns the deployment's instances, or ends the spec
// could-not-run when the driver offers no control over them or fewer than
// least are running. Under the hooks driver the reason says what the spec
// needs an instance of its own for (instanceNeeds).
func instances(t *suites.T, least int) suites.Instances {
	inst, ok := t.Env.Topology.(suites.Instances)
	if _, hooks := t.Env.Topology.(suites.HookRunner); !ok && hooks {
		need := instanceNeeds[t.Info.ID]
		if need == "" {
			need = "it addresses single instances"
		}
		t.CouldNotRun("driver %q runs your commands at scripted points but cannot see, address or pin single instances behind your endpoint, and this spec needs them: %s. The embedded and process drivers give the harness instances of its own behind its load balancer.", driverName(t), need)
	}
	if !ok {
		t.CouldNotRun("driver %q gives the harness no instances of its own behind its load balancer; the embedded and process drivers do.", driverName(t))
	}
	if n := live(inst); n < least {
		t.CouldNotRun("the spec needs at least %d instances behind the harness's load balancer and driver %q runs %d.", least, driverName(t), n)
	}
	return inst
}

func live(inst suites.Instances) int {
	n := 0
	for _, name := range inst.InstanceNames() {
		if name != "" {
			n++
		}
	}
	return n
}

// roller returns the driver's rolling replacement or ends could-not-run.
func roller(t *suites.T) suites.Roller {
	r, ok := t.Env.Topology.(suites.Roller)
	if !ok {
		t.CouldNotRun("driver %q cannot replace instances by the next generation; the embedded driver can, and the process driver can with --agent-cmd-next.", driverName(t))
	}
	return r
}

// via is a client for the card's first spoken interface, sent through the
// harness's balancer (its origin replaces the interface's, so an agent that
// names its own port in the card is still reached through the balancer),
// pinned to instance k, or spread by the balancer when k < 0.
func via(t *suites.T, inst suites.Instances, k int) *client.Client {
	iface := onOrigin(t.Client().Interface(), inst.BalancerURL())
	if k < 0 {
		return t.ClientFor(iface)
	}
	return t.ClientFor(iface, inst.Pin(k))
}

// direct is a client for the card's first spoken interface sent straight to
// one instance's own base URL, bypassing the balancer: how a client with a
// kept-alive connection still reaches an instance the balancer dropped.
func direct(t *suites.T, base string) *client.Client {
	return t.ClientAtInstance(onOrigin(t.Client().Interface(), base))
}

// onOrigin moves an interface URL to base's scheme and host.
func onOrigin(iface a2a.AgentInterface, base string) a2a.AgentInterface {
	if u, err := url.Parse(iface.URL); err == nil {
		if b, err := url.Parse(base); err == nil {
			u.Scheme, u.Host = b.Scheme, b.Host
			iface.URL = u.String()
		}
	}
	return iface
}

// fetchCard fetches the card from base with the run's headers and
// A2A-Version, plus extra request headers.
func fetchCard(ctx context.Context, t *suites.T, base string, extra map[string]string) (*client.CardResponse, error) {
	h := http.Header{}
	for k, vs := range t.Env.Headers {
		h[k] = vs
	}
	h.Set("A2A-Version", "1.0")
	for k, v := range extra {
		h.Set(k, v)
	}
	return client.FetchCard(ctx, t.Env.HTTP, base, h)
}

// start sends a scripted message with returnImmediately through c.
func start(ctx context.Context, t *suites.T, c *client.Client, s suites.Script, cfg *a2a.SendMessageConfiguration) (*a2a.Task, a2a.Message) {
	msg := t.Scripted(s)
	if cfg == nil {
		cfg = &a2a.SendMessageConfiguration{}
	}
	cfg.ReturnImmediately = true
	resp, err := t.Send(ctx, c, &a2a.SendMessageRequest{Message: &msg, Configuration: cfg})
	t.NoTask(c, s, resp, err)
	return resp.Task, msg
}

func slowScript(d time.Duration) suites.Script {
	return suites.Script{Outcome: directive.OutcomeCompleted, Delay: d, Least: suites.PromptSlow}
}

// isKind reports whether err is the A2A error kind k.
func isKind(err error, k a2a.ErrorKind) bool {
	ce, ok := client.AsError(err)
	return ok && ce.Kind == k
}
func since(t0 time.Time) string { return time.Since(t0).Round(time.Millisecond).String() }

func plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	if strings.HasSuffix(one, "y") {
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(one, "y"))
	}
	return fmt.Sprintf("%d %ss", n, one)
}
