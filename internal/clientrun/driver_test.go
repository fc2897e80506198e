package clientrun

import (
	"context"
	"strings"
	"testing"
	"time"
)

func TestRunDriverBoundsOutputAndPassesTheContract(t *testing.T) {
	v := Vars{CardURL: "http://127.0.0.1:1/.well-known/agent-card.json", Case: "CLI-000/x", Action: ActionSend,
		Text: "hello", Timeout: 10 * time.Second}
	d := RunDriver(context.Background(), DriverOptions{OutputCap: 1000, Vars: v,
		Template: `/bin/sh -c 'head -c 5000 /dev/zero | tr "\0" x; echo; head -c 3000 /dev/zero | tr "\0" y >&2; echo "{\"action\":\"$A2A_CONFORM_ACTION\",\"taskId\":\"{case}\",\"state\":\"$A2A_CONFORM_TIMEOUT\"}"'`})
	if d.StdoutCut == 0 || len(d.Stdout) != 1000 || d.StderrCut != 2000 {
		t.Errorf("kept %d bytes of stdout (cut %d), cut %d of stderr; want 1000 kept and the rest cut", len(d.Stdout), d.StdoutCut, d.StderrCut)
	}
	// The result line was beyond the cap: the run has no result.
	if d.Result != nil || d.OK() || !strings.Contains(d.Cause(), "no JSON result line") {
		t.Errorf("result %+v, cause %q", d.Result, d.Cause())
	}
	d = RunDriver(context.Background(), DriverOptions{Vars: v,
		Template: `/bin/sh -c 'echo "{\"action\":\"$A2A_CONFORM_ACTION\",\"taskId\":\"{case}\",\"state\":\"$A2A_CONFORM_TIMEOUT\"}"'`})
	if !d.OK() || d.Result.Action != ActionSend || d.Result.TaskID != "CLI-000/x" || d.Result.State != "10" {
		t.Errorf("contract values: %+v (%s)", d.Result, d.Cause())
	}
}

func TestRunDriverKillsTheGroupAtItsDeadline(t *testing.T) {
	v := Vars{Action: ActionSend, Timeout: 500 * time.Millisecond}
	d := RunDriver(context.Background(), DriverOptions{Vars: v, Template: `/bin/sh -c 'sleep 30 & sleep 30'`})
	if !d.TimedOut || !d.Killed || d.OK() || !strings.Contains(d.Cause(), "did not finish within") {
		t.Fatalf("timed out %v, killed %v, cause %q", d.TimedOut, d.Killed, d.Cause())
	}
}
