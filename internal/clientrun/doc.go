// Package clientrun is the machinery of client mode (`a2a-conform client`):
// the scripted agent a vendor's client talks to (Stage: the reference agent
// of package fakes behind a front that can rewrite its card and answers,
// recording every request the client sends), and the runner of the
// vendor's client driver (RunDriver: one process group per case, its time
// and output bounded, its last JSON line parsed into a Result).
//
// The contract between the harness and a driver is docs/client-driver.md.
// Specs never use this package directly: suites/client wraps it in RunCase.
package clientrun
