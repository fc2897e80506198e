package testkit

import (
	"flag"
	"strconv"
)

// DefaultParallel sets how many of the package's tests run at once (the
// test binary's -test.parallel) to n, unless the command line gave
// -parallel. Call it from TestMain: the packages whose tests wait on child
// runs and agents, not on the CPU, run more at a time than go test's
// default of GOMAXPROCS.
func DefaultParallel(n int) {
	if !flag.Parsed() {
		flag.Parse()
	}
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(n))
	}
}
