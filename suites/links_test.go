package suites_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/a2a-conform/a2a-conform/suites"
)

// unfollowable matches references a vendor cannot follow: the project's
// private protocol notes and field reports live outside the repository.
var unfollowable = regexp.MustCompile(`a2a-v1(\.md)?\b|shared/scenarios|\.\./shared|/work/shared|shared/tck-`)

// TestNoUnfollowableLinksInRegistry: every text the registry gives a person
// (list, explain, the report, the scorecard) cites the public specification
// and docs/, never a file a vendor does not have.
func TestNoUnfollowableLinksInRegistry(t *testing.T) {
	for _, i := range suites.All() {
		for field, s := range map[string]string{"Title": i.Title, "Why": i.Why, "Enable": i.Enable} {
			if m := unfollowable.FindString(s); m != "" {
				t.Errorf("%s %s cites %q", i.ID, field, m)
			}
		}
	}
	for n := range suites.ScenarioNames {
		if ref := suites.ScenarioRef(n); !strings.Contains(ref, "docs/scenarios.md") {
			t.Errorf("scenario %s renders as %q, without its page", n, ref)
		}
	}
}

// TestNoUnfollowableLinksInStrings scans every string literal of the
// non-test Go code a vendor's run can print (verdict reasons, expected and
// actual texts, observations, help) for the same references.
func TestNoUnfollowableLinksInStrings(t *testing.T) {
	root := filepath.Join("..")
	for _, dir := range []string{"suites", "internal", "reports", "fakes", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, 0)
			if err != nil {
				return err
			}
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if m := unfollowable.FindString(lit.Value); m != "" {
						t.Errorf("%s: string cites %q: %s", fset.Position(lit.Pos()), m, lit.Value)
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// TestNoUnfollowableLinksInDocs: the README, the changelog and every page
// under docs/ (and the reference agent's README) cite only what a vendor has.
func TestNoUnfollowableLinksInDocs(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	files = append(files, filepath.Join("..", "README.md"), filepath.Join("..", "CHANGELOG.md"), filepath.Join("..", "fakes", "README.md"))
	if len(files) < 3 {
		t.Fatalf("found only %v", files)
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for n, line := range strings.Split(string(b), "\n") {
			if m := unfollowable.FindString(line); m != "" {
				t.Errorf("%s:%d cites %q", p, n+1, m)
			}
		}
	}
	if _, err := os.Stat(filepath.Join("..", "docs", "scenarios.md")); err != nil {
		t.Errorf("docs/scenarios.md, which explain and the docs link to: %v", err)
	}
}
