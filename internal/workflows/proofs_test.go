package workflows

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/testkit"
)

// proofDir reports whether the proof step (testkit.ProofPackages, run by
// .ci/run and the ci workflow's proofs job) runs the tests of dir: a
// TestProof… test anywhere else would never run, since go test ./... skips
// it.
func proofDir(dir string) bool {
	for _, p := range strings.Fields(testkit.ProofPackages) {
		p = strings.TrimPrefix(p, "./")
		if base, ok := strings.CutSuffix(p, "/..."); ok {
			if dir == base || strings.HasPrefix(dir, base+"/") {
				return true
			}
		} else if dir == p {
			return true
		}
	}
	return false
}

var proofFunc = regexp.MustCompile(`(?m)^func (TestProof\w*)\(`)

// Every proof test is where the proof step looks, and both CI entry points
// run the proof step over those packages.
func TestCIRunsEveryProofTest(t *testing.T) {
	found := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		for _, m := range proofFunc.FindAllStringSubmatch(string(b), -1) {
			found++
			if !proofDir(filepath.ToSlash(rel)) {
				t.Errorf("%s: %s is in %s, where the proof step does not look (%s)", path, m[1], rel, testkit.ProofPackages)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Fatal("no TestProof… test found: the proof step would run nothing")
	}
	for _, f := range []string{".ci/run", ".github/workflows/ci.yml"} {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if !strings.Contains(s, "-run '^TestProof' "+testkit.ProofPackages) || !strings.Contains(s, testkit.ProofsEnv) {
			t.Errorf("%s does not run the proof step over %s", f, testkit.ProofPackages)
		}
	}
}
