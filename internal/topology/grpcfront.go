package topology

import (
	"io"
	"net"
	"sync"
	"time"
)

// grpcFront is the one gRPC address of a balanced embedded deployment: a TCP
// forwarder on a loopback listener in front of the instances' own gRPC
// listeners (the balancer proxies HTTP/1.1, and gRPC needs HTTP/2 end to
// end, so it is forwarded below HTTP). Every instance's card names it, as
// every instance's card names the balancer for the HTTP bindings: the
// instances of one generation serve one card, byte for byte, as the
// instances of a deployment behind one load balancer do, and a client's
// gRPC connection outlives the replacement of the instance it reached.
//
// Each new connection goes to the instance target names when it is
// accepted (the first ready one, as the balancer's default policy picks);
// a connection stays with its instance until either side closes it, so a
// replaced instance's connections end with it and the client reconnects.
type grpcFront struct {
	ln     net.Listener
	url    string
	target func() string
	mu     sync.Mutex
	conns  map[net.Conn]struct{}
	closed bool
}

// newGRPCFront listens on 127.0.0.1:0 and forwards until Close; target
// returns the address a new connection goes to ("" when none is ready:
// the connection is closed, and the client retries).
func newGRPCFront(target func() string) (*grpcFront, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	f := &grpcFront{ln: ln, url: "http://" + ln.Addr().String(), target: target, conns: map[net.Conn]struct{}{}}
	go f.serve()
	return f, nil
}

func (f *grpcFront) serve() {
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		go f.forward(c)
	}
}

// forward joins one client connection to one instance's listener.
func (f *grpcFront) forward(c net.Conn) {
	addr := f.target()
	if addr == "" {
		c.Close()
		return
	}
	up, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil {
		c.Close()
		return
	}
	if !f.track(c, up) {
		c.Close()
		up.Close()
		return
	}
	defer f.untrack(c, up)
	done := make(chan struct{}, 2)
	pipe := func(dst, src net.Conn) {
		io.Copy(dst, src)
		// Either side's end ends both: gRPC has no half-closed use here.
		dst.Close()
		src.Close()
		done <- struct{}{}
	}
	go pipe(up, c)
	go pipe(c, up)
	<-done
	<-done
}

func (f *grpcFront) track(cs ...net.Conn) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return false
	}
	for _, c := range cs {
		f.conns[c] = struct{}{}
	}
	return true
}

func (f *grpcFront) untrack(cs ...net.Conn) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range cs {
		delete(f.conns, c)
	}
}

// Close stops accepting and cuts every forwarded connection.
func (f *grpcFront) Close() {
	f.mu.Lock()
	f.closed = true
	conns := f.conns
	f.conns = map[net.Conn]struct{}{}
	f.mu.Unlock()
	f.ln.Close()
	for c := range conns {
		c.Close()
	}
}
