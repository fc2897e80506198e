package runner

import (
	"net/url"
	"strconv"

	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// runRate is the report's run.rate: the --max-rps bound and what the run's
// pace counted per instance; nil when nothing was counted.
func runRate(cfg Config, pace *client.Pace) *reports.Rate {
	rates := pace.Rates()
	if len(rates) == 0 {
		return nil
	}
	out := &reports.Rate{MaxRPS: cfg.MaxRPS, Instances: make([]reports.InstanceRate, 0, len(rates))}
	for _, r := range rates {
		out.Instances = append(out.Instances, reports.InstanceRate{Instance: r.Instance, Requests: r.Requests,
			PeakPerSecond: r.PeakPerSec, MeanPerSecond: r.MeanPerSec})
	}
	return out
}

// paceRoute maps a request to the instance buckets it may reach when the
// harness fronts the deployment (suites.Instances): a request to an
// instance's own address, or pinned to a slot through the balancer (or the
// CDN in front of it), reaches that slot; any other (unpinned through them,
// or to an address the harness cannot tell the instance of: a gRPC
// listener, a drained instance) may reach any slot, so it takes a slot in
// each. So --max-rps N holds per instance, whichever way the specs reach it.
func paceRoute(topo suites.Topology) func(authority, pin string) []string {
	inst, ok := topo.(suites.Instances)
	if !ok {
		return nil
	}
	fronts := map[string]bool{}
	if u, err := url.Parse(inst.BalancerURL()); err == nil && u.Host != "" {
		fronts[client.AuthorityOf(u)] = true
	}
	if cdn, ok := topo.(suites.StaleCard); ok {
		if u, err := url.Parse(cdn.CDNURL()); err == nil && u.Host != "" {
			fronts[client.AuthorityOf(u)] = true
		}
	}
	return func(authority, pin string) []string {
		names := inst.InstanceNames()
		if fronts[authority] {
			if k, err := strconv.Atoi(pin); err == nil && k >= 0 && k < len(names) {
				return []string{slotKey(k)}
			}
		} else {
			for k := range names {
				if u, err := url.Parse(inst.InstanceURL(k)); err == nil && u.Host != "" && client.AuthorityOf(u) == authority {
					return []string{slotKey(k)}
				}
			}
		}
		keys := make([]string, len(names))
		for k := range names {
			keys[k] = slotKey(k)
		}
		return keys
	}
}

func slotKey(k int) string { return "slot " + strconv.Itoa(k) }
