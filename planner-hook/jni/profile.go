package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"time"
)

// A CPU profile of the Go side of a job, for developers measuring where native time goes:
// SLUICE_CPU_PROFILE=<file> starts Go's CPU profiler SLUICE_CPU_PROFILE_DELAY seconds (default
// 0) after the library loads; SLUICE_CPU_PROFILE_SECONDS (default 30) later it stops and writes
// the file (read it with `go tool pprof <libsluice.so> <file>`). The profiler samples the whole
// process, so JVM time shows as external code. Unset, nothing runs.
func init() {
	path := os.Getenv("SLUICE_CPU_PROFILE")
	if path == "" {
		return
	}
	delay := envSeconds("SLUICE_CPU_PROFILE_DELAY", 0)
	seconds := envSeconds("SLUICE_CPU_PROFILE_SECONDS", 30)
	go func() {
		time.Sleep(time.Duration(delay) * time.Second)
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
		time.Sleep(time.Duration(seconds) * time.Second)
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			fmt.Fprintf(os.Stderr, "sluice: CPU profile %s: %v\n", path, err)
			return
		}
		fmt.Fprintf(os.Stderr, "sluice: CPU profile of %d s written to %s\n", seconds, path)
	}()
}

// envSeconds reads a non-negative number of seconds from the environment, or def when unset or
// malformed (reported on stderr).
func envSeconds(name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		fmt.Fprintf(os.Stderr, "sluice: %s=%q is not a number of seconds; using %d\n", name, s, def)
		return def
	}
	return n
}
