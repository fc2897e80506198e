package interop

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// clientBaselineFile holds the expected verdict of every client spec (CLI-NNN)
// against the JS SDK's client, js-client/driver.mjs.
const clientBaselineFile = "baseline-client.json"

// TestJSSDKClient runs the client suite against a client nobody here wrote:
// the official JS SDK's client (@a2a-js/sdk's ClientFactory, pinned by
// js-client/package-lock.json), driven by js-client/driver.mjs, and compares
// every client spec's verdict with baseline-client.json, as TestJSSDKAgent
// does for the SDK's agent.
func TestJSSDKClient(t *testing.T) {
	t.Parallel()
	node, dir := npmInstalled(t, "js-client", "the JS SDK client interop test")
	driver := fmt.Sprintf("'%s' '%s'", node, filepath.Join(dir, "driver.mjs"))
	compare(t, "client", clientBaselineFile, "--client-cmd", driver, "--seed", "12")
}

// TestJSDriverKit runs the JS driver kit's own tests (clientkit/js/kit_test.mjs,
// node's test runner): the receiver's token check, the state rule, the error
// table and the push body reader that js-client/driver.mjs stands on.
func TestJSDriverKit(t *testing.T) {
	t.Parallel()
	shortRuns.Enter(t)
	node := need(t, "node")
	cmd := exec.Command(node, "--test", filepath.Join("..", "clientkit", "js", "kit_test.mjs"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test clientkit/js/kit_test.mjs: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "# fail 0") {
		t.Fatalf("the kit's tests did not all pass:\n%s", out)
	}
}
