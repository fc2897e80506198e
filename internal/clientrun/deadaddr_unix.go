//go:build unix

package clientrun

import (
	"fmt"
	"io"
	"syscall"
)

// deadAddr returns a loopback address that refuses connections for as long
// as the returned closer is open: a TCP socket bound to a free port and
// never listening. Connecting to it gets ECONNREFUSED, and, unlike a port
// merely closed again, no other listener can take it meanwhile (the socket
// does not set SO_REUSEADDR), so on a busy machine the stage's "refusing"
// interface never turns into another test's server.
func deadAddr() (string, io.Closer, error) {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		return "", nil, err
	}
	syscall.CloseOnExec(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		syscall.Close(fd)
		return "", nil, err
	}
	sa, err := syscall.Getsockname(fd)
	in4, ok := sa.(*syscall.SockaddrInet4)
	if err != nil || !ok {
		syscall.Close(fd)
		return "", nil, fmt.Errorf("the refusing interface's socket has no IPv4 address (%v)", err)
	}
	return fmt.Sprintf("127.0.0.1:%d", in4.Port), boundSocket(fd), nil
}

type boundSocket int

func (b boundSocket) Close() error { return syscall.Close(int(b)) }
