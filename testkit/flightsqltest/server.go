// Package flightsqltest runs a Flight SQL server for tests: arrow-go's example server over a
// SQLite database file (modernc.org/sqlite, no C library), on a local port.
package flightsqltest

import (
	"database/sql"
	"fmt"
	"net"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql/example"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// Server is a running Flight SQL server.
type Server struct {
	srv flight.Server
	db  *sql.DB
	// URI is where ADBC's Flight SQL driver connects (grpc://127.0.0.1:port).
	URI string
}

// Start serves the SQLite database file path (created if missing) on addr (host:port; port 0
// picks a free one).
func Start(path, addr string) (*Server, error) {
	return start(path, addr, true)
}

// StartWithoutTransactions is Start for a server that reports no transaction support, as many
// Flight SQL servers do.
func StartWithoutTransactions(path, addr string) (*Server, error) {
	return start(path, addr, false)
}

func start(path, addr string, transactions bool) (*Server, error) {
	// Transactions run on connections of their own: writers wait for each other (busy
	// timeout), readers do not wait for writers (WAL).
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(20000)&_pragma=journal_mode(WAL)")
	if err != nil {
		return nil, fmt.Errorf("flight sql test server: open %s: %w", path, err)
	}
	impl, err := example.NewSQLiteFlightSQLServer(db)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("flight sql test server: %w", err)
	}
	if !transactions {
		impl.RegisterSqlInfo(flightsql.SqlInfoFlightSqlServerTransaction, int32(flightsql.SqlTransactionNone))
		impl.RegisterSqlInfo(flightsql.SqlInfoTransactionsSupported, false)
	}
	srv := flight.NewServerWithMiddleware(nil)
	srv.RegisterFlightService(flightsql.NewFlightServer(impl))
	if err := srv.Init(addr); err != nil {
		db.Close()
		return nil, fmt.Errorf("flight sql test server: listen on %s: %w", addr, err)
	}
	go srv.Serve()
	return &Server{srv: srv, db: db, URI: "grpc://" + srv.Addr().(*net.TCPAddr).String()}, nil
}

// Stop stops serving and closes the database.
func (s *Server) Stop() {
	s.srv.Shutdown()
	s.db.Close()
}
