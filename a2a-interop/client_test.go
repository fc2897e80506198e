package interop

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/a2a-conform/a2a-conform/reports"
	"github.com/a2a-conform/a2a-conform/suites"
)

// clientBaselineFile holds the expected verdict of every client spec (CLI-NNN)
// against the JS SDK's client, js-client/driver.mjs.
const clientBaselineFile = "baseline-client.json"

// clientNPM installs js-client's locked dependencies once per test binary
// (the SDK and jose: no native module, seconds from the npm cache).
var (
	clientNPMOnce sync.Once
	clientNPMErr  string
)

// TestJSSDKClient runs the client suite against a client nobody here wrote:
// the official JS SDK's client (@a2a-js/sdk's ClientFactory, pinned by
// js-client/package-lock.json), driven by js-client/driver.mjs, and compares
// every client spec's verdict with baseline-client.json, as TestJSSDKAgent
// does for the SDK's agent.
func TestJSSDKClient(t *testing.T) {
	t.Parallel()
	node := need(t, "node")
	npm := need(t, "npm")
	dir, err := filepath.Abs("js-client")
	if err != nil {
		t.Fatal(err)
	}
	clientNPMOnce.Do(func() { clientNPMErr = npmCI(npm, dir) })
	if clientNPMErr != "" {
		if os.Getenv("CI") != "" {
			t.Fatal(clientNPMErr)
		}
		t.Skip("SKIPPING the JS SDK client interop test: " + clientNPMErr)
	}
	driver := fmt.Sprintf("'%s' '%s'", node, filepath.Join(dir, "driver.mjs"))
	problems, stdout := compareClientOnce(t, "--client-cmd", driver, "--seed", "12")
	if len(problems) > 0 && os.Getenv("UPDATE_BASELINE") == "" {
		t.Logf("%s: %d verdict(s) drifted from the baseline; running once more:\n  %s", clientBaselineFile, len(problems), strings.Join(problems, "\n  "))
		problems, stdout = compareClientOnce(t, "--client-cmd", driver, "--seed", "12")
	}
	for _, p := range problems {
		t.Error(p)
	}
	if len(problems) > 0 {
		t.Logf("the run printed:\n%s", stdout)
	}
}

// clientSpecIDs lists the registered client specs.
func clientSpecIDs() []string {
	var ids []string
	for _, info := range suites.All() {
		if info.Suite == suites.Client {
			ids = append(ids, info.ID)
		}
	}
	return ids
}

// compareClientOnce runs `a2a-conform client` once and lists where its
// verdicts differ from baseline-client.json.
func compareClientOnce(t *testing.T, args ...string) ([]string, string) {
	t.Helper()
	out := t.TempDir()
	began := time.Now()
	rep, stdout := runClient(t, out, args...)
	if rep == nil {
		t.Fatalf("no report.json; the run printed:\n%s", stdout)
	}
	t.Logf("%s: the run took %s: %s", clientBaselineFile, time.Since(began).Round(100*time.Millisecond), counts(rep))
	got := map[string]reports.Result{}
	for _, r := range rep.Results {
		got[r.ID] = r
	}
	base := readBaseline(t, clientBaselineFile)
	if os.Getenv("UPDATE_BASELINE") != "" {
		writeBaseline(t, clientBaselineFile, base, got)
		base = readBaseline(t, clientBaselineFile)
	}
	problems := diffBaseline(clientBaselineFile, base, clientSpecIDs(), got)
	slices.Sort(problems)
	return problems, stdout
}

// runClient runs `a2a-conform client` in a child process and returns its
// report.
func runClient(t *testing.T, out string, args ...string) (*reports.Report, string) {
	t.Helper()
	return runChild(t, "client", out, args...)
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
