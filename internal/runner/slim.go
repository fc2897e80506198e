package runner

import (
	"encoding/json"
	"os"

	"github.com/a2a-conform/a2a-conform/reports"
)

// A clean default run recorded about 2,600 exchanges, and report.json held
// every one: 6–11 MB, most of it the transcripts of passing specs (LIFE-014's
// race alone, 616 exchanges, was 1 MB). Nothing in a passing spec's
// transcript is evidence against anyone, so the report keeps only its first
// exchanges (at most keepPassing, within keepPassingBytes, always the first)
// and counts the rest in transcriptOmitted; a spec with any other verdict,
// and so every exchange a violation cites, keeps its transcript whole.
const (
	keepPassing      = 16
	keepPassingBytes = 24 << 10
)

// FullTranscriptsEnv, set to anything, keeps every spec's transcript whole
// (to read a passing spec's every exchange, or in the tests that check what
// the recorder redacts in all of them).
const FullTranscriptsEnv = "A2A_CONFORM_FULL_TRANSCRIPTS"

// slimTranscripts cuts passing and not-applicable specs' transcripts in
// place, before the digest is computed, so verify and the HTML see what
// the file holds.
func slimTranscripts(r *reports.Report) {
	if os.Getenv(FullTranscriptsEnv) != "" {
		return
	}
	for i := range r.Results {
		res := &r.Results[i]
		if res.Verdict != reports.Pass && res.Verdict != reports.NotApplicable {
			continue
		}
		if len(res.Violations) > 0 {
			continue // a pass that lists violations (none today) keeps them cited
		}
		kept, size := 0, 0
		for _, ex := range res.Transcript {
			b, err := json.Marshal(ex)
			if err != nil {
				break
			}
			if kept > 0 && (kept >= keepPassing || size+len(b) > keepPassingBytes) {
				break
			}
			kept, size = kept+1, size+len(b)
		}
		if omitted := len(res.Transcript) - kept; omitted > 0 {
			res.Transcript = append([]reports.Exchange(nil), res.Transcript[:kept]...)
			res.TranscriptOmitted += omitted
		}
	}
}
