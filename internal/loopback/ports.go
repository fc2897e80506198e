// Package loopback hands out loopback ports that another program is
// unlikely to take between the moment they are chosen and the moment the
// program they are meant for binds them.
package loopback

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// FreePorts reserves n distinct loopback ports by holding their listeners
// open together, then releases them for the instances to bind. It takes
// them below the system's ephemeral range (listenBelowEphemeral) where it
// can: between the release and the agent's bind, a port from that range
// can go to any outgoing connection or to any program listening on port 0
// (under many runs at once, a process driver's rolled instance once found
// its port answering for another test's server), while a port below it goes only to
// a program that names it.
func FreePorts(n int) ([]int, error) {
	var lns []net.Listener
	defer func() {
		for _, ln := range lns {
			ln.Close()
		}
	}()
	ports := make([]int, 0, n)
	for range n {
		ln, err := listenBelowEphemeral()
		if err != nil {
			ln, err = net.Listen("tcp", "127.0.0.1:0")
		}
		if err != nil {
			return nil, fmt.Errorf("finding a free loopback port: %w", err)
		}
		lns = append(lns, ln)
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// FreeAddr is one FreePorts port as a 127.0.0.1 address, for a program (or
// a test's server) that binds it later, or for a test that wants an address
// nothing listens on.
func FreeAddr() (string, error) {
	ports, err := FreePorts(1)
	if err != nil {
		return "", err
	}
	return "127.0.0.1:" + strconv.Itoa(ports[0]), nil
}

// Listen listens on a free 127.0.0.1 port, below the ephemeral range where
// it can (port 0 otherwise), for a server that binds the same port again
// after a restart: while it is down, a port of the ephemeral range can go
// to any outgoing connection or to any program listening on port 0.
func Listen() (net.Listener, error) {
	if ln, err := listenBelowEphemeral(); err == nil {
		return ln, nil
	}
	return net.Listen("tcp", "127.0.0.1:0")
}

// listenBelowEphemeral listens on a random free loopback port in the half
// of the port space just below the ephemeral range (Linux: 16384-32767
// under the default range 32768-60999), trying up to 64 ports. An error
// means none was found, or the range is unknown (not Linux): the caller
// falls back to port 0.
func listenBelowEphemeral() (net.Listener, error) {
	lo, ok := ephemeralLow()
	if !ok || lo < 2048 {
		return nil, errors.New("no ephemeral range known")
	}
	base, span := lo/2, lo-lo/2
	var last error
	for range 64 {
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(base+rand.IntN(span)))
		if err == nil {
			return ln, nil
		}
		last = err
	}
	return nil, last
}

// ephemeralLow is the first port of the system's ephemeral range (Linux's
// /proc/sys/net/ipv4/ip_local_port_range).
func ephemeralLow() (int, bool) {
	b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) != 2 {
		return 0, false
	}
	lo, err := strconv.Atoi(f[0])
	return lo, err == nil
}

// Held reports a loopback port another program is listening on.
func Held(port int) bool {
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		return errors.Is(err, syscall.EADDRINUSE)
	}
	ln.Close()
	return false
}
