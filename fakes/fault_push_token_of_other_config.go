package fakes

import (
	"context"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
)

// faultPushTokenOfOtherConfig: the dispatcher puts in the token header the
// token of the newest push config the deployment holds, whichever task it
// is for, as one that caches "the" token of its webhook channel instead of
// reading it from each config would: a push for one config carries another
// config's token, another client's secret, which the receiver validating
// its config's token rejects. Authorization stays the config's own, so only
// the token shows the mix-up. With one config at a time it behaves.
var faultPushTokenOfOtherConfig = register(FaultInfo{
	Name:        "push-token-of-other-config",
	Scenario:    scenarioRotation,
	Description: "Each push's X-A2A-Notification-Token carries the token of the newest push config registered (any task's) instead of the token of the config the push is for; Authorization stays the config's.",
	Specs:       []string{"PUSH-005"},
})

// pushToken is the token a push for cfg carries: cfg's own, or under
// push-token-of-other-config the newest other config's that has one.
func (a *Agent) pushToken(ctx context.Context, cfg a2a.TaskPushNotificationConfig) string {
	if !a.faults.has(faultPushTokenOfOtherConfig) {
		return cfg.Token
	}
	other, err := a.st.NewestOtherConfig(ctx, cfg.TaskID, cfg.ID)
	if err != nil || other.Token == "" {
		return cfg.Token
	}
	return other.Token
}
