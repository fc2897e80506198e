package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// cutUTF8 returns at most n bytes of s without splitting a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// capText cuts s at n bytes and, when it did, says how much was left out and
// where the rest is, so a reader never mistakes a cut body for the whole.
func capText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	c := cutUTF8(s, n)
	return c + fmt.Sprintf("\n… cut here: %d more bytes (the full text is in report.json)", len(s)-len(c))
}

// prettyJSON indents s when it is a JSON document small enough to be worth
// it; anything else is returned unchanged.
func prettyJSON(s string, max int) string {
	t := strings.TrimSpace(s)
	if len(t) == 0 || len(t) > max || (t[0] != '{' && t[0] != '[') || !json.Valid([]byte(t)) {
		return s
	}
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(t), "", "  "); err != nil {
		return s
	}
	return b.String()
}

// headerText renders headers one "Name: value" line each, names sorted,
// at most maxLines lines with each value cut at maxValue bytes.
func headerText(h http.Header, maxLines, maxValue int) string {
	if len(h) == 0 {
		return ""
	}
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	slices.Sort(names)
	var b strings.Builder
	lines := 0
	total := 0
	for _, k := range names {
		total += len(h[k])
	}
	for _, k := range names {
		for _, v := range h[k] {
			if lines == maxLines {
				fmt.Fprintf(&b, "… %d more header lines (in report.json)\n", total-lines)
				return b.String()
			}
			b.WriteString(cutUTF8(k, maxValue))
			b.WriteString(": ")
			b.WriteString(cutUTF8(v, maxValue))
			if len(v) > maxValue {
				b.WriteString(" …")
			}
			b.WriteByte('\n')
			lines++
		}
	}
	return b.String()
}

// formatMs renders a duration for people: "850 ms", "12.4 s", "3 min 05 s".
func formatMs(ms float64) string {
	switch {
	case ms < 0:
		return "—"
	case ms < 10 && ms != float64(int64(ms)):
		return fmt.Sprintf("%.1f ms", ms)
	case ms < 1000:
		return fmt.Sprintf("%.0f ms", ms)
	case ms < 60_000:
		return fmt.Sprintf("%.1f s", ms/1000)
	default:
		d := time.Duration(ms) * time.Millisecond
		return fmt.Sprintf("%d min %02d s", int(d.Minutes()), int(d.Seconds())%60)
	}
}

// formatStamp renders a point in the run's time line precisely enough to
// order events: "12.4 ms", "1.530 s".
func formatStamp(ms float64) string {
	if ms < 1000 {
		return fmt.Sprintf("%.1f ms", ms)
	}
	return fmt.Sprintf("%.3f s", ms/1000)
}

// verdictLabel is the text that goes with a verdict's colour, so that no
// verdict is told by colour alone.
func verdictLabel(v Verdict) string {
	switch v {
	case Pass:
		return "✓ pass"
	case Fail:
		return "✗ fail"
	case Warn:
		return "! warn"
	case NotApplicable:
		return "– not applicable"
	case CouldNotRun:
		return "⊘ could not run"
	case Indeterminate:
		return "? indeterminate"
	case "":
		return "· not run"
	}
	return "? " + cutUTF8(string(v), 40)
}

// verdictClass is a CSS class name for a verdict; unknown ones share one.
func verdictClass(v Verdict) string {
	if v.Known() {
		return "v-" + string(v)
	}
	if v == "" {
		return "v-not-run"
	}
	return "v-unknown"
}
