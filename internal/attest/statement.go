// Package attest makes a report's signed statement and checks it: an in-toto
// Statement whose subject is report.json, named by the report's own digest
// (reports.DigestOf), with the test-result predicate
// (https://in-toto.io/attestation/test-result/v0.1); and, given a Sigstore
// bundle that signs such a Statement and a trusted root, an offline check
// that the bundle is valid, that its subject is this very report, and who
// signed it (the Fulcio certificate's repository, workflow and commit).
//
// The digest alone proves only that a report is self-consistent: anyone who
// edits a verdict can recompute it. A bundle binds that digest to a signer's
// identity, so an edited report no longer matches what was signed.
//
// Nothing here reaches the network: the trusted root is a file the caller
// gives (for GitHub's artifact attestations, `gh attestation trusted-root`).
package attest

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	trpb "github.com/in-toto/attestation/go/predicates/test_result/v0"
	intoto "github.com/in-toto/attestation/go/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/a2a-conform/a2a-conform/reports"
)

const (
	// PredicateType is the in-toto test-result predicate's type.
	PredicateType = "https://in-toto.io/attestation/test-result/v0.1"
	// PayloadType is the DSSE payload type of an in-toto Statement.
	PayloadType = "application/vnd.in-toto+json"
	// SubjectName is the Statement's subject name: the file a report is
	// published as.
	SubjectName = "report.json"

	// The test-result predicate's results.
	Passed = "PASSED"
	Warned = "WARNED"
	Failed = "FAILED"
)

// Predicate maps a report to the test-result predicate:
//
//   - passedTests, warnedTests and failedTests list the spec IDs whose verdict
//     is pass, warn and fail. could-not-run, indeterminate and not-applicable
//     are in none of the three (none is a pass, none is a fail); the
//     configuration's annotations count them.
//   - result is FAILED when any spec failed or the target was unreachable;
//     else WARNED when any result is anything but pass or not-applicable, or
//     the run is partial (interrupted, filtered, fewer specs than its harness
//     declares: reports.PartialReasons); else PASSED. So PASSED always means
//     a complete run in which every applicable spec passed.
//   - configuration is one descriptor: report.json, its digest, and the run's
//     settings (harness, spec revision, protocol version, seed, selection,
//     card digest) as annotations.
//   - url is where the run can be seen (a CI run's page), when given.
func Predicate(r *reports.Report, url string) (*trpb.TestResult, error) {
	hexDigest, err := digestHex(r)
	if err != nil {
		return nil, err
	}
	p := &trpb.TestResult{Url: url}
	other := map[reports.Verdict]int{}
	for _, res := range r.Results {
		switch res.Verdict {
		case reports.Pass:
			p.PassedTests = append(p.PassedTests, res.ID)
		case reports.Warn:
			p.WarnedTests = append(p.WarnedTests, res.ID)
		case reports.Fail:
			p.FailedTests = append(p.FailedTests, res.ID)
		default:
			other[res.Verdict]++
		}
	}
	partial := reports.PartialReasons(r, nil)
	switch {
	case len(p.FailedTests) > 0 || r.Run.Unreachable:
		p.Result = Failed
	case len(p.WarnedTests) > 0 || other[reports.CouldNotRun] > 0 || other[reports.Indeterminate] > 0 ||
		len(partial) > 0 || len(p.PassedTests) == 0 || unknownVerdicts(other):
		p.Result = Warned
	default:
		p.Result = Passed
	}

	ann := map[string]any{
		"harness":         r.Harness.Name,
		"harnessVersion":  r.Harness.Version,
		"protocolVersion": r.ProtocolVersion,
		"implementation":  r.Implementation.Name,
		"topology":        r.Run.Topology,
		"seed":            fmt.Sprint(r.Run.Seed),
		"start":           r.Run.Start.UTC().Format("2006-01-02T15:04:05Z"),
		"results":         float64(len(r.Results)),
		"couldNotRun":     float64(other[reports.CouldNotRun]),
		"indeterminate":   float64(other[reports.Indeterminate]),
		"notApplicable":   float64(other[reports.NotApplicable]),
	}
	if r.Implementation.Version != "" {
		ann["implementationVersion"] = r.Implementation.Version
	}
	if len(r.Run.Suites) > 0 {
		ann["suites"] = strings.Join(r.Run.Suites, ",")
	}
	if len(r.Run.Focus) > 0 {
		ann["focus"] = strings.Join(r.Run.Focus, ",")
	}
	if r.Run.LabelFilter != "" {
		ann["labelFilter"] = r.Run.LabelFilter
	}
	if r.Run.SpecRevision != "" {
		ann["specRevision"] = r.Run.SpecRevision
	}
	if r.Run.CardDigest != "" {
		ann["cardDigest"] = r.Run.CardDigest
	}
	if r.Run.Interrupted != "" {
		ann["interrupted"] = r.Run.Interrupted
	}
	if r.Run.Unreachable {
		ann["unreachable"] = true
	}
	if len(partial) > 0 {
		ann["partial"] = strings.Join(partial, "; ")
	}
	annotations, err := structpb.NewStruct(ann)
	if err != nil {
		return nil, fmt.Errorf("predicate annotations: %w", err)
	}
	p.Configuration = []*intoto.ResourceDescriptor{{
		Name:        SubjectName,
		Digest:      map[string]string{"sha256": hexDigest},
		MediaType:   "application/json",
		Annotations: annotations,
	}}
	return p, nil
}

func unknownVerdicts(other map[reports.Verdict]int) bool {
	for v, n := range other {
		if n > 0 && v != reports.NotApplicable && v != reports.CouldNotRun && v != reports.Indeterminate {
			return true
		}
	}
	return false
}

// Statement builds the in-toto Statement for a report: subject report.json
// with the report's digest (sha256, hex), predicate Predicate(r, url). The
// report should have been verified (reports.VerifyFile): its digest is taken
// as recorded.
func Statement(r *reports.Report, url string) (*intoto.Statement, error) {
	hexDigest, err := digestHex(r)
	if err != nil {
		return nil, err
	}
	pred, err := Predicate(r, url)
	if err != nil {
		return nil, err
	}
	ps, err := predicateStruct(pred)
	if err != nil {
		return nil, err
	}
	st := &intoto.Statement{
		Type:          intoto.StatementTypeUri,
		Subject:       []*intoto.ResourceDescriptor{{Name: SubjectName, Digest: map[string]string{"sha256": hexDigest}}},
		PredicateType: PredicateType,
		Predicate:     ps,
	}
	if err := st.Validate(); err != nil {
		return nil, fmt.Errorf("statement: %w", err)
	}
	return st, nil
}

// MarshalStatement encodes a Statement as the JSON a DSSE envelope carries,
// indented.
func MarshalStatement(st *intoto.Statement) ([]byte, error) { return marshalStable(st) }

// MarshalPredicate encodes the predicate alone (what actions/attest's
// predicate-path wants), indented.
func MarshalPredicate(p *trpb.TestResult) ([]byte, error) { return marshalStable(p) }

// marshalStable is protojson's encoding with fixed whitespace: protojson
// varies its spacing from build to build on purpose, and a statement's bytes
// should not.
func marshalStable(m proto.Message) ([]byte, error) {
	b, err := protojson.Marshal(m)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

func predicateStruct(p *trpb.TestResult) (*structpb.Struct, error) {
	b, err := protojson.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("predicate: %w", err)
	}
	s := &structpb.Struct{}
	if err := protojson.Unmarshal(b, s); err != nil {
		return nil, fmt.Errorf("predicate: %w", err)
	}
	return s, nil
}

// parsePredicate reads a signed Statement's predicate as a test result,
// refusing fields the predicate type does not define.
func parsePredicate(s *structpb.Struct) (*trpb.TestResult, error) {
	if s == nil {
		return nil, errors.New("the statement has no predicate")
	}
	b, err := protojson.Marshal(s)
	if err != nil {
		return nil, err
	}
	p := &trpb.TestResult{}
	if err := protojson.Unmarshal(b, p); err != nil {
		return nil, fmt.Errorf("the predicate is not a test result: %w", err)
	}
	return p, nil
}

// samePredicate says how a signed predicate differs from the one the report
// gives now (result and the three lists; url and configuration are the
// signer's to choose), or "" when it does not.
func samePredicate(signed, want *trpb.TestResult) string {
	var d []string
	if signed.GetResult() != want.GetResult() {
		d = append(d, fmt.Sprintf("result %q, the report gives %q", signed.GetResult(), want.GetResult()))
	}
	lists := []struct {
		name      string
		got, want []string
	}{
		{"passedTests", signed.GetPassedTests(), want.GetPassedTests()},
		{"warnedTests", signed.GetWarnedTests(), want.GetWarnedTests()},
		{"failedTests", signed.GetFailedTests(), want.GetFailedTests()},
	}
	for _, l := range lists {
		g, w := slices.Clone(l.got), slices.Clone(l.want)
		slices.Sort(g)
		slices.Sort(w)
		if !slices.Equal(g, w) {
			d = append(d, l.name+" differ")
		}
	}
	return strings.Join(d, "; ")
}

func digestHex(r *reports.Report) (string, error) {
	if r == nil {
		return "", errors.New("no report")
	}
	h, ok := strings.CutPrefix(r.Digest, reports.DigestPrefix)
	if !ok || len(h) != 64 {
		return "", fmt.Errorf("report digest %q is not sha256:<64 hex digits>", r.Digest)
	}
	if _, err := hex.DecodeString(h); err != nil || strings.ToLower(h) != h {
		return "", fmt.Errorf("report digest %q is not sha256:<64 lowercase hex digits>", r.Digest)
	}
	return h, nil
}
