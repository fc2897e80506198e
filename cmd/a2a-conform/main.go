// Command a2a-conform is the A2A v1.0 interop conformance harness. All logic
// lives in internal/cli so that tests can run the same code in-process.
package main

import (
	"os"

	"github.com/a2a-conform/a2a-conform/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdout, os.Stderr))
}
