// Command refdriver is the reference client driver alone, without the rest
// of a2a-conform: `refdriver [--fault A,B] [--variant C]` does what
// `a2a-conform client-driver` does. The tests that run the client suite
// dozens of times build it, since a driver process starts for every case and
// this one starts in a third of the time the whole CLI takes (it links
// neither the scripted agent nor the report writers). It is not shipped.
package main

import (
	"flag"
	"os"
	"strings"

	"github.com/a2a-conform/a2a-conform/internal/clientdriver"
)

func main() {
	fs := flag.NewFlagSet("refdriver", flag.ContinueOnError)
	var faults, variants []string
	list := func(dst *[]string) func(string) error {
		return func(v string) error {
			for _, s := range strings.Split(v, ",") {
				if s = strings.TrimSpace(s); s != "" {
					*dst = append(*dst, s)
				}
			}
			return nil
		}
	}
	fs.Func("fault", "client faults to switch on (repeatable, comma-separated)", list(&faults))
	fs.Func("variant", "correct variants to switch on (repeatable, comma-separated)", list(&variants))
	if err := fs.Parse(os.Args[1:]); err != nil {
		os.Exit(2)
	}
	os.Exit(clientdriver.Main(clientdriver.Config{Faults: faults, Variants: variants}, os.Stdout, os.Stderr))
}
