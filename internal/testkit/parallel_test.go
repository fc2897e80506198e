package testkit

import (
	"testing"
	"time"
)

// cleanupTB keeps the cleanups Enter registers, to run them when the test
// says.
type cleanupTB struct {
	testing.TB
	fns []func()
}

func (c *cleanupTB) Cleanup(f func()) { c.fns = append(c.fns, f) }
func (c *cleanupTB) end() {
	for _, f := range c.fns {
		f()
	}
}

// A Limit of two lets a third test in only when one of the two ends.
func TestLimitHoldsItsPlaces(t *testing.T) {
	l := NewLimit(2)
	a, b := &cleanupTB{TB: t}, &cleanupTB{TB: t}
	l.Enter(a)
	l.Enter(b)
	third := make(chan struct{})
	c := &cleanupTB{TB: t}
	go func() { l.Enter(c); close(third) }()
	select {
	case <-third:
		t.Fatal("a third test entered a Limit of two")
	case <-time.After(100 * time.Millisecond):
	}
	a.end()
	<-third
	b.end()
	c.end()
	if len(l) != 0 {
		t.Errorf("%d places still taken after every test ended", len(l))
	}
}
