package testkit

import (
	"fmt"
	"hash/fnv"
	"os"
	"strconv"
	"strings"
	"testing"
)

// ProofsEnv switches on the proof tests: every agent fault caught by every
// spec it names, every client fault likewise, every client variant clean,
// and the scenario faults caught again in their other shapes (on a slow
// agent, under the process driver, in every order) with the correct agents
// beside them passing.
// They are full harness runs by the hundred, the bulk of the test suite's
// time, so `go test ./...` (the contributor's quick answer) leaves them
// out and .ci/run runs them as a step of their own:
//
//	A2A_CONFORM_PROOFS=1 go test -run '^TestProof' ./internal/runner/... ./internal/cli
//
// A2A_CONFORM_PROOFS=i/n runs shard i of n (from 1): each proof test takes
// every n-th of its faults or variants, so n machines (a CI matrix) share
// the work and together run every proof once.
const ProofsEnv = "A2A_CONFORM_PROOFS"

// ProofPackages are the packages the proof step runs ("..." included):
// a TestProof… test anywhere else runs nowhere (internal/workflows checks).
const ProofPackages = "./internal/runner/... ./internal/cli"

// ProofCommand is how to run the proofs, for skip messages and docs.
const ProofCommand = ProofsEnv + "=1 go test -run '^TestProof' " + ProofPackages

// Shard is the part of the proofs a run takes: I of N, I from 1.
type Shard struct{ I, N int }

// Takes reports whether the k-th (from 0) of a proof test's faults or
// variants, in their registry's order, is this shard's.
func (s Shard) Takes(k int) bool { return k%s.N == s.I-1 }

// String is "i/n".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.I, s.N) }

// Proofs skips t unless ProofsEnv asks for the proofs, and returns the
// shard to run. A value it cannot read fails the test: a CI step that
// meant to run a shard must not pass by running nothing.
func Proofs(t testing.TB) Shard {
	t.Helper()
	v := os.Getenv(ProofsEnv)
	if v == "" {
		t.Skipf("a proof test: it runs with %s (.ci/run does)", ProofCommand)
	}
	s, err := ParseShard(v)
	if err != nil {
		t.Fatalf("%s=%q: %v", ProofsEnv, v, err)
	}
	return s
}

// ParseShard reads "1" (every proof) or "i/n".
func ParseShard(v string) (Shard, error) {
	if v == "1" {
		return Shard{1, 1}, nil
	}
	a, b, ok := strings.Cut(v, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("want 1 (every proof) or i/n with 1 <= i <= n")
	}
	return Shard{i, n}, nil
}

// WholeProof is Proofs for a proof test that runs whole in one shard: it
// skips t unless the proofs are asked for and t's name falls to this shard
// (by a hash of the name, so that the split needs no list to keep).
func WholeProof(t testing.TB) {
	t.Helper()
	s := Proofs(t)
	if !s.TakesName(t.Name()) {
		t.Skipf("a proof test of another shard than %s", s)
	}
}

// TakesName reports whether the proof test named name is this shard's.
func (s Shard) TakesName(name string) bool {
	h := fnv.New32a()
	_, _ = h.Write([]byte(name))
	return s.Takes(int(h.Sum32() % uint32(s.N)))
}
