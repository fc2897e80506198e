package runner_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

// hookClientEnv, set on a hook's command line, makes this test binary the
// client a staging hook uses to reach the test's deployment controller
// (hooks_test.go): it posts the hook's A2A_CONFORM_* environment to the URL
// it is given, prints the answer and exits 0 when the controller carried
// the hook out.
const hookClientEnv = "A2A_CONFORM_TEST_HOOK_CLIENT"

func hookClient(args []string) int {
	if len(args) != 1 {
		fmt.Fprintln(os.Stderr, "usage: hook client CONTROL-URL")
		return 2
	}
	env := map[string]string{}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "A2A_CONFORM_") && k != hookClientEnv {
			env[k] = v
		}
	}
	body, _ := json.Marshal(env)
	c := &http.Client{Timeout: 60 * time.Second}
	resp, err := c.Post(args[0]+"/"+env["A2A_CONFORM_POINT"], "application/json", bytes.NewReader(body))
	if err != nil {
		fmt.Fprintln(os.Stderr, "hook client:", err)
		return 1
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	fmt.Println(strings.TrimSpace(string(b)))
	if resp.StatusCode != http.StatusOK {
		return 1
	}
	return 0
}
