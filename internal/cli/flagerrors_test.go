package cli

import (
	"bytes"
	"strings"
	"testing"
)

// A bad flag gets one line naming it, a did-you-mean when one is close, and
// where the help is, never the whole help (it scrolled the error away).
func TestBadFlagIsOneClearLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"run", "--targett", "x"}, []string{"run: unknown flag --targett (did you mean --target?)", "a2a-conform run --help"}},
		{[]string{"list", "-sute", "x"}, []string{"list: unknown flag --sute (did you mean --suite?)", "a2a-conform list --help"}},
		{[]string{"run", "--parallel", "many"}, []string{`run: invalid value "many" for flag --parallel`}},
		{[]string{"run", "--zzzzqqqq"}, []string{"run: unknown flag --zzzzqqqq\n"}},
	} {
		var out, errb bytes.Buffer
		if code := Main(tc.args, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", tc.args, code)
		}
		got := errb.String()
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%v: missing %q in %q", tc.args, w, got)
			}
		}
		if n := strings.Count(got, "\n"); n > 3 || strings.Contains(got, "Flags:") {
			t.Errorf("%v: %d lines, the help printed after the error:\n%s", tc.args, n, got)
		}
		if strings.Contains(got, "did you mean") && strings.Contains(tc.args[1], "zzzz") {
			t.Errorf("%v: a far-off flag got a suggestion: %s", tc.args, got)
		}
	}
}

// `help run` is `run --help`, and help shows the flags as they are typed.
func TestHelpShowsCommandHelpWithDoubleDashFlags(t *testing.T) {
	t.Parallel()
	var out, errb bytes.Buffer
	if code := Main([]string{"help", "run"}, &out, &errb); code != 0 {
		t.Fatalf("help run: exit %d", code)
	}
	help := out.String() + errb.String()
	for _, w := range []string{"Usage: a2a-conform run", "  --target URL", "  --agent-cmd TEMPLATE"} {
		if !strings.Contains(help, w) {
			t.Errorf("help run lacks %q", w)
		}
	}
	for _, line := range strings.Split(help, "\n") {
		if strings.HasPrefix(line, "  -") && !strings.HasPrefix(line, "  --") {
			t.Errorf("single-dash flag in help: %q", line)
		}
	}
}
