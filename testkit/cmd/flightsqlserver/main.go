// Command flightsqlserver serves a SQLite database file over Flight SQL (arrow-go's example
// server), for the tests of the ADBC connector's Flight SQL driver: it runs the -init statements,
// prints the server's URI (grpc://host:port) on a line of its own and serves until its standard
// input closes.
package main

import (
	"database/sql"
	"flag"
	"fmt"
	"io"
	"os"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	"github.com/sluice-project/sluice/testkit/flightsqltest"
)

// statements collects repeated -init flags.
type statements []string

func (s *statements) String() string     { return fmt.Sprint(*s) }
func (s *statements) Set(v string) error { *s = append(*s, v); return nil }

func main() {
	path := flag.String("db", "", "the SQLite database file (created if missing)")
	addr := flag.String("addr", "127.0.0.1:0", "the address to listen on (port 0: a free one)")
	var init statements
	flag.Var(&init, "init", "a statement to run before serving (repeatable)")
	flag.Parse()
	if *path == "" {
		fmt.Fprintln(os.Stderr, "flightsqlserver: -db is required")
		os.Exit(2)
	}
	if len(init) > 0 {
		db, err := sql.Open("sqlite", *path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "flightsqlserver:", err)
			os.Exit(1)
		}
		for _, s := range init {
			if _, err := db.Exec(s); err != nil {
				fmt.Fprintf(os.Stderr, "flightsqlserver: %s: %v\n", s, err)
				os.Exit(1)
			}
		}
		db.Close()
	}
	srv, err := flightsqltest.Start(*path, *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "flightsqlserver:", err)
		os.Exit(1)
	}
	fmt.Println(srv.URI)
	io.Copy(io.Discard, os.Stdin)
	srv.Stop()
}
