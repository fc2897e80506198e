package clientdriver_test

import (
	"os"
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/testkit"
)

// The cases drive the reference client driver against scripted agents and
// wait on their pauses (a push refused, a card revalidated), using well
// under a second of CPU in all: eight at a time, not go test's one per core.
func TestMain(m *testing.M) {
	testkit.DefaultParallel(8)
	os.Exit(m.Run())
}
