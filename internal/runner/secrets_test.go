//go:build unix

package runner_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/runner"
)

// A full run, with the agent started by the process driver, carries one
// canary as the user's auth header and another as the credentials of every
// push config the harness registers. Both must reach the agent and come back
// (the header on every request, the push credential on every webhook call
// and in push-config answers), and neither may appear in any output: the
// console, agent.log, ginkgo.log, report.json with its transcripts,
// junit.xml and report.html.
func TestCanarySecretsReachNoOutputOfAFullRun(t *testing.T) {
	t.Parallel()
	header := "hdrcanary-3f9a61c0de"
	push := "pushcanary-b7e2d45a19-"
	r := runCLI(t, []string{pushCanaryEnv + "=" + push, runner.FullTranscriptsEnv + "=1"},
		"--agent-cmd", referenceAgentCmd(""), "--seed", "17", "--race-trials", "20",
		"--header", "Authorization: Bearer "+header)
	if r.report == nil {
		t.Fatalf("no report (exit %d)\n%s\n%s", r.exit, r.stdout, r.stderr)
	}
	if r.exit != 0 {
		t.Errorf("exit %d: the clean reference agent should pass\n%s", r.exit, r.stdout)
	}

	// The canaries must have travelled, or their absence proves nothing.
	var sentAuth, pushAuth, pushConfigs int
	for _, res := range r.report.Results {
		for _, ex := range res.Transcript {
			_, auth := ex.ReqHeader["Authorization"]
			switch {
			case ex.Direction == "in" && auth:
				pushAuth++
			case ex.Direction != "in" && auth:
				sentAuth++
			}
			if strings.Contains(string(ex.ReqBody), `"credentials"`) {
				pushConfigs++
			}
		}
	}
	if sentAuth == 0 || pushAuth == 0 || pushConfigs == 0 {
		t.Fatalf("the canaries did not travel: %d requests with Authorization, %d webhook calls with Authorization, %d push configs with credentials", sentAuth, pushAuth, pushConfigs)
	}

	outputs := map[string][]byte{"stdout": []byte(r.stdout), "stderr": []byte(r.stderr)}
	err := filepath.WalkDir(r.out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		outputs[filepath.Base(p)] = b
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"report.json", "junit.xml", "report.html", "ginkgo.log", "agent.log"} {
		if len(outputs[want]) == 0 {
			t.Errorf("%s missing or empty: the test would not have looked in it", want)
		}
	}
	for name, data := range outputs {
		for _, c := range []string{header, push} {
			if bytes.Contains(data, []byte(c)) {
				t.Errorf("%s contains the canary %q", name, c)
			}
		}
	}
}
