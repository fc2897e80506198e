// Package clientproof holds, in its tests, the proofs of the client suite
// through the CLI: the reference client driver passes every client spec,
// each client fault fails the specs it names, each correct client variant
// gets no unallowed non-pass, and bad drivers could not run. They are full
// `a2a-conform client` runs in child processes; they live apart from
// internal/runner's tests so that each package stays well inside go test's
// per-package time limit, and the two run side by side.
package clientproof
