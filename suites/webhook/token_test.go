package webhook

import (
	"net/http"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/webhook"
)

// The token a push carries is judged by its value, whatever header carries it.
func TestCheckPushTokens(t *testing.T) {
	check := tokenCheck{where: "c", own: "tok-own", others: map[string]string{"tok-other": "the other config"}}
	push := func(kv ...string) webhook.Delivery {
		h := http.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			h.Add(kv[i], kv[i+1])
		}
		return webhook.Delivery{Header: h}
	}
	cases := []struct {
		name    string
		ds      []webhook.Delivery
		check   tokenCheck
		want    string
		carried int
	}{
		{"own token, X- header", []webhook.Delivery{push("X-A2A-Notification-Token", "tok-own")}, check, "", 1},
		{"own token, a2a-go's header", []webhook.Delivery{push("A2A-Notification-Token", "tok-own")}, check, "", 1},
		{"no token header (v1.0.1's example)", []webhook.Delivery{push("Content-Type", "application/json")}, check, "", 0},
		{"another config's token in the token header", []webhook.Delivery{push("X-A2A-Notification-Token", "tok-other")}, check, "push-token", 0},
		{"another config's token under a name of the agent's", []webhook.Delivery{push("X-Acme-Hook-Secret", "Bearer tok-other")}, check, "push-token", 0},
		{"another value in a token header", []webhook.Delivery{push("X-Acme-Notification-Token", "tok-stale")}, check, "push-token", 0},
		{"a config without a token: any value", []webhook.Delivery{push("X-A2A-Notification-Token", "agent-made")}, tokenCheck{where: "c", others: check.others}, "", 0},
		{"Authorization is the receiver's to judge", []webhook.Delivery{push("Authorization", "Bearer tok-other")}, check, "", 0},
		{"one bad push of two", []webhook.Delivery{push("X-A2A-Notification-Token", "tok-own"), push("X-A2A-Notification-Token", "tok-other")}, check, "push-token", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			carried, vs := checkPushTokens(c.ds, c.check)
			var got []string
			for _, v := range vs {
				got = append(got, v.Invariant)
				if strings.Contains(v.Actual+v.Expected+v.Where, "tok-") {
					t.Errorf("a token reached the report: %+v", v)
				}
			}
			if strings.Join(got, ",") != c.want {
				t.Fatalf("violations %q, want %q: %+v", strings.Join(got, ","), c.want, vs)
			}
			n := 0
			for _, k := range carried {
				n += k
			}
			if n != c.carried {
				t.Fatalf("own token carried %d times, want %d (%v)", n, c.carried, carried)
			}
		})
	}
}
