package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
)

// Problem is one reason a report is not acceptable as submitted.
type Problem struct {
	// Where is a JSON pointer into report.json ("/results/3/verdict"), or ""
	// for the document as a whole.
	Where   string `json:"where"`
	Message string `json:"message"`
}

func (p Problem) String() string {
	if p.Where == "" {
		return p.Message
	}
	return p.Where + ": " + p.Message
}

// Topologies are the driver names a report may record (DESIGN.md "Topology").
var Topologies = []string{"embedded", "process", "hooks", "none"}

// specIDPattern is the shape of a stable spec ID (DESIGN.md "Spec identity":
// AREA-NNN); the area list is left open so a new area needs no format change.
var specIDPattern = regexp.MustCompile(`^[A-Z][A-Z0-9]{1,15}-[0-9]{3,6}$`)

// maxProblems bounds Verify's answer; past it one more line says how many
// were left out, so a hostile file cannot make the answer huge.
const maxProblems = 100

// VerifyFile reads and verifies a report.json. The error is for a file that
// cannot be read or decoded at all; problems are for one that decodes but is
// not acceptable. The report is returned either way when it decoded.
func VerifyFile(path string) (*Report, []Problem, error) {
	r, err := ReadJSON(path)
	if err != nil {
		return nil, nil, err
	}
	return r, Verify(r, nil), nil
}

// Verify checks that a report is well-formed and unedited: the apiVersion and
// kind this version reads, every required field, known verdicts and levels,
// no duplicate spec IDs, a reason on every verdict but pass, no pass in a run
// whose target was unreachable, a summary that matches the results, and a
// digest that matches the content (docs/report-format.md).
//
// raw is the report.json the report was decoded from; the digest is computed
// over it so that members this version does not know are covered too. With
// raw nil, Verify uses the bytes ReadJSON kept, or else re-encodes r. It
// returns nil when the report is acceptable.
func Verify(r *Report, raw []byte) []Problem {
	var ps problems
	if r == nil {
		ps.add("", "no report")
		return ps.list
	}
	if raw == nil {
		raw = r.raw
	}

	if r.APIVersion != APIVersion {
		ps.add("/apiVersion", fmt.Sprintf("is %q; this harness reads %q", r.APIVersion, APIVersion))
	}
	if r.Kind != Kind {
		ps.add("/kind", fmt.Sprintf("is %q, want %q", r.Kind, Kind))
	}
	required := []struct{ where, val string }{
		{"/implementation/name", r.Implementation.Name},
		{"/harness/name", r.Harness.Name},
		{"/harness/version", r.Harness.Version},
		{"/protocolVersion", r.ProtocolVersion},
	}
	for _, f := range required {
		if strings.TrimSpace(f.val) == "" {
			ps.add(f.where, "required, missing or empty")
		}
	}
	if r.Run.Start.IsZero() {
		ps.add("/run/start", "required, missing or zero")
	}
	if r.Run.DurationMs < 0 {
		ps.add("/run/durationMs", "negative")
	}
	if !slices.Contains(Topologies, r.Run.Topology) {
		ps.add("/run/topology", fmt.Sprintf("is %q; want one of %s", r.Run.Topology, strings.Join(Topologies, ", ")))
	}
	if r.Results == nil {
		ps.add("/results", "required, missing or null")
	}
	if sh := r.Run.Shard; sh != nil {
		switch {
		case sh.Total < 1:
			ps.add("/run/shard/total", fmt.Sprintf("is %d; want at least 1", sh.Total))
		case sh.Index < 0 || sh.Index > sh.Total:
			ps.add("/run/shard/index", fmt.Sprintf("is %d; want 1 to %d (0 in a merged report)", sh.Index, sh.Total))
		case sh.Index == 0 && len(sh.Merged)+len(sh.Missing) != sh.Total:
			ps.add("/run/shard", fmt.Sprintf("a merged report lists %d merged and %d missing shards; want %d in all", len(sh.Merged), len(sh.Missing), sh.Total))
		}
	}

	seen := map[string]int{}
	for i, res := range r.Results {
		at := fmt.Sprintf("/results/%d", i)
		if !specIDPattern.MatchString(res.ID) {
			ps.add(at+"/id", fmt.Sprintf("%q is not a spec ID (AREA-NNN)", clip(res.ID, 40)))
		} else if j, dup := seen[res.ID]; dup {
			ps.add(at+"/id", fmt.Sprintf("%s appears again (first at /results/%d)", res.ID, j))
		} else {
			seen[res.ID] = i
		}
		if strings.TrimSpace(res.Title) == "" {
			ps.add(at+"/title", "required, missing or empty")
		}
		if strings.TrimSpace(res.Suite) == "" {
			ps.add(at+"/suite", "required, missing or empty")
		}
		if !slices.Contains(Levels, res.Level) {
			ps.add(at+"/level", fmt.Sprintf("is %q; want one of %s", clip(res.Level, 40), strings.Join(Levels, ", ")))
		}
		if res.TCKLevel != "" && !slices.Contains(TCKLevels, res.TCKLevel) {
			ps.add(at+"/tckLevel", fmt.Sprintf("is %q; want one of %s, or absent", clip(res.TCKLevel, 40), strings.Join(TCKLevels, ", ")))
		}
		if !res.Verdict.Known() {
			ps.add(at+"/verdict", fmt.Sprintf("unknown verdict %q", clip(string(res.Verdict), 40)))
		}
		if res.Verdict != Pass && strings.TrimSpace(res.Reason) == "" {
			ps.add(at+"/reason", fmt.Sprintf("a %s verdict must say why", res.Verdict))
		}
		if res.DurationMs < 0 {
			ps.add(at+"/durationMs", "negative")
		}
		if res.Verdict == Pass && len(res.Unchecked) > 0 {
			ps.add(at+"/verdict", "pass with parts of the requirement unchecked")
		}
		if r.Run.Unreachable && res.Verdict == Pass {
			ps.add(at+"/verdict", "pass in a run whose target was unreachable")
		}
	}

	if d := summaryDiffs(r.Summary, SummarizeReport(r)); len(d) > 0 {
		ps.add("/summary", "does not match the results: "+strings.Join(d, "; "))
	}

	verifyDigest(&ps, r, raw)
	return ps.list
}

func verifyDigest(ps *problems, r *Report, raw []byte) {
	if r.Digest == "" {
		ps.add("/digest", "missing: the report was not written by a2a-conform, or was stripped")
		return
	}
	if !strings.HasPrefix(r.Digest, DigestPrefix) || len(r.Digest) != len(DigestPrefix)+64 {
		ps.add("/digest", fmt.Sprintf("%q is not sha256:<64 hex digits>", clip(r.Digest, 80)))
		return
	}
	var got string
	var err error
	if raw != nil {
		got, err = DigestOf(raw)
		if err == nil && !sameAsDecoded(r, raw) {
			ps.add("", "the report in memory differs from the bytes it was read from")
		}
	} else {
		got, err = digestOfReport(r)
	}
	if err != nil {
		ps.add("", "cannot compute the digest: "+err.Error())
		return
	}
	if got != r.Digest {
		ps.add("/digest", fmt.Sprintf("does not match the content (recorded %s, computed %s): the report was edited after it was written", r.Digest, got))
	}
}

// sameAsDecoded guards against a caller passing raw bytes that are not the
// ones r came from: the known fields of both must encode identically.
func sameAsDecoded(r *Report, raw []byte) bool {
	fresh, err := decodeReport(raw)
	if err != nil {
		return false
	}
	a, errA := encodeForCompare(r)
	b, errB := encodeForCompare(fresh)
	return errA == nil && errB == nil && bytes.Equal(a, b)
}

func encodeForCompare(r *Report) ([]byte, error) {
	cp := *r
	cp.raw = nil
	return json.Marshal(&cp)
}

// summaryDiffs names each way got differs from want. Zero counts and absent
// keys are the same thing: a writer may omit either.
func summaryDiffs(got, want Summary) []string {
	var d []string
	if got.Total != want.Total {
		d = append(d, fmt.Sprintf("total is %d, want %d", got.Total, want.Total))
	}
	if !sameCounts(got.ByVerdict, want.ByVerdict) {
		d = append(d, "byVerdict differs")
	}
	if !sameNested(got.BySuite, want.BySuite) {
		d = append(d, "bySuite differs")
	}
	if !sameNested(got.ByLevel, want.ByLevel) {
		d = append(d, "byLevel differs")
	}
	g, w := got.Score, want.Score
	if g.Passed != w.Passed || g.Denominator != w.Denominator || g.MustFailed != w.MustFailed || g.Warned != w.Warned {
		d = append(d, fmt.Sprintf("score is %d/%d (mustFailed %d, warned %d), want %d/%d (mustFailed %d, warned %d)",
			g.Passed, g.Denominator, g.MustFailed, g.Warned, w.Passed, w.Denominator, w.MustFailed, w.Warned))
	}
	if got.Partial != want.Partial {
		d = append(d, fmt.Sprintf("partial is %d, want %d", got.Partial, want.Partial))
	}
	if got.Findings != want.Findings {
		d = append(d, fmt.Sprintf("findings is %d, want %d", got.Findings, want.Findings))
	}
	if math.Abs(g.Percent-w.Percent) > 0.05 {
		d = append(d, fmt.Sprintf("score percent is %v, want %v", g.Percent, w.Percent))
	}
	return d
}

func nonZero[K comparable](m map[K]int) map[K]int {
	out := map[K]int{}
	for k, v := range m {
		if v != 0 {
			out[k] = v
		}
	}
	return out
}

func sameCounts(a, b map[Verdict]int) bool { return maps.Equal(nonZero(a), nonZero(b)) }

func sameNested(a, b map[string]map[Verdict]int) bool {
	na, nb := map[string]map[Verdict]int{}, map[string]map[Verdict]int{}
	for k, v := range a {
		if c := nonZero(v); len(c) > 0 {
			na[k] = c
		}
	}
	for k, v := range b {
		if c := nonZero(v); len(c) > 0 {
			nb[k] = c
		}
	}
	return maps.EqualFunc(na, nb, func(x, y map[Verdict]int) bool { return maps.Equal(x, y) })
}

type problems struct {
	list    []Problem
	dropped int
}

func (ps *problems) add(where, msg string) {
	if len(ps.list) < maxProblems {
		ps.list = append(ps.list, Problem{Where: where, Message: msg})
		return
	}
	ps.dropped++
	if ps.dropped == 1 {
		ps.list = append(ps.list, Problem{Message: "more problems left out"})
	}
}

// clip shortens a vendor-controlled string quoted in a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return cutUTF8(s, n) + "…"
}
