package topology

import (
	"net"
	"testing"
)

// portHeld tells a port another program listens on from a free one.
func TestPortHeld(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if !portHeld(port) {
		t.Errorf("port %d is listened on, yet not held", port)
	}
	ln.Close()
	if portHeld(port) {
		t.Errorf("port %d was released, yet held", port)
	}
}
