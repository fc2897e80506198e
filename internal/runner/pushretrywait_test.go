package runner

import (
	"strings"
	"testing"
	"time"
)

// --push-retry-wait takes 1s to 1h, or nothing (the default).
func TestPushRetryWaitBounds(t *testing.T) {
	for _, c := range []struct {
		wait time.Duration
		ok   bool
	}{{0, true}, {time.Second, true}, {2 * time.Minute, true}, {time.Hour, true},
		{500 * time.Millisecond, false}, {-time.Second, false}, {2 * time.Hour, false}} {
		cfg := Config{PushRetryWait: c.wait}
		err := cfg.Validate()
		if bad := err != nil && strings.Contains(err.Error(), "--push-retry-wait"); bad == c.ok {
			t.Errorf("--push-retry-wait %s: %v, want accepted %v", c.wait, err, c.ok)
		}
	}
}
