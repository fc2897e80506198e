package runner

// The suite packages register their specs when imported; the runner is what
// links them into the binary.
import (
	_ "github.com/a2a-conform/a2a-conform/suites/discovery"
	_ "github.com/a2a-conform/a2a-conform/suites/lifecycle"
	_ "github.com/a2a-conform/a2a-conform/suites/rollout"
	_ "github.com/a2a-conform/a2a-conform/suites/webhook"
)
