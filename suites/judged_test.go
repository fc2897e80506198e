package suites

import (
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/reports"
)

// Every client spec says what of the client its verdict rests on, and the
// ones the issue names as judging driver-supplied code say which piece.
func TestClientSpecsSayWhatTheyJudge(t *testing.T) {
	supplied := map[string][]string{
		"CLI-022": {reports.PieceReceiver}, "CLI-023": {reports.PieceState}, "CLI-024": {reports.PieceReceiver},
		"CLI-025": {reports.PieceReceiver, reports.PieceState}, "CLI-037": {reports.PieceReceiver},
		"CLI-038": {reports.PieceReceiver, reports.PieceState},
		"CLI-012": {reports.PieceDefaultPush},
	}
	for _, i := range All() {
		j := i.Result().Judges
		if i.Suite != Client {
			if j != nil {
				t.Errorf("%s (an agent spec) says it judges a client: %+v", i.ID, j)
			}
			continue
		}
		want, ok := supplied[i.ID]
		switch {
		case j == nil:
			t.Errorf("%s says nothing of what it judges", i.ID)
		case ok && (j.What != reports.JudgesSupplied || strings.Join(j.Pieces, ",") != strings.Join(want, ",")):
			t.Errorf("%s judges %+v, want the supplied pieces %v", i.ID, j, want)
		case !ok && j.What != reports.JudgesSDK:
			t.Errorf("%s judges %+v, want the SDK", i.ID, j)
		}
	}
}

// A verdict resting only on pieces the harness's driver kit supplied is set
// aside as not-applicable, the verdict kept as an observation; one resting on
// any piece of the vendor's own keeps its verdict.
func TestVerdictsOnTheKitAreNotScored(t *testing.T) {
	both := []string{reports.PieceReceiver, reports.PieceState}
	cases := []struct {
		name    string
		pieces  []string
		by      map[string]string
		verdict reports.Verdict
		want    reports.Verdict
	}{
		{"all kit, fail", both, map[string]string{reports.PieceReceiver: "kit", reports.PieceState: "kit"}, reports.Fail, reports.NotApplicable},
		{"all kit, pass", both, map[string]string{reports.PieceReceiver: "kit", reports.PieceState: "kit"}, reports.Pass, reports.NotApplicable},
		{"kit receiver, own state", both, map[string]string{reports.PieceReceiver: "kit"}, reports.Fail, reports.Fail},
		{"nothing said", both, nil, reports.Warn, reports.Warn},
		{"all kit, could not run", both, map[string]string{reports.PieceReceiver: "kit", reports.PieceState: "kit"}, reports.CouldNotRun, reports.CouldNotRun},
		{"the SDK judged", nil, map[string]string{reports.PieceReceiver: "kit"}, reports.Fail, reports.Fail},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			what := reports.JudgesSupplied
			if c.pieces == nil {
				what = reports.JudgesSDK
			}
			res := reports.Result{ID: "CLI-0XX", Verdict: c.verdict, Reason: "r",
				Judges: &reports.Judged{What: what, Pieces: c.pieces}}
			judgedByKit(&res, c.by)
			if res.Verdict != c.want {
				t.Fatalf("verdict %s, want %s (%s)", res.Verdict, c.want, res.Reason)
			}
			if c.want == reports.NotApplicable && !strings.HasPrefix(res.Observations["verdict on the kit"], string(c.verdict)) {
				t.Errorf("the kit's verdict is not kept: %v", res.Observations)
			}
			if what == reports.JudgesSupplied && len(res.Judges.By) != len(c.pieces) {
				t.Errorf("by %v: every piece should say who supplied it", res.Judges.By)
			}
		})
	}
}
