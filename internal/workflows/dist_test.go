package workflows

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
)

// TestInstallReleaseFromGoReleaserDist runs scripts/install-release.sh
// against what GoReleaser really wrote, served on 127.0.0.1, where the other
// install tests serve archives they make themselves. It needs a dist/ from
// `goreleaser release --snapshot --clean` (docs/release.md), named by
// A2A_CONFORM_DIST, and is skipped without one: CI has no GoReleaser. The
// archive for this machine installs, its sha256 is the one checksums.txt
// lists and its binary reports the dist's version; with one digit of that
// line changed, the script refuses it and installs nothing.
func TestInstallReleaseFromGoReleaserDist(t *testing.T) {
	dist := os.Getenv("A2A_CONFORM_DIST")
	if dist == "" {
		t.Skip("SKIPPING: set A2A_CONFORM_DIST to a GoReleaser dist/ (docs/release.md)")
	}
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		t.Skipf("SKIPPING: install-release.sh installs on linux and darwin, not %s", runtime.GOOS)
	}
	raw, err := os.ReadFile(filepath.Join(dist, "metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	var meta struct{ Version string }
	if err := json.Unmarshal(raw, &meta); err != nil || meta.Version == "" {
		t.Fatalf("metadata.json: %v (version %q)", err, meta.Version)
	}
	tag := "v" + meta.Version
	sumsName := "a2a-conform_" + meta.Version + "_checksums.txt"
	sums, err := os.ReadFile(filepath.Join(dist, sumsName))
	if err != nil {
		t.Fatal(err)
	}
	archive := "a2a-conform_" + meta.Version + "_" + runtime.GOOS + "_" + runtime.GOARCH + ".tar.gz"
	var want string
	for _, line := range strings.Split(string(sums), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[1] == archive {
			want = f[0]
		}
	}
	if len(want) != 64 {
		t.Fatalf("%s does not list %s", sumsName, archive)
	}
	if _, err := os.Stat(filepath.Join(dist, archive+".sbom.json")); err != nil {
		t.Errorf("no SBOM beside the archive: %v", err)
	}

	var tampered atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dir, name := path.Split(r.URL.Path)
		if dir != "/"+tag+"/" || strings.Contains(name, "..") {
			http.NotFound(w, r)
			return
		}
		b, err := os.ReadFile(filepath.Join(dist, name))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		if tampered.Load() && name == sumsName {
			flip := "0"
			if want[0] == '0' {
				flip = "1"
			}
			b = []byte(strings.Replace(string(b), want, flip+want[1:], 1))
		}
		w.Write(b)
	}))
	defer srv.Close()
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("test server at %s, want loopback", srv.URL)
	}
	install := func(dest string) (string, error) {
		cmd := exec.Command("bash", filepath.Join(root, "scripts/install-release.sh"), tag, dest)
		cmd.Env = append(os.Environ(), "A2A_CONFORM_RELEASE_URL="+srv.URL)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}

	dest := t.TempDir()
	out, err := install(dest)
	if err != nil {
		t.Fatalf("install-release.sh %s: %v\n%s", tag, err, out)
	}
	if !strings.Contains(out, "sha256="+want) {
		t.Errorf("the script did not verify the listed sha256 %s:\n%s", want, out)
	}
	v, err := exec.Command(filepath.Join(dest, "a2a-conform"), "version").Output()
	if err != nil || !strings.HasPrefix(string(v), "a2a-conform "+meta.Version+" ") {
		t.Errorf("installed binary says %q (%v), want version %s", v, err, meta.Version)
	}

	tampered.Store(true)
	dest = t.TempDir()
	out, err = install(dest)
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(out, "REFUSED: "+archive+" has sha256") {
		t.Errorf("a checksums file that does not match: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dest, "a2a-conform")); err == nil {
		t.Error("a refused archive was installed")
	}
}
