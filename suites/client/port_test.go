package client

import (
	"testing"

	"github.com/a2a-conform/a2a-conform/internal/clientrun"
)

// A driver whose receiver lost its port to another program says so in its
// result's error or its stderr; only that is run again on another port.
func TestPortTakenIsReadFromTheDriversWords(t *testing.T) {
	for _, c := range []struct {
		name string
		run  clientrun.DriverRun
		want bool
	}{
		{"result error", clientrun.DriverRun{Result: &clientrun.Result{Error: &clientrun.ResultError{Class: "other", Message: "listen tcp 127.0.0.1:4242: bind: address already in use"}}}, true},
		{"stderr", clientrun.DriverRun{Stderr: []byte("Error: listen EADDRINUSE: address already in use 127.0.0.1:4242")}, true},
		{"another error", clientrun.DriverRun{Result: &clientrun.Result{Error: &clientrun.ResultError{Class: "transport", Message: "connection refused"}}}, false},
		{"nothing", clientrun.DriverRun{}, false},
	} {
		if got := portTaken(&c.run); got != c.want {
			t.Errorf("%s: portTaken %v, want %v", c.name, got, c.want)
		}
	}
}
