package loopback

import (
	"net"
	"os"
	"strconv"
	"testing"
)

// The ports are distinct, free when handed out, and on Linux below the
// ephemeral range, where neither an outgoing connection nor a listener on
// port 0 can take one before the agent binds it.
func TestFreePortsAreBelowTheEphemeralRange(t *testing.T) {
	ports, err := FreePorts(5)
	if err != nil {
		t.Fatal(err)
	}
	lo, known := ephemeralLow()
	seen := map[int]bool{}
	for _, p := range ports {
		if seen[p] {
			t.Errorf("port %d handed out twice in %v", p, ports)
		}
		seen[p] = true
		if Held(p) {
			t.Errorf("port %d is held after FreePorts released it", p)
		}
		if known && lo >= 2048 && (p < lo/2 || p >= lo) {
			t.Errorf("port %d is outside [%d, %d), below the ephemeral range", p, lo/2, lo)
		}
	}
	if _, err := os.Stat("/proc/sys/net/ipv4/ip_local_port_range"); err == nil && !known {
		t.Errorf("the ephemeral range file exists but was not read")
	}
}

// A port something holds is never handed out.
func TestFreePortsSkipsAHeldPort(t *testing.T) {
	lo, known := ephemeralLow()
	if !known {
		t.Skip("no ephemeral range on this system: FreePorts takes port 0's")
	}
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	// Hold every port of a small slice of the range FreePorts draws from,
	// then check none of them comes back over many draws.
	heldPorts := map[int]bool{}
	for p := lo / 2; p < lo/2+64; p++ {
		if ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p)); err == nil {
			lns = append(lns, ln)
			heldPorts[p] = true
		}
	}
	for range 200 {
		ports, err := FreePorts(1)
		if err != nil {
			t.Fatal(err)
		}
		if heldPorts[ports[0]] {
			t.Fatalf("port %d is held, yet handed out", ports[0])
		}
	}
}

// Held tells a port another program listens on from a free one.
func TestHeld(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if !Held(port) {
		t.Errorf("port %d is listened on, yet not held", port)
	}
	ln.Close()
	if Held(port) {
		t.Errorf("port %d was released, yet held", port)
	}
}

// FreeAddr is a 127.0.0.1 address on such a port, that a server can bind.
func TestFreeAddrCanBeBound(t *testing.T) {
	addr, err := FreeAddr()
	if err != nil {
		t.Fatal(err)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil || host != "127.0.0.1" {
		t.Fatalf("FreeAddr() = %q: want 127.0.0.1:port (%v)", addr, err)
	}
	p, _ := strconv.Atoi(port)
	if lo, known := ephemeralLow(); known && lo >= 2048 && (p < lo/2 || p >= lo) {
		t.Errorf("port %d is outside [%d, %d), below the ephemeral range", p, lo/2, lo)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("binding %s: %v", addr, err)
	}
	ln.Close()
}

// Listen binds a 127.0.0.1 port below the ephemeral range (where the
// system has one), held until the listener closes, and bindable again
// after it closes: what a restarted server needs.
func TestListenBelowTheEphemeralRangeAndAgain(t *testing.T) {
	ln, err := Listen()
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().(*net.TCPAddr)
	if !addr.IP.Equal(net.IPv4(127, 0, 0, 1)) {
		t.Errorf("listening on %s, want 127.0.0.1", addr)
	}
	if lo, known := ephemeralLow(); known && lo >= 2048 && (addr.Port < lo/2 || addr.Port >= lo) {
		t.Errorf("port %d is outside [%d, %d), below the ephemeral range", addr.Port, lo/2, lo)
	}
	if !Held(addr.Port) {
		t.Errorf("port %d is not held while listening", addr.Port)
	}
	ln.Close()
	again, err := net.Listen("tcp", addr.String())
	if err != nil {
		t.Fatalf("binding %s again after the close: %v", addr, err)
	}
	again.Close()
}
