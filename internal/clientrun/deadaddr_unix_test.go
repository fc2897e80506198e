//go:build unix

package clientrun

import (
	"errors"
	"net"
	"syscall"
	"testing"
)

// TestDeadAddrRefusesAndStaysReserved: the refusing interface's address
// refuses connections, and no listener can take its port while the stage
// holds it (a port merely closed again was taken by another test's server
// on a busy CI machine, and CLI-007's clean client then warned). Once
// released, the port is free again.
func TestDeadAddrRefusesAndStaysReserved(t *testing.T) {
	addr, hold, err := deadAddr()
	if err != nil {
		t.Fatal(err)
	}
	if c, err := net.Dial("tcp", addr); err == nil {
		c.Close()
		t.Fatalf("a connection to %s was accepted", addr)
	} else if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("dial %s: %v, want ECONNREFUSED", addr, err)
	}
	if l, err := net.Listen("tcp", addr); err == nil {
		l.Close()
		t.Fatalf("another listener took %s while it was held", addr)
	}
	if err := hold.Close(); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("%s still taken after it was released: %v", addr, err)
	}
	l.Close()
}
