package fakes

import "time"

// A push dispatcher that is correct but starts late (Options.DispatcherWarmUp):
// pushes accepted while it warms up wait in the store and go out late, never
// lost. The rollout specs must not fail it: a push that arrives late is not a
// push lost. (A dispatcher that delivers every push late is Options.PushDelay,
// fakes/variant_push.go.)

// dispatcherWarming reports whether the dispatcher is still warming up
// under Options.DispatcherWarmUp, and so claims nothing yet.
func (a *Agent) dispatcherWarming() bool {
	return a.opts.DispatcherWarmUp > 0 && a.opts.WarmUp > 0 && time.Since(a.readyAt) < a.opts.DispatcherWarmUp
}
