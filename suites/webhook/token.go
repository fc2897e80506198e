package webhook

import (
	"fmt"
	"sort"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/invariants"
	"github.com/a2a-conform/a2a-conform/internal/webhook"
)

// A config's token travels with the pushes for that config. Which header
// carries it is UNSURE in the text (v1.0.0's example sent
// X-A2A-Notification-Token, v1.0.1 dropped the header, a2a-go sends
// A2A-Notification-Token), so the name is recorded, never judged; the value
// is judged: a header that names itself a notification token carries the
// config's own token, and no header carries the token of another config,
// whatever its name: that token is another client's secret (§13.4), and
// the receiver that validates the config's token (the push-notifications
// topic) rejects the push.

// tokenHeaderSuffix marks a header that names itself the notification
// token, whatever its prefix (X-A2A-Notification-Token, A2A-Notification-Token,
// a vendor's X-Acme-Notification-Token).
const tokenHeaderSuffix = "notification-token"

// tokenCheck is what one config's deliveries are judged against.
type tokenCheck struct {
	// where names the config, for a report.
	where string
	// own is the token registered with the config ("" for none: then the
	// value of a token header is not judged, only other configs' tokens).
	own string
	// others maps each other config's token the spec registered to a name
	// for it in a report (never the token itself, a secret).
	others map[string]string
}

// tokenCarried is which headers carried the config's own token, by name.
type tokenCarried map[string]int

// checkPushTokens judges the token headers of a config's deliveries (the
// Authorization header is judged against the config's authentication by
// the receiver, Delivery.Untrusted). It returns, for the report, how many
// deliveries carried the own token in each header, and the violations: a
// header naming itself a notification token with another value than the
// config's token, and any header carrying another config's token.
func checkPushTokens(ds []webhook.Delivery, c tokenCheck) (tokenCarried, []invariants.Violation) {
	carried := tokenCarried{}
	var vs []invariants.Violation
	for i, d := range ds {
		names := make([]string, 0, len(d.Header))
		for name := range d.Header {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			if strings.EqualFold(name, "Authorization") {
				continue
			}
			for _, v := range d.Header[name] {
				if c.own != "" && v == c.own {
					carried[name]++
					continue
				}
				where := fmt.Sprintf("%s, push %d, header %s", c.where, i+1, name)
				if other, ok := otherToken(v, c.others); ok {
					vs = append(vs, invariants.Violation{Invariant: "push-token", Where: where,
						Expected: "the config's own token or none: another config's token is that client's secret (§13.4)",
						Actual:   "the token of " + other})
					continue
				}
				if c.own != "" && strings.HasSuffix(strings.ToLower(name), tokenHeaderSuffix) {
					vs = append(vs, invariants.Violation{Invariant: "push-token", Where: where,
						Expected: "the token registered with the config the push is for (the header's name is UNSURE, its value is that config's token)",
						Actual:   fmt.Sprintf("another value (%d bytes)", len(v))})
				}
			}
		}
	}
	return carried, vs
}

// otherToken reports whether v carries one of the other configs' tokens
// (alone or inside a longer value, such as "Bearer <token>"), and whose.
func otherToken(v string, others map[string]string) (string, bool) {
	for tok, name := range others {
		if tok != "" && strings.Contains(v, tok) {
			return name, true
		}
	}
	return "", false
}
