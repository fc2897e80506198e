package reports

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ScorecardKind is the kind of scorecard.json; it shares APIVersion with the
// report.
const ScorecardKind = "Scorecard"

// NotRun is the scorecard cell of a spec that a vendor's report does not
// contain (an older harness, a --suite or --focus run). It is not a verdict.
const NotRun = "not-run"

// clientSuite and clientRole mark client specs and client reports, which a
// scorecard keeps in a matrix of their own.
const (
	clientSuite = "client"
	clientRole  = "client"
)

// htmlMaxExplain bounds the explain text shown per spec row.
const htmlMaxExplain = 4 << 10

// Scorecard is the vendor × spec matrix built from verified reports.
type Scorecard struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Vendors    []ScorecardVendor `json:"vendors"`
	Specs      []ScorecardSpec   `json:"specs"`
	// Declared is how many specs every agent column is scored against (the
	// declared spec set; DeclaredSpec); client columns are scored against
	// the client specs of the set.
	Declared int `json:"declared"`
	// Notes says what a reader must know about how the matrix was made:
	// several reports of one implementation, mixed harness or protocol
	// versions, no declared spec set.
	Notes []string `json:"notes,omitempty"`
	// Admission is the rule reports were admitted by, when the publisher
	// gave one (scorecard --require-signer).
	Admission *Admission `json:"admission,omitempty"`

	reports []*Report // aligned with Vendors
}

// ScorecardVendor is one column: one implementation name and version.
type ScorecardVendor struct {
	// Slug names the vendor's files: badges/<slug>.svg and vendors/<slug>/.
	Slug            string         `json:"slug"`
	Implementation  Implementation `json:"implementation"`
	Harness         Harness        `json:"harness"`
	ProtocolVersion string         `json:"protocolVersion"`
	Start           time.Time      `json:"start"`
	Unreachable     bool           `json:"unreachable,omitempty"`
	// Score is against the declared spec set (Scorecard.Declared): a
	// declared spec the report did not run counts as not passed.
	Score Score `json:"score"`
	// ReportScore is the score the report gives itself, over what it ran.
	ReportScore Score `json:"reportScore"`
	// Interrupted names the signal that stopped the run, if one did.
	Interrupted string `json:"interrupted,omitempty"`
	// Partial says why the report is not a complete run of the declared
	// set (PartialReasons); such a column never gets a full badge.
	Partial []string `json:"partial,omitempty"`
	// Requirements names the requirement set the column is scored
	// against (RequirementSets), RequirementsNote why it is not the
	// current one, or not the one the report names.
	Requirements     string `json:"requirements,omitempty"`
	RequirementsNote string `json:"requirementsNote,omitempty"`
	// Digest is the digest of the report the column was built from.
	Digest     string `json:"digest"`
	ReportHTML string `json:"reportHtml"` // relative to the scorecard directory
	ReportJSON string `json:"reportJson"`
	Badge      string `json:"badge"`

	// Attestation says where the report comes from: ran by the
	// scorecard itself, submitted with a signed statement that verified
	// (and whose), or submitted unattested (the default; SetAttestation).
	Attestation Attestation `json:"attestation"`
}

// ScorecardSpec is one row.
type ScorecardSpec struct {
	ID       string   `json:"id"`
	Title    string   `json:"title"`
	Suite    string   `json:"suite"`
	Level    string   `json:"level"`
	Sections []string `json:"sections,omitempty"`
	// Verdicts holds one verdict per vendor, in Vendors order; NotRun where
	// that vendor's report lacks the spec.
	Verdicts []string `json:"verdicts"`
	// Undeclared marks a spec outside the declared set (a report from
	// another harness version ran it): shown, never scored.
	Undeclared bool `json:"undeclared,omitempty"`
	// Unchecked holds, per vendor in Vendors order, the parts of the spec's
	// title that vendor's run could not check (Result.Unchecked); omitted
	// when no vendor has any.
	Unchecked [][]string `json:"unchecked,omitempty"`
	// Findings holds, per vendor in Vendors order, what that vendor's run
	// found worth knowing on this spec (Result.Findings: a task lost in a
	// restart, a terminal state broken after the spec's own watch); omitted
	// when no vendor has any.
	Findings [][]string `json:"findings,omitempty"`
	// Judges says, for a client spec, what of the client its verdict rests
	// on (Result.Judges, without who supplied the pieces: By holds that per
	// vendor, in Vendors order, when any vendor's driver said).
	Judges *Judged             `json:"judges,omitempty"`
	By     []map[string]string `json:"by,omitempty"`
}

// BuildScorecard merges reports into a matrix and scores every report
// against one declared spec set (DeclaredSpec: the specs of one harness
// version and spec revision), so that scores side by side are comparable: a
// declared spec a report did not run counts as not passed, and a report that
// was filtered, interrupted or lacks declared specs is marked partial
// (PartialReasons) and never gets a full badge. Without declared specs the set
// is the union of the specs the reports ran, and a note says so.
//
// A public scorecard must not carry edited or inconsistent numbers, so every
// report is verified and any that fails rejects the whole build: the error
// names each offending report and its problems. Several reports of the same
// implementation name and version are all listed, each in a column of its
// own, and a note says so: which one counts is the publisher's decision, not
// a silent one. Columns are ordered by name (letters and digits only, case
// ignored), then version, then start; rows by spec area, then number.
func BuildScorecard(reports []*Report, declared ...DeclaredSpec) (*Scorecard, error) {
	return BuildScorecardSets(reports, RequirementSets{Sets: map[string][]DeclaredSpec{"": declared}})
}

// RequirementSets are the frozen spec sets a scorecard may score a report
// against (suites.RequirementSets): each report is scored against the set
// it names (run.requirements), which its column shows; a report naming no
// set, or one this harness does not know, is scored against Current and
// its column says so. A score is never silently re-scored against a set
// its report was not run under.
type RequirementSets struct {
	Current string
	Sets    map[string][]DeclaredSpec
}

// BuildScorecardSets is BuildScorecard with each report scored against its
// own requirement set.
func BuildScorecardSets(reports []*Report, sets RequirementSets) (*Scorecard, error) {
	declared := sets.Sets[sets.Current]
	var errs []error
	for i, r := range reports {
		if r == nil {
			errs = append(errs, fmt.Errorf("report %d: nil", i+1))
			continue
		}
		if ps := Verify(r, nil); len(ps) > 0 {
			errs = append(errs, fmt.Errorf("report %d (%q %q): rejected, it does not verify: %s",
				i+1, clip(r.Implementation.Name, 80), clip(r.Implementation.Version, 40), firstProblems(ps, 5)))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if len(reports) == 0 {
		return nil, errors.New("no reports to merge")
	}

	sc := &Scorecard{APIVersion: APIVersion, Kind: ScorecardKind}
	sc.reports = slices.Clone(reports)
	slices.SortStableFunc(sc.reports, func(a, b *Report) int {
		if c := strings.Compare(Slugify(a.Implementation.Name), Slugify(b.Implementation.Name)); c != 0 {
			return c
		}
		if c := strings.Compare(a.Implementation.Name, b.Implementation.Name); c != 0 {
			return c
		}
		if c := strings.Compare(a.Implementation.Version, b.Implementation.Version); c != 0 {
			return c
		}
		return a.Run.Start.Compare(b.Run.Start)
	})
	type key struct{ name, version string }
	same := map[key][]*Report{}
	var order []key
	for _, r := range sc.reports {
		k := key{r.Implementation.Name, r.Implementation.Version}
		if same[k] == nil {
			order = append(order, k)
		}
		same[k] = append(same[k], r)
	}
	for _, k := range order {
		if rs := same[k]; len(rs) > 1 {
			var starts []string
			for _, r := range rs {
				starts = append(starts, r.Run.Start.UTC().Format("2006-01-02 15:04:05 UTC")+" ("+shortDigest(r.Digest)+")")
			}
			sc.Notes = append(sc.Notes, fmt.Sprintf("%s %s: %d reports, all listed, one column each (runs started %s).",
				clip(k.name, 80), clip(k.version, 40), len(rs), strings.Join(starts, ", ")))
		}
	}

	if len(declared) == 0 {
		seen := map[string]bool{}
		for _, r := range sc.reports {
			for _, res := range r.Results {
				if !seen[res.ID] {
					seen[res.ID] = true
					declared = append(declared, DeclaredSpec{ID: res.ID, Title: res.Title, Suite: res.Suite, Level: res.Level, Sections: res.Sections})
				}
			}
		}
		slices.SortFunc(declared, func(a, b DeclaredSpec) int { return compareSpecIDs(a.ID, b.ID) })
		sc.Notes = append(sc.Notes, fmt.Sprintf("No spec set was declared: every report is scored against the %d specs any report of its kind ran.", len(declared)))
	}
	// An agent is scored against the agent specs, a client (implementation
	// role "client") against the client specs: they never share a spec.
	var agentSet, clientSet []DeclaredSpec
	for _, d := range declared {
		if d.Suite == clientSuite {
			clientSet = append(clientSet, d)
		} else {
			agentSet = append(agentSet, d)
		}
	}
	split := func(set []DeclaredSpec, client bool) []DeclaredSpec {
		var out []DeclaredSpec
		for _, d := range set {
			if (d.Suite == clientSuite) == client {
				out = append(out, d)
			}
		}
		return out
	}
	// setOf is the requirement set r is scored against, and what its
	// column says of it.
	setOf := func(r *Report) (string, string) {
		name := r.Run.Requirements
		switch {
		case sets.Current == "":
			return "", ""
		case name == "":
			return sets.Current, "the report names no requirement set (a harness before sets were named): scored against " + sets.Current
		case sets.Sets[name] == nil:
			return sets.Current, "the report names requirement set " + clip(name, 40) + ", which this harness does not know: scored against " + sets.Current
		case name != sets.Current:
			return name, "scored against its own requirement set " + name + ", not the current " + sets.Current + ": compare it only with columns of the same set"
		}
		return name, ""
	}
	setFor := func(r *Report) []DeclaredSpec {
		client := r.Implementation.Role == clientRole
		if name, _ := setOf(r); name != sets.Current {
			return split(sets.Sets[name], client)
		}
		if client {
			return clientSet
		}
		return agentSet
	}
	sc.Declared = len(agentSet)

	if sets.Current != "" {
		var other []string
		for _, r := range sc.reports {
			_, note := setOf(r)
			if e := clip(r.Implementation.Name, 80) + " " + clip(r.Implementation.Version, 40) + ": " + note; note != "" && !slices.Contains(other, e) {
				other = append(other, e)
			}
		}
		if len(other) > 0 {
			sc.Notes = append(sc.Notes, "Not every column is scored against the current requirement set "+sets.Current+": "+strings.Join(other, "; ")+".")
		}
	}
	slugs := assignSlugs(sc.reports)
	for i, r := range sc.reports {
		own := SummarizeReport(r).Score
		setName, setNote := setOf(r)
		sc.Vendors = append(sc.Vendors, ScorecardVendor{
			Requirements:     setName,
			RequirementsNote: setNote,
			Slug:             slugs[i],
			Implementation:   r.Implementation,
			Harness:          r.Harness,
			ProtocolVersion:  r.ProtocolVersion,
			Start:            r.Run.Start,
			Unreachable:      r.Run.Unreachable,
			Score:            ScoreAgainst(r, setFor(r)),
			ReportScore:      own,
			Interrupted:      r.Run.Interrupted,
			Partial:          PartialReasons(r, setFor(r)),
			Digest:           r.Digest,
			Attestation:      Attestation{Status: AttestUnattested},
			ReportHTML:       "vendors/" + slugs[i] + "/report.html",
			ReportJSON:       "vendors/" + slugs[i] + "/report.json",
			Badge:            "badges/" + slugs[i] + ".svg",
		})
	}

	rows := map[string]*ScorecardSpec{}
	for _, d := range declared {
		rows[d.ID] = &ScorecardSpec{ID: d.ID, Title: d.Title, Suite: d.Suite, Level: d.Level, Sections: d.Sections,
			Verdicts: slices.Repeat([]string{NotRun}, len(sc.reports))}
	}
	for vi, r := range sc.reports {
		for _, res := range r.Results {
			sp := rows[res.ID]
			if sp == nil {
				sp = &ScorecardSpec{ID: res.ID, Title: res.Title, Suite: res.Suite, Level: res.Level, Sections: res.Sections,
					Verdicts: slices.Repeat([]string{NotRun}, len(sc.reports)), Undeclared: true}
				rows[res.ID] = sp
			}
			sp.Verdicts[vi] = string(res.Verdict)
			if j := res.Judges; j != nil {
				if sp.Judges == nil {
					sp.Judges = &Judged{What: j.What, Pieces: j.Pieces}
				}
				if len(j.By) > 0 {
					if sp.By == nil {
						sp.By = make([]map[string]string, len(sc.reports))
					}
					sp.By[vi] = j.By
				}
			}
			if len(res.Unchecked) > 0 {
				if sp.Unchecked == nil {
					sp.Unchecked = make([][]string, len(sc.reports))
				}
				sp.Unchecked[vi] = res.Unchecked
			}
			if len(res.Findings) > 0 {
				if sp.Findings == nil {
					sp.Findings = make([][]string, len(sc.reports))
				}
				sp.Findings[vi] = res.Findings
			}
		}
	}
	for _, sp := range rows {
		sc.Specs = append(sc.Specs, *sp)
	}
	slices.SortFunc(sc.Specs, func(a, b ScorecardSpec) int { return compareSpecIDs(a.ID, b.ID) })

	distinct := func(f func(*Report) string) []string {
		var out []string
		for _, r := range sc.reports {
			if v := f(r); !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
		slices.Sort(out)
		return out
	}
	if hv := distinct(func(r *Report) string { return r.Harness.Version }); len(hv) > 1 {
		sc.Notes = append(sc.Notes, "The reports come from different harness versions ("+clip(strings.Join(hv, ", "), 200)+"): their spec sets and checks may differ; a spec missing from a report shows as not run.")
	}
	if pv := distinct(func(r *Report) string { return r.ProtocolVersion }); len(pv) > 1 {
		sc.Notes = append(sc.Notes, "The reports test different protocol versions ("+clip(strings.Join(pv, ", "), 200)+").")
	}
	return sc, nil
}

// BuildScorecardFiles reads and verifies each report.json, then merges them
// with BuildScorecard. Errors name the file: every file that cannot be read
// or does not verify is listed, and then nothing is built.
func BuildScorecardFiles(paths []string) (*Scorecard, error) {
	var errs []error
	reports := make([]*Report, 0, len(paths))
	for _, p := range paths {
		r, ps, err := VerifyFile(p)
		switch {
		case err != nil:
			errs = append(errs, err)
		case len(ps) > 0:
			errs = append(errs, fmt.Errorf("%s (%q %q): rejected, it does not verify: %s",
				p, clip(r.Implementation.Name, 80), clip(r.Implementation.Version, 40), firstProblems(ps, 5)))
		default:
			reports = append(reports, r)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return BuildScorecard(reports)
}

func firstProblems(ps []Problem, n int) string {
	msgs := make([]string, 0, n+1)
	for j, p := range ps {
		if j == n {
			msgs = append(msgs, fmt.Sprintf("and %d more", len(ps)-j))
			break
		}
		msgs = append(msgs, p.String())
	}
	return strings.Join(msgs, "; ")
}

// compareSpecIDs orders AREA-NNN by area, then by number as a number.
func compareSpecIDs(a, b string) int {
	aa, an, _ := strings.Cut(a, "-")
	ba, bn, _ := strings.Cut(b, "-")
	if c := strings.Compare(aa, ba); c != 0 {
		return c
	}
	ai, errA := strconv.Atoi(an)
	bi, errB := strconv.Atoi(bn)
	if errA == nil && errB == nil && ai != bi {
		return ai - bi
	}
	return strings.Compare(a, b)
}

func shortDigest(d string) string {
	if len(d) > len(DigestPrefix)+12 {
		return d[:len(DigestPrefix)+12] + "…"
	}
	return d
}

// slugPattern is what a slug may be; WriteScorecard re-checks it before
// using one in a path, since Scorecard fields are exported.
var slugPattern = regexp.MustCompile(`^[a-z0-9](?:[a-z0-9-]{0,78}[a-z0-9])?$`)

// windowsReserved are file names Windows refuses whatever the extension;
// a scorecard directory may be published from any OS.
var windowsReserved = map[string]bool{"con": true, "prn": true, "aux": true, "nul": true,
	"com1": true, "com2": true, "com3": true, "com4": true, "com5": true, "com6": true, "com7": true, "com8": true, "com9": true,
	"lpt1": true, "lpt2": true, "lpt3": true, "lpt4": true, "lpt5": true, "lpt6": true, "lpt7": true, "lpt8": true, "lpt9": true}

// Slugify turns an implementation name into a file-name-safe slug: lower-case
// ASCII letters and digits, runs of anything else become one hyphen, at most
// 80 characters, never empty, never "." or "..", never a path separator. So
// "../../etc" becomes "etc" and "Acme Agent (beta)" becomes "acme-agent-beta".
func Slugify(s string) string {
	var b strings.Builder
	hyphen := false
	for _, c := range strings.ToLower(s) {
		if (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') {
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(c)
			if b.Len() >= 80 {
				break
			}
			continue
		}
		hyphen = true
	}
	out := strings.Trim(b.String(), "-")
	if len(out) > 80 {
		out = strings.TrimRight(out[:80], "-")
	}
	if out == "" {
		return "implementation"
	}
	if windowsReserved[out] {
		out += "-agent"
	}
	return out
}

// assignSlugs gives each column a unique slug. The name alone is used when
// only one column has that name, so a vendor's badge URL stays the same from
// one release to the next as long as the scorecard holds one version of it;
// otherwise the version is appended, and any remaining clash gets -2, -3….
func assignSlugs(rs []*Report) []string {
	base := make([]string, len(rs))
	count := map[string]int{}
	for i, r := range rs {
		base[i] = Slugify(r.Implementation.Name)
		count[base[i]]++
	}
	out := make([]string, len(rs))
	used := map[string]bool{}
	for i, r := range rs {
		s := base[i]
		if count[s] > 1 {
			s = Slugify(r.Implementation.Name + "-" + r.Implementation.Version)
		}
		cand := s
		for n := 2; used[cand]; n++ {
			suffix := "-" + strconv.Itoa(n)
			cand = strings.TrimRight(cutUTF8(s, 80-len(suffix)), "-") + suffix
		}
		used[cand] = true
		out[i] = cand
	}
	return out
}

// WriteScorecard writes into dir: scorecard.html (the matrix), scorecard.json,
// badges/<slug>.svg per vendor, and vendors/<slug>/report.html and report.json
// (the report exactly as submitted, so anyone can re-verify it) per vendor.
// Each matrix cell links to vendors/<slug>/report.html#<spec ID>. explain, when
// not nil, gives the text shown under each spec's title.
func WriteScorecard(dir string, sc *Scorecard, explain func(id string) string) error {
	if sc == nil || len(sc.reports) != len(sc.Vendors) {
		return errors.New("scorecard: not built by BuildScorecard (it holds no reports)")
	}
	for _, v := range sc.Vendors {
		if !slugPattern.MatchString(v.Slug) {
			return fmt.Errorf("scorecard: unsafe slug %q", clip(v.Slug, 100))
		}
	}
	for i, v := range sc.Vendors {
		r := sc.reports[i]
		vdir := filepath.Join(dir, "vendors", v.Slug)
		if err := WriteHTML(filepath.Join(vdir, "report.html"), r); err != nil {
			return err
		}
		if err := writeReportCopy(filepath.Join(vdir, "report.json"), r); err != nil {
			return err
		}
		if err := writeFileAtomic(filepath.Join(dir, "badges", v.Slug+".svg"), []byte(badgeFor(v))); err != nil {
			return err
		}
	}
	j, err := json.MarshalIndent(sc, "", "  ")
	if err != nil {
		return fmt.Errorf("scorecard.json: %w", err)
	}
	if err := writeFileAtomic(filepath.Join(dir, "scorecard.json"), append(j, '\n')); err != nil {
		return err
	}
	page, err := renderScorecard(sc, explain)
	if err != nil {
		return err
	}
	return writeFileAtomic(filepath.Join(dir, "scorecard.html"), page)
}

// writeReportCopy writes the submitted bytes when there are any, so that the
// copy's digest verifies; a report built in memory is encoded afresh.
func writeReportCopy(path string, r *Report) error {
	if r.raw != nil {
		return writeFileAtomic(path, r.raw)
	}
	cp := *r
	return WriteJSON(path, &cp)
}

var scorecardTemplate = template.Must(template.New("scorecard").Parse(mustAsset("assets/scorecard.html.tmpl")))

type scorecardView struct {
	CSP     string
	Style   template.CSS
	Script  template.JS
	SC      *Scorecard
	Columns []columnView
	Rows    []matrixRow
	Suites  []string
	Levels  []string
	Notes   []string
	// ClientColumns and ClientRows are the client reports' own matrix
	// (implementation.role "client", client specs), kept apart from the
	// agents': a client and an agent never share a spec.
	ClientColumns []columnView
	ClientRows    []matrixRow
}

type columnView struct {
	Slug, Name, Version, Protocol, Harness, Start string
	Passed, Denominator, MustFailed, Warned       int
	Percent                                       string
	Unreachable                                   bool
	Interrupted                                   string
	Partial                                       []string
	ReportHTML, ReportJSON, Badge                 string
	Class                                         string
	Attestation, AttestedBy, AttestReason         string
	Requirements, RequirementsNote                string
}

type matrixRow struct {
	ID, Title, Suite, Level, Sections, Explain string
	// Judges says what of the client a client spec judges.
	Judges  string
	AllPass bool
	Cells   []matrixCell
}

type matrixCell struct {
	Verdict, Class, Label, Href, Tip string
}

func renderScorecard(sc *Scorecard, explain func(string) string) ([]byte, error) {
	v := scorecardView{
		CSP:    contentPolicy(pageStyle, scorecardJS),
		Style:  template.CSS(pageStyle),
		Script: template.JS(scorecardJS),
		SC:     sc,
		Notes:  sc.Notes,
	}
	f := func(s string) string { return cutUTF8(s, htmlMaxField) }
	for _, vd := range sc.Vendors {
		c := columnView{
			Slug: vd.Slug, Name: f(vd.Implementation.Name), Version: f(vd.Implementation.Version),
			Protocol: f(vd.ProtocolVersion), Harness: f(strings.TrimSpace(vd.Harness.Name + " " + vd.Harness.Version)),
			Passed: vd.Score.Passed, Denominator: vd.Score.Denominator, MustFailed: vd.Score.MustFailed, Warned: vd.Score.Warned,
			Percent:     strconv.FormatFloat(vd.Score.Percent, 'f', 1, 64),
			Unreachable: vd.Unreachable,
			Interrupted: f(vd.Interrupted),
			Partial:     vd.Partial,
			ReportHTML:  vd.ReportHTML, ReportJSON: vd.ReportJSON, Badge: vd.Badge,
			Attestation:  f(vd.Attestation.Status),
			Requirements: f(vd.Requirements), RequirementsNote: f(vd.RequirementsNote),
		}
		if vd.Attestation.Identity != nil {
			c.AttestedBy = f(vd.Attestation.Identity.String())
		}
		c.AttestReason = f(vd.Attestation.Reason)
		if !vd.Start.IsZero() {
			c.Start = vd.Start.UTC().Format("2006-01-02 15:04 UTC")
		}
		v.Columns = append(v.Columns, c)
	}
	suites, levels := map[string]bool{}, map[string]bool{}
	for _, sp := range sc.Specs {
		row := matrixRow{ID: f(sp.ID), Title: f(sp.Title), Suite: f(sp.Suite), Level: f(sp.Level),
			Sections: f(strings.Join(sp.Sections, ", ")), AllPass: true, Judges: f(sp.Judges.Text())}
		if explain != nil {
			row.Explain = capText(explain(sp.ID), htmlMaxExplain)
		}
		suites[row.Suite], levels[row.Level] = true, true
		for i, verdict := range sp.Verdicts {
			if i >= len(v.Columns) {
				break
			}
			col := v.Columns[i]
			cell := matrixCell{Verdict: verdict}
			if verdict == NotRun {
				cell.Class, cell.Label = verdictClass(""), verdictLabel("")
				cell.Tip = fmt.Sprintf("%s %s did not run %s", col.Name, col.Version, row.ID)
			} else {
				cell.Class, cell.Label = verdictClass(Verdict(verdict)), verdictLabel(Verdict(verdict))
				cell.Href = col.ReportHTML + "#" + sp.ID
				cell.Tip = fmt.Sprintf("%s %s · %s: %s", col.Name, col.Version, row.ID, verdict)
				if sp.Unchecked != nil && len(sp.Unchecked[i]) > 0 {
					cell.Label += " (partial)"
					cell.Tip += " · not checked: " + cutUTF8(strings.Join(sp.Unchecked[i], "; "), 400)
				}
				if sp.Findings != nil && len(sp.Findings[i]) > 0 {
					cell.Tip += " · found: " + cutUTF8(strings.Join(sp.Findings[i], "; "), 400)
				}
				if sp.By != nil && len(sp.By[i]) > 0 && sp.Judges != nil {
					cell.Tip += " · " + cutUTF8((&Judged{What: sp.Judges.What, Pieces: sp.Judges.Pieces, By: sp.By[i]}).Text(), 400)
				}
			}
			if verdict != string(Pass) {
				row.AllPass = false
			}
			row.Cells = append(row.Cells, cell)
		}
		v.Rows = append(v.Rows, row)
	}
	splitClients(&v, sc)
	v.Suites = slices.Sorted(maps.Keys(suites))
	if len(v.ClientColumns) > 0 {
		delete(suites, "client")
		v.Suites = slices.Sorted(maps.Keys(suites))
	}
	for _, l := range Levels {
		if levels[l] {
			v.Levels = append(v.Levels, l)
		}
	}
	var b bytes.Buffer
	if err := scorecardTemplate.Execute(&b, v); err != nil {
		return nil, fmt.Errorf("scorecard.html: %w", err)
	}
	return b.Bytes(), nil
}

// splitClients moves the client reports' columns and the client specs' rows
// into a matrix of their own. Without a client report it changes nothing.
func splitClients(v *scorecardView, sc *Scorecard) {
	isClient := make([]bool, len(sc.Vendors))
	any := false
	for i, vd := range sc.Vendors {
		isClient[i] = vd.Implementation.Role == "client"
		any = any || isClient[i]
	}
	if !any {
		return
	}
	pick := func(client bool) ([]columnView, []matrixRow) {
		var cols []columnView
		for i, c := range v.Columns {
			if isClient[i] == client {
				cols = append(cols, c)
			}
		}
		var rows []matrixRow
		for _, r := range v.Rows {
			if (r.Suite == "client") != client {
				continue
			}
			nr := r
			nr.Cells, nr.AllPass = nil, true
			for i, c := range r.Cells {
				if i < len(isClient) && isClient[i] == client {
					nr.Cells = append(nr.Cells, c)
					if c.Verdict != string(Pass) {
						nr.AllPass = false
					}
				}
			}
			rows = append(rows, nr)
		}
		return cols, rows
	}
	v.ClientColumns, v.ClientRows = pick(true)
	v.Columns, v.Rows = pick(false)
}
