// Package testkit holds what the packages' tests share and the product
// does not use.
package testkit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// BuildRefDriver builds the reference client driver alone
// (internal/clientdriver/cmd/refdriver) into dir and returns its path. The
// tests that run the client suite many times use it instead of their own
// binary as `client-driver`: a driver process starts for every case, and
// this one, which links neither the scripted agent nor the report writers,
// starts on about a third of the CPU. It needs the go command that runs the
// tests (on PATH, or GOROOT's).
func BuildRefDriver(dir string) (string, error) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		goCmd = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	out := filepath.Join(dir, "refdriver")
	if runtime.GOOS == "windows" {
		out += ".exe"
	}
	cmd := exec.Command(goCmd, "build", "-o", out, "github.com/a2a-conform/a2a-conform/internal/clientdriver/cmd/refdriver")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the reference client driver: %v\n%s", err, strings.TrimSpace(string(b)))
	}
	return out, nil
}
