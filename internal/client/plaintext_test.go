package client

import (
	"strings"
	"testing"
)

// Plaintext h2c goes to loopback, and to a host the run names, nowhere else.
func TestPlaintextOnlyToLoopbackOrNamedHosts(t *testing.T) {
	t.Cleanup(func() { AllowPlaintext() })
	if _, err := parseGRPCURL("http://agent:50051"); err == nil || !strings.Contains(err.Error(), "--grpc-plaintext-host") {
		t.Fatalf("plaintext to a named host without the opt-in: %v", err)
	}
	AllowPlaintext(" Agent ")
	tg, err := parseGRPCURL("http://agent:50051")
	if err != nil || !tg.plaintext || tg.hostport != "agent:50051" {
		t.Fatalf("with the opt-in: %+v, %v", tg, err)
	}
	if _, err := parseGRPCURL("grpc://other:50051"); err == nil {
		t.Error("the opt-in for agent widened plaintext to other")
	}
	if tg, err := parseGRPCURL("agent:50051"); err != nil || tg.plaintext {
		t.Errorf("a bare host:port off loopback stays TLS even when allowed: %+v, %v", tg, err)
	}
	AllowPlaintext()
	if _, err := parseGRPCURL("http://agent:50051"); err == nil {
		t.Error("the opt-in outlived its reset")
	}
}
