package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"time"
)

// A CPU profile of the Go side of a job, for developers measuring where native time goes:
// SLUICE_CPU_PROFILE=<file> starts Go's CPU profiler when the library loads, and
// SLUICE_CPU_PROFILE_SECONDS (default 30) ends it and writes the file (read it with
// `go tool pprof <libsluice.so> <file>`). Unset, nothing runs.
func init() {
	path := os.Getenv("SLUICE_CPU_PROFILE")
	if path == "" {
		return
	}
	seconds := 30
	if s := os.Getenv("SLUICE_CPU_PROFILE_SECONDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 {
			fmt.Fprintf(os.Stderr, "sluice: SLUICE_CPU_PROFILE_SECONDS=%q is not a positive number of seconds; profiling for %d s\n", s, seconds)
		} else {
			seconds = n
		}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "sluice: CPU profile %s: %v\n", path, err)
		return
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "sluice: CPU profile %s: %v\n", path, err)
		f.Close()
		return
	}
	go func() {
		time.Sleep(time.Duration(seconds) * time.Second)
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "sluice: CPU profile %s: %v\n", path, err)
			return
		}
		fmt.Fprintf(os.Stderr, "sluice: CPU profile of %d s written to %s\n", seconds, path)
	}()
}
