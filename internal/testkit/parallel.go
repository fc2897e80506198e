package testkit

import (
	"flag"
	"os"
	"strconv"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/loopback"
)

// DefaultParallel sets how many of the package's tests run at once (the
// test binary's -test.parallel) to n, unless the command line gave
// -parallel. Call it from TestMain: the packages whose tests wait on child
// runs and agents, not on the CPU, run more at a time than go test's
// default of GOMAXPROCS.
func DefaultParallel(n int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(n))
	}
}

// DefaultParallelProofs is DefaultParallel(tests), or DefaultParallel(proofs)
// when ProofsEnv asks for the proofs: a package whose proofs wait more and
// burn less CPU than its tests runs more of them at a time.
func DefaultParallelProofs(tests, proofs int) {
	if os.Getenv(ProofsEnv) != "" {
		DefaultParallel(proofs)
		return
	}
	DefaultParallel(tests)
}

// FreeAddr is loopback.FreeAddr for a test: a 127.0.0.1 address below the
// ephemeral range, for a server or driver the test starts later, or for a
// target the test wants dead. A port-0 pick closed again can go to another
// test's server at once (a hooks run once restarted its agent onto a port
// another test's server had taken, and got 404s); a port below that range
// goes only to a program that names it.
func FreeAddr(t testing.TB) string {
	t.Helper()
	addr, err := loopback.FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

// Limit runs a package's short tests a few at a time while its long ones
// start at once. Go sets no order for resuming paused parallel tests, so a
// long test can start last and become the package's tail; under a Limit
// the package's -test.parallel is at least its number of tests (every test
// starts), the long tests run unlimited and each short one waits in Enter
// for one of the Limit's places.
type Limit chan struct{}

// NewLimit makes a Limit of n places.
func NewLimit(n int) Limit { return make(Limit, max(n, 1)) }

// Enter waits for a place for t, given back when t ends.
func (l Limit) Enter(t testing.TB) {
	t.Helper()
	l <- struct{}{}
	t.Cleanup(func() { <-l })
}
