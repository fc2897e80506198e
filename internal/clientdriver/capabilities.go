package clientdriver

import "context"

// streamingDeclined resolves the card (when the driver has none yet) and
// says whether it declines streaming: capabilities.streaming false or
// absent. The client then does not attempt SendStreamingMessage or
// SubscribeToTask (spec §3.3.4, v1.0.1: clients SHOULD validate capability
// support by examining the Agent Card before attempting operations that
// require optional capabilities) but sends and polls instead, and warns.
func (d *Driver) streamingDeclined(ctx context.Context) (bool, error) {
	if err := d.resolve(ctx, false); err != nil {
		return false, err
	}
	if d.faults.has(faultIgnoresCapabilities) {
		return false, nil
	}
	s := d.card.Capabilities.Streaming
	return s == nil || !*s, nil
}
