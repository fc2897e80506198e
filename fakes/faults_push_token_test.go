package fakes

import (
	"fmt"

	"github.com/a2a-conform/a2a-conform/internal/a2a"
	"github.com/a2a-conform/a2a-conform/internal/directive"
)

// The observation of push-token-of-other-config, added to faultCases so that
// TestFaults runs it with the fault on and off: two tasks, each with a
// config of its own token, and every push's token header held against the
// token of the config it was for.
func init() {
	faultCases[faultPushTokenOfOtherConfig] = func(e *faultEnv) string {
		n, rcv := e.node(Options{}), newReceiver(e.t)
		tokens := map[string]string{}
		for _, tok := range []string{"token-one", "token-two"} {
			task := sendTask(e.t, n.rpc(), scripted(directive.Directive{DelayMs: 50}), &a2a.SendMessageConfiguration{
				ReturnImmediately: true, TaskPushNotificationConfig: &a2a.TaskPushNotificationConfig{URL: rcv.srv.URL, Token: tok}})
			tokens[task.ID] = tok
		}
		settledDeliveries(e.t, n)
		eventually(e.t, "both tasks' terminal pushes", func() string {
			terminal := 0
			for _, p := range rcv.got() {
				if st, ok := p.body.State(); ok && st.Terminal() {
					terminal++
				}
			}
			if terminal < 2 {
				return fmt.Sprintf("%d terminal pushes", terminal)
			}
			return ""
		})
		for _, p := range rcv.got() {
			want := tokens[p.body.TaskID()]
			if got := p.header.Get(TokenHeader); got != want {
				return fmt.Sprintf("a push for task %s (config token %q) carried %s: %q", p.body.TaskID(), want, TokenHeader, got)
			}
		}
		return ""
	}
}
