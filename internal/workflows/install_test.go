package workflows

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
)

// TestReleaseNamesMatchInstallScript: the names the release gets
// (.goreleaser.yaml's templates) are the names scripts/install-release.sh,
// and so the action, asks for.
func TestReleaseNamesMatchInstallScript(t *testing.T) {
	m, _ := load(t, ".goreleaser.yaml")
	arch := m["archives"].([]any)[0].(map[string]any)
	cs, _ := m["checksum"].(map[string]any)
	render := func(tmpl, version, goos, goarch string) string {
		r := strings.NewReplacer("{{ .Version }}", version, "{{.Version}}", version,
			"{{ .Os }}", goos, "{{.Os}}", goos, "{{ .Arch }}", goarch, "{{.Arch}}", goarch,
			"{{ .ProjectName }}", "a2a-conform", "{{.ProjectName}}", "a2a-conform")
		out := r.Replace(tmpl)
		if strings.Contains(out, "{{") {
			t.Errorf(".goreleaser.yaml: template %q uses fields this test cannot render; keep the names plain", tmpl)
		}
		return out
	}
	for _, p := range []string{"linux/amd64", "linux/arm64", "darwin/amd64", "darwin/arm64"} {
		goos, goarch, _ := strings.Cut(p, "/")
		cmd := exec.Command("bash", filepath.Join(root, "scripts/install-release.sh"), "--names", "v1.2.3")
		cmd.Env = append(os.Environ(), "A2A_CONFORM_OS="+goos, "A2A_CONFORM_ARCH="+goarch)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("install-release.sh --names: %v", err)
		}
		names := strings.Fields(string(out))
		want := []string{render(fmt.Sprint(arch["name_template"]), "1.2.3", goos, goarch) + ".tar.gz", render(fmt.Sprint(cs["name_template"]), "1.2.3", goos, goarch)}
		if fmt.Sprint(names) != fmt.Sprint(want) {
			t.Errorf("%s: install-release.sh asks for %v, the release has %v", p, names, want)
		}
	}
}

// actionStep returns the composite action's step with the given id.
func actionStep(t *testing.T, id string) map[string]any {
	t.Helper()
	m, _ := load(t, "action.yml")
	runs, _ := m["runs"].(map[string]any)
	for _, s := range runs["steps"].([]any) {
		step, _ := s.(map[string]any)
		if step["id"] == id {
			return step
		}
	}
	t.Fatalf("action.yml: no step with id %q", id)
	return nil
}

// TestActionInstallPath: the release path comes first; Go is set up and the
// harness built only when it did not install a release binary.
func TestActionInstallPath(t *testing.T) {
	m, _ := load(t, "action.yml")
	inputs, _ := m["inputs"].(map[string]any)
	if in, _ := inputs["install"].(map[string]any); in == nil || in["default"] != "auto" {
		t.Error("action.yml: want an install input defaulting to auto")
	}
	outputs, _ := m["outputs"].(map[string]any)
	if o, _ := outputs["install"].(map[string]any); o == nil || !strings.Contains(fmt.Sprint(o["value"]), "steps.install.outputs.path") {
		t.Error("action.yml: want an install output telling which path ran")
	}
	runs, _ := m["runs"].(map[string]any)
	steps := runs["steps"].([]any)
	first, _ := steps[0].(map[string]any)
	if first["id"] != "install" || !strings.Contains(fmt.Sprint(first["run"]), "scripts/install-release.sh") {
		t.Errorf("action.yml: the first step must be the release install (id install, scripts/install-release.sh), got %v", first["name"])
	}
	for _, s := range steps {
		step, _ := s.(map[string]any)
		u, _ := step["uses"].(string)
		r, _ := step["run"].(string)
		if strings.HasPrefix(u, "actions/setup-go@") || strings.Contains(r, "go build") {
			if cond, _ := step["if"].(string); cond != "steps.install.outputs.path == 'source'" {
				t.Errorf("action.yml: step %q must run only on the source path, has if %q", step["name"], cond)
			}
		}
	}
}

// fakeRelease serves, on 127.0.0.1 only, what a GitHub release of tag
// holds: URL/<tag>/<archive> and URL/<tag>/<checksums>. The archive's
// a2a-conform is a shell script that prints the given version line.
type fakeRelease struct {
	srv      *httptest.Server
	requests atomic.Int64
	files    map[string][]byte
}

func newFakeRelease(t *testing.T) *fakeRelease {
	t.Helper()
	f := &fakeRelease{files: map[string][]byte{}}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.requests.Add(1)
		b, ok := f.files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	t.Cleanup(f.srv.Close)
	if !strings.HasPrefix(f.srv.URL, "http://127.0.0.1:") {
		t.Fatalf("test server at %s, want loopback", f.srv.URL)
	}
	return f
}

func tarGz(t *testing.T, name, content string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(content)), Typeflag: tar.TypeReg}); err != nil {
		t.Fatal(err)
	}
	tw.Write([]byte(content))
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

// publish puts a release of tag whose binary prints versionLine; sumFor
// returns the checksum line to list (nil: the real one).
func (f *fakeRelease) publish(t *testing.T, tag, versionLine string, sumFor func(real string) string) string {
	v := strings.TrimPrefix(tag, "v")
	archive := fmt.Sprintf("a2a-conform_%s_linux_amd64.tar.gz", v)
	body := tarGz(t, "a2a-conform", "#!/bin/sh\necho '"+versionLine+"'\n")
	sum := sha256.Sum256(body)
	real := hex.EncodeToString(sum[:])
	line := real + "  " + archive
	if sumFor != nil {
		line = sumFor(real)
	}
	other := strings.Repeat("ab", 32) + "  a2a-conform_" + v + "_darwin_arm64.tar.gz"
	f.files["/"+tag+"/"+archive] = body
	f.files["/"+tag+"/a2a-conform_"+v+"_checksums.txt"] = []byte(other + "\n" + line + "\n")
	return real
}

type stepRun struct {
	code                    int
	log, output, path, summ string
	bin                     string
}

// runActionStep runs a `run:` step of action.yml as GitHub's runner would
// (bash --noprofile --norc -eo pipefail), with its env: block filled in
// from exprs (the ${{ }} expressions, by the env name) and the runner's
// files in a temporary directory.
func runActionStep(t *testing.T, id string, exprs map[string]string, extraEnv ...string) stepRun {
	t.Helper()
	step := actionStep(t, id)
	script, _ := step["run"].(string)
	dir := t.TempDir()
	sf := filepath.Join(dir, "step.sh")
	if err := os.WriteFile(sf, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(root)
	files := map[string]string{"GITHUB_OUTPUT": "output", "GITHUB_PATH": "path", "GITHUB_STEP_SUMMARY": "summary"}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GITHUB_ACTION_PATH=" + abs, "RUNNER_TEMP=" + dir}
	for k, f := range files {
		p := filepath.Join(dir, f)
		os.WriteFile(p, nil, 0o644)
		env = append(env, k+"="+p)
	}
	stepEnv, _ := step["env"].(map[string]any)
	for k, v := range stepEnv {
		val := fmt.Sprint(v)
		if strings.Contains(val, "${{") {
			val = exprs[k]
		}
		env = append(env, k+"="+val)
	}
	env = append(env, extraEnv...)
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", sf)
	cmd.Env = env
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	r := stepRun{log: string(out), bin: filepath.Join(dir, "a2a-conform-bin", "a2a-conform")}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	read := func(f string) string { b, _ := os.ReadFile(filepath.Join(dir, f)); return string(b) }
	r.output, r.path, r.summ = read("output"), read("path"), read("summary")
	return r
}

// TestActionDownloadsAndVerifiesRelease runs the action's install step (and
// through it scripts/install-release.sh) against a fake release served on
// 127.0.0.1: a good checksum installs and runs the binary; a wrong one, a
// missing line or a binary of another version is refused and nothing is
// installed; no release, a branch or a SHA falls back to the source build,
// without a request for the latter two.
func TestActionDownloadsAndVerifiesRelease(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "tar", "awk"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("SKIPPING: no %s on PATH (GitHub's runners have it)", tool)
		}
	}
	f := newFakeRelease(t)
	good := f.publish(t, "v9.9.9", "a2a-conform 9.9.9 (A2A protocol 1.0)", nil)
	f.publish(t, "v9.9.8", "a2a-conform 9.9.8 (A2A protocol 1.0)", func(real string) string {
		return strings.Repeat("0", 64) + "  a2a-conform_9.9.8_linux_amd64.tar.gz" // tampered or corrupt
	})
	f.publish(t, "v9.9.7", "a2a-conform 9.9.7 (A2A protocol 1.0)", func(real string) string {
		return real + "  a2a-conform_9.9.7_linux_arm64.tar.gz" // not this archive's line
	})
	f.publish(t, "v9.9.6", "a2a-conform 1.0.0 (A2A protocol 1.0)", nil) // the wrong binary, properly summed
	env := []string{"A2A_CONFORM_RELEASE_URL=" + f.srv.URL, "A2A_CONFORM_OS=linux", "A2A_CONFORM_ARCH=amd64"}

	for _, c := range []struct {
		name, ref, install string
		code               int
		path               string // "release", "source" or "" (refused)
		want               string // in the log
		noRequest          bool
	}{
		{"good checksum", "v9.9.9", "auto", 0, "release", "sha256 " + good, false},
		{"version without v", "9.9.9", "auto", 0, "release", "sha256 " + good, false},
		{"bad checksum refused", "v9.9.8", "auto", 1, "", "REFUSED: a2a-conform_9.9.8_linux_amd64.tar.gz has sha256", false},
		{"not listed refused", "v9.9.7", "auto", 1, "", "does not list a2a-conform_9.9.7_linux_amd64.tar.gz", false},
		{"other version refused", "v9.9.6", "auto", 1, "", "not version 9.9.6", false},
		{"no such release: source", "v9.9.5", "auto", 0, "source", "HTTP 404", false},
		{"no such release, install release", "v9.9.5", "release", 1, "", "install: release, but", false},
		{"branch: source", "main", "auto", 0, "source", "not a release tag", true},
		{"sha: source", "3d3c42e5aac5ba805825da76410c181273ba90b1", "auto", 0, "source", "not a release tag", true},
		{"install source", "v9.9.9", "source", 0, "source", "install: source", true},
		{"bad install input", "v9.9.9", "sometimes", 2, "", "install must be auto, release or source", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := f.requests.Load()
			r := runActionStep(t, "install", map[string]string{"HARNESS_REF": c.ref, "IN_INSTALL": c.install}, env...)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d\n%s", r.code, c.code, r.log)
			}
			if !strings.Contains(r.log, c.want) {
				t.Errorf("log lacks %q:\n%s", c.want, r.log)
			}
			if n := f.requests.Load() - before; c.noRequest && n != 0 {
				t.Errorf("%d requests for a ref that is no release", n)
			}
			gotPath := ""
			if m := regexp.MustCompile(`(?m)^path=(\w+)$`).FindStringSubmatch(r.output); m != nil {
				gotPath = m[1]
			}
			if gotPath != c.path {
				t.Errorf("path output %q, want %q\n%s", gotPath, c.path, r.log)
			}
			_, statErr := os.Stat(r.bin)
			switch c.path {
			case "release":
				out, err := exec.Command(r.bin, "version").Output()
				if err != nil || !strings.HasPrefix(string(out), "a2a-conform 9.9.9 ") {
					t.Errorf("installed binary: %q, %v", out, err)
				}
				if !strings.Contains(r.path, "a2a-conform-bin") {
					t.Errorf("GITHUB_PATH %q lacks the binary's directory", r.path)
				}
				if !strings.Contains(r.output, "sha256="+good) || !strings.Contains(r.summ, "sha256 verified") {
					t.Errorf("outputs %q / summary %q should name the verified sha256", r.output, r.summ)
				}
			default:
				if statErr == nil {
					t.Errorf("a binary was installed on the %q path", c.path)
				}
				if r.path != "" {
					t.Errorf("GITHUB_PATH changed: %q", r.path)
				}
			}
		})
	}
}

// TestActionRunStepRecordsExitCode: GitHub runs the step with bash -e; a
// failing run must still reach the gate as exit-code=1, not end the step
// with no exit code (which the gate reports as "did not finish").
func TestActionRunStepRecordsExitCode(t *testing.T) {
	bin := t.TempDir()
	fake := "#!/bin/sh\necho \"fake run: $*\"\nexit ${FAKE_EXIT:-0}\n"
	if err := os.WriteFile(filepath.Join(bin, "a2a-conform"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{"0", "1", "3"} {
		r := runActionStep(t, "run", map[string]string{"IN_OUT": "out", "IN_TARGET": "http://127.0.0.1:1", "IN_ARGS": "--seed\n7\n"},
			"PATH="+bin+":"+os.Getenv("PATH"), "FAKE_EXIT="+code)
		if r.code != 0 {
			t.Errorf("FAKE_EXIT=%s: the run step itself failed (exit %d): the gate step decides\n%s", code, r.code, r.log)
		}
		if !strings.Contains(r.output, "exit-code="+code+"\n") {
			t.Errorf("FAKE_EXIT=%s: outputs %q lack exit-code=%s", code, r.output, code)
		}
		if !strings.Contains(r.log, "fake run: run --out out --target http://127.0.0.1:1 --seed 7") {
			t.Errorf("arguments not passed as given:\n%s", r.log)
		}
	}
}
