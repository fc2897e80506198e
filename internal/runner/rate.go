package runner

import (
	"github.com/a2a-conform/a2a-conform/internal/client"
	"github.com/a2a-conform/a2a-conform/reports"
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
