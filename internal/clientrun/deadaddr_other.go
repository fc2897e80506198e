//go:build !unix

package clientrun

import (
	"io"
	"net"
)

// deadAddr returns a loopback port that was free a moment ago: without a
// Unix socket to hold it bound and not listening, another listener may take
// it before the client connects.
func deadAddr() (string, io.Closer, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	a := l.Addr().String()
	l.Close()
	return a, io.NopCloser(nil), nil
}
