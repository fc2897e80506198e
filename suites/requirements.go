package suites

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/a2a-conform/a2a-conform/reports"
)

// A requirement set is the frozen list of specs, with their levels, that a
// score is against: a badge earned against one set keeps its meaning when
// later harness releases add specs or re-read a level, because a report
// names its set (report.json run.requirements) and a scorecard scores it
// against that set, never silently against a newer one.
//
// A set is named by the A2A protocol version whose text the specs rest on
// and the harness's revision of its spec list: "a2a-1.0.1-r4". Each is a
// file of suites/requirements in the form of specs.golden. The newest is
// the registry as it is (TestTheNewestRequirementSetIsTheRegistry); the
// others never change (TestRequirementSetsAreFrozen).

//go:embed requirements/*.txt
var requirementFiles embed.FS

// CurrentRequirements names the set this harness's registry is.
const CurrentRequirements = "a2a-1.0.1-r4"

// frozenRequirements are the sha256 of each set's file: a set, once
// released, is never edited; a change to the registry is a new revision.
var frozenRequirements = map[string]string{
	// r1: the spec list before the levels were re-read word for word.
	"a2a-1.0.1-r1": "b3a8fb66272580f028e1b3b1334cda584dba5bfec615ecd6ff0feb939b93f412",
	// r2: CLI-005, CLI-006 SHOULD → MUST (§8.3.2); LIFE-012, PUSH-004,
	// PUSH-006, PUSH-008 MUST → INVARIANT (no single MUST sentence).
	"a2a-1.0.1-r2": "c4e1235a2999a8a05d8cc4c524ad803f4b64dd6dfc9b31b93b9d3b5831b672a9",
	// r3: new specs, no level changed: CLI-008, CLI-009, CLI-010, CLI-011, ROLL-010, ROLL-011.
	"a2a-1.0.1-r3": "377dd9b118372810e7e7ad74c3f6c2780eed37aac144fbd96ec39554cf54afcf",
	// r4: new specs, no level changed: CLI-012, CLI-013.
	"a2a-1.0.1-r4": "3798bc987480b658c843e4688a7436fc51d33fe4884b77e3775e1d6d3785a21c",
}

// RequirementSet is one frozen set.
type RequirementSet struct {
	Name     string
	Protocol string // "1.0.1"
	Revision int
	Specs    []reports.DeclaredSpec
}

// RequirementSets returns every set this harness knows, by name.
func RequirementSets() map[string]RequirementSet {
	out := map[string]RequirementSet{}
	entries, err := requirementFiles.ReadDir("requirements")
	if err != nil {
		panic("suites: the requirement sets cannot be read: " + err.Error())
	}
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".txt")
		b, err := requirementFiles.ReadFile("requirements/" + e.Name())
		if err != nil {
			panic(err)
		}
		set, err := parseRequirementSet(name, string(b))
		if err != nil {
			panic("suites: " + err.Error())
		}
		out[name] = set
	}
	return out
}

func parseRequirementSet(name, text string) (RequirementSet, error) {
	set := RequirementSet{Name: name}
	rest, ok := strings.CutPrefix(name, "a2a-")
	i := strings.LastIndex(rest, "-r")
	if !ok || i < 0 {
		return set, fmt.Errorf("requirement set %q is not named a2a-VERSION-rN", name)
	}
	set.Protocol = rest[:i]
	n, err := strconv.Atoi(rest[i+2:])
	if err != nil {
		return set, fmt.Errorf("requirement set %q: revision: %v", name, err)
	}
	set.Revision = n
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		f := strings.SplitN(line, " ", 4)
		if len(f) != 4 {
			return set, fmt.Errorf("requirement set %s: line %q is not ID LEVEL suite title", name, line)
		}
		set.Specs = append(set.Specs, reports.DeclaredSpec{ID: f[0], Level: f[1], Suite: f[2], Title: f[3]})
	}
	sort.Slice(set.Specs, func(a, b int) bool { return set.Specs[a].ID < set.Specs[b].ID })
	return set, nil
}

// requirementDigest is the sha256 of a set's file.
func requirementDigest(name string) (string, error) {
	b, err := requirementFiles.ReadFile("requirements/" + name + ".txt")
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}
