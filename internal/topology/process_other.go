//go:build !unix

package topology

import (
	"errors"
	"os/exec"
)

// ownGroup refuses: the driver runs /bin/sh and stops whole process groups,
// which only Unix systems offer.
func ownGroup(*exec.Cmd) error {
	return errors.New("process driver: needs a Unix system (it runs /bin/sh -c and stops process groups)")
}

func signalGroup(int, bool) {}

func groupAlive(int) bool { return false }
