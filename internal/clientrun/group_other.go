//go:build !unix

package clientrun

import "os/exec"

func ownGroup(*exec.Cmd)  {}
func killGroup(int)       {}
func groupAlive(int) bool { return false }
