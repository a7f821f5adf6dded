package plan

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/sources/flusslog"
)

// FlussScanType is the node type under which the planner sends a scan of a Fluss table (Fluss's
// FlinkTableSource): the Java side describes it with what the verdict and the native fetch need.
const FlussScanType = "sluice-fluss-scan_1"

// flussScanExec is the description of a Fluss scan.
type flussScanExec struct {
	Table string `json:"table"`
	// Columns are the table's columns (LogicalType#asSerializableString of its ROW), which a
	// log batch holds in this order.
	Columns string `json:"columns"`
	// Projection are the positions of the scan's columns among the table's, in the scan's
	// order (nil: all, in order).
	Projection []int `json:"projection"`
	// PrimaryKey is set for a primary-key table, whose log is a changelog.
	PrimaryKey bool `json:"primaryKey"`
	// Partitioned, Streaming and Lake describe the table and the read: a partitioned table, an
	// unbounded read (a bounded one reads a data lake or looks rows up), a data lake in front.
	Partitioned bool `json:"partitioned"`
	Streaming   bool `json:"streaming"`
	Lake        bool `json:"lake"`
	// StartupMode is 'scan.startup.mode' (full, earliest, latest, timestamp).
	StartupMode string `json:"startupMode"`
	// LogFormat is the table's 'table.log.format' (ARROW unless set).
	LogFormat string `json:"logFormat"`
	// Unsupported lists what else the Java side found that the native scan does not do.
	Unsupported []string `json:"unsupported"`
}

// FlussScan is a native scan of a Fluss table compiled: Fluss's source enumerates and assigns
// the buckets and keeps their offsets, and the buckets' fetched log batches are decoded in Go.
type FlussScan struct {
	Table string
	// Names and Types are the scan's columns, in its order.
	Names []string
	Types []catalog.Type
	// Fetched are the positions of the columns a fetch asks for, ascending (the order the
	// batches hold them in); Order[i] is the scan's column i's place among them.
	Fetched []int
	Order   []int
	// Changelog is set for a primary-key table: the rows carry their RowKinds.
	Changelog bool
}

// Columns returns the types of the scan's columns.
func (s *FlussScan) Columns() []catalog.Type { return s.Types }

// ExecType is FlussScanType.
func (*FlussScan) ExecType() string { return FlussScanType }

// Decoder returns the decoder of the fetched batches (their columns in Fetched's order).
func (s *FlussScan) Decoder() (*flusslog.Decoder, error) {
	names, types := s.FetchedColumns()
	return flusslog.NewDecoder(names, types, s.Changelog)
}

// CompileFlussScan decides whether a scan of a Fluss table runs natively and compiles it. Its
// reasons keep the scan on Fluss's reader (a row edge into the chain above).
func CompileFlussScan(n *IslandNode, _ map[string]string) (*FlussScan, []string, error) {
	var j flussScanExec
	if err := json.Unmarshal(n.Exec, &j); err != nil {
		return nil, nil, fmt.Errorf("fluss scan %s: %w", n.Name, err)
	}
	s := &FlussScan{Table: j.Table, Changelog: j.PrimaryKey}
	var reasons []string
	why := func(format string, args ...any) {
		reasons = append(reasons, fmt.Sprintf("table %s: ", j.Table)+fmt.Sprintf(format, args...))
	}
	for _, u := range j.Unsupported {
		why("%s", u)
	}
	if !j.Streaming {
		why("bounded reads of Fluss tables (a data lake's, or lookups) are not native")
	}
	if j.Lake {
		why("Fluss tables with a data lake are not read natively yet")
	}
	if j.Partitioned {
		why("partitioned Fluss tables are not read natively yet")
	}
	if j.PrimaryKey && strings.EqualFold(j.StartupMode, "full") {
		why("a primary-key table read from its snapshot ('scan.startup.mode' = 'full', the default) is not native yet: the snapshot is rows, not Arrow batches")
	}
	if j.LogFormat != "" && !strings.EqualFold(j.LogFormat, "ARROW") {
		why("the log format %s is not read natively (ARROW is)", j.LogFormat)
	}
	if j.Columns == "" {
		// The Java side could not inspect the table source: its reasons say why.
		if len(reasons) == 0 {
			why("the scan's columns are unknown")
		}
		return s, reasons, nil
	}
	names, types, err := ParseRowFields(j.Columns)
	if err != nil {
		return nil, nil, fmt.Errorf("fluss scan %s: %w", n.Name, err)
	}
	projection := j.Projection
	if projection == nil {
		projection = make([]int, len(names))
		for i := range projection {
			projection[i] = i
		}
	}
	for _, p := range projection {
		if p < 0 || p >= len(names) || slices.Contains(s.Fetched, p) {
			return nil, nil, fmt.Errorf("fluss scan %s: projection %v of %d columns", n.Name, j.Projection, len(names))
		}
		s.Fetched = append(s.Fetched, p)
		s.Names, s.Types = append(s.Names, names[p]), append(s.Types, types[p])
	}
	slices.Sort(s.Fetched)
	s.Order = make([]int, len(projection))
	for i, p := range projection {
		s.Order[i] = slices.Index(s.Fetched, p)
	}
	if _, err := s.Decoder(); err != nil {
		why("%v", err)
	}
	return s, reasons, nil
}

// FetchedColumns are the names and types of the columns a fetch holds, in its order.
func (s *FlussScan) FetchedColumns() ([]string, []catalog.Type) {
	names, types := make([]string, len(s.Fetched)), make([]catalog.Type, len(s.Fetched))
	for i, o := range s.Order {
		names[o], types[o] = s.Names[i], s.Types[i]
	}
	return names, types
}
