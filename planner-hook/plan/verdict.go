package plan

import (
	"encoding/json"
	"fmt"
)

// NodeVerdict says whether one node runs natively, and why not.
type NodeVerdict struct {
	Name      string   `json:"name"`
	Type      string   `json:"type"`
	Supported bool     `json:"supported"`
	Reasons   []string `json:"reasons"`
}

// Verdict is the answer for a whole island: native only if every node is.
type Verdict struct {
	Supported bool          `json:"supported"`
	Nodes     []NodeVerdict `json:"nodes"`
}

// Judge decides, node by node, whether the island can run natively.
func Judge(is *Island) Verdict {
	v := Verdict{Supported: len(is.Nodes) > 0}
	for i := range is.Nodes {
		n := &is.Nodes[i]
		nv := NodeVerdict{Name: n.Name, Reasons: []string{}}
		h, err := n.Header()
		switch {
		case err != nil:
			nv.Reasons = append(nv.Reasons, err.Error())
		case h.Type == CalcType:
			nv.Type = h.Type
			_, reasons, err := CompileCalc(n, is.Options)
			if err != nil {
				nv.Reasons = append(nv.Reasons, err.Error())
			}
			nv.Reasons = append(nv.Reasons, reasons...)
		default:
			nv.Type = h.Type
			nv.Reasons = append(nv.Reasons, judgeNode(n, h.Type, is.Options)...)
		}
		nv.Supported = len(nv.Reasons) == 0
		v.Supported = v.Supported && nv.Supported
		v.Nodes = append(v.Nodes, nv)
	}
	return v
}

// JudgeJSON decodes an island and returns its verdict as JSON.
func JudgeJSON(data []byte) ([]byte, error) {
	is, err := Decode(data)
	if err != nil {
		return nil, err
	}
	return json.Marshal(Judge(is))
}

// judgeNode returns the reasons why a node other than a Calc cannot run natively.
func judgeNode(n *IslandNode, typ string, options map[string]string) []string {
	var reasons []string
	var err error
	switch typ {
	case WindowAggregateType:
		_, reasons, err = CompileWindowAggregate(n, OnePhase, options)
	case LocalWindowAggregateType:
		_, reasons, err = CompileWindowAggregate(n, LocalPhase, options)
	case GlobalWindowAggregateType:
		_, reasons, err = CompileWindowAggregate(n, GlobalPhase, options)
	case WatermarkAssignerType:
		_, reasons, err = CompileWatermarkAssigner(n)
	case GroupWindowAggregateType:
		return []string{"legacy group windows (GROUP BY TUMBLE/HOP/SESSION(...), planned as " + typ +
			") are not supported natively yet; the window TVF syntax (FROM TABLE(TUMBLE(...)) GROUP BY window_start, window_end) is"}
	case ScanType:
		_, reasons, err = CompileScan(n, options)
	case IcebergScanType:
		_, reasons, err = CompileIcebergScan(n, options)
	case AdbcScanType:
		_, reasons, err = CompileAdbcScan(n, options)
	case SinkType:
		_, reasons, err = compileSink(n, options)
	case IcebergSinkType:
		_, reasons, err = CompileIcebergSink(n, options)
	case AdbcSinkType:
		_, reasons, err = CompileAdbcSink(n, options)
	case ExchangeType:
		// Flink's own exchange: rows cross the network as BinaryRowData, routed by Flink.
		return nil
	default:
		return []string{fmt.Sprintf("operator %s is not supported natively yet", displayType(typ))}
	}
	if err != nil {
		reasons = append(reasons, err.Error())
	}
	if (typ == WindowAggregateType || typ == GlobalWindowAggregateType) && options["sluice.state.legacy-timer-snapshots"] == "true" {
		reasons = append(reasons, "keyed native state cannot be checkpointed with RocksDB's heap timers "+
			"('state.backend.rocksdb.timer-service.factory' = 'HEAP': Flink writes those timers to raw keyed state)")
	}
	return reasons
}

func displayType(t string) string {
	if t == "" {
		return "(unknown)"
	}
	return t
}

// Operator is one exec-node type that runs natively.
type Operator struct {
	Type string
	Doc  string
}

// Operators lists the exec nodes that run natively: the registry behind the verdict and the
// support matrix.
func Operators() []Operator {
	return []Operator{
		{Type: CalcType, Doc: "projection and filter; every expression must be supported (see Functions)"},
		{Type: WatermarkAssignerType, Doc: "watermark expression evaluated natively; Flink's emission rules (on jumps past the auto-watermark interval, periodic, idleness) kept; starts a chain, or joins the chain of the native scan it reads (directly or through a Calc computing the event-time column)"},
		{Type: WindowAggregateType, Doc: "one-phase TUMBLE, HOP, CUMULATE (with offsets) on a TIMESTAMP(3) event-time attribute, or a TIMESTAMP_LTZ(3) one in the session time zone (daylight-saving gaps and overlaps as Flink's TimeWindowUtil); processing time (PROCTIME(): rows take the clock when they arrive, windows fire on processing-time timers, as Flink's WindowAggOperator); COUNT(*), COUNT, SUM, $SUM0 (which Flink plans for some SUMs), MIN, MAX, AVG on numeric types (MIN/MAX also DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ of every precision (TimestampData#compareTo), BOOLEAN and CHAR/VARCHAR, by unsigned UTF-8 bytes as BinaryStringData#compareTo), FIRST_VALUE and LAST_VALUE on the types Flink 2.1 plans them for: TINYINT to DOUBLE, BOOLEAN, VARCHAR and DECIMAL (TUMBLE; Flink cannot merge them), SUM, MIN, MAX, AVG on DECIMAL (sums in DECIMAL(38, s), NULL on overflow as Flink; AVG at scale max(6, s)), FILTER clauses; state per key group in Flink's checkpoints. COUNT(DISTINCT) (also with FILTER clauses) on integer-like, floating-point (NaN one value, 0.0 and -0.0 two, as Double#equals), DECIMAL, string and binary values and SUM(DISTINCT)/MIN/MAX(DISTINCT) on TUMBLE windows, in one and two phases (the partial aggregates carry the distinct values in the RAW distinct views, in Sluice's own encoding). Fallback: other aggregate functions, SESSION windows, window TVFs not aggregated directly"},
		{Type: LocalWindowAggregateType, Doc: "local phase of Flink's two-phase window aggregation (same windows and aggregates); no state"},
		{Type: GlobalWindowAggregateType, Doc: "global phase of Flink's two-phase window aggregation; state per key group in Flink's checkpoints"},
		{Type: IcebergScanType, Doc: "bounded and streaming ('streaming' = 'true': the current snapshot, then the appends of later snapshots, as Flink SQL's default Iceberg source) scans of Iceberg tables (an Iceberg catalog's tables, or 'connector' = 'iceberg'), v1 and v2 (position deletes applied, as the connector's delete filter applies them): Flink's Iceberg source (FLIP-27) plans, assigns and checkpoints the splits, Go reads their Parquet data files (columns by Iceberg field id, added columns as NULL, int->long, float->double and decimal widening as Iceberg's Flink reader) into Arrow batches that go straight into the native chain; BOOLEAN, INT, BIGINT, FLOAT, DOUBLE, DECIMAL, STRING, BYTES, BINARY(L) (fixed, uuid), DATE, TIME, TIMESTAMP(6), TIMESTAMP_LTZ(6), and ROW, ARRAY, MAP of these (struct fields by field id at every level, missing ones as NULL); files without field ids (imported) through the table's name mapping. Not native yet (the whole scan stays Flink's reader): streaming reads with start or end options on the legacy source, pushed filters on FLOAT/DOUBLE columns, format version 3, equality deletes, LIMIT pushdown, ORC/Avro data files, 'watermark-column', 'scan.parallelism'"},
		{Type: AdbcScanType, Doc: "bounded scans of warehouse tables through ADBC drivers ('connector' = 'adbc', or the tables of an ADBC catalog: PostgreSQL and SQLite through ADBC's C drivers, Flight SQL servers through ADBC's Go driver): the query's Arrow stream (only the projected columns are selected) goes into the native chain; 'scan.partition.column', 'scan.partition.num', 'scan.partition.lower-bound' and 'scan.partition.upper-bound' split the read into BETWEEN ranges as Flink's JDBC source splits it; values as Flink's JDBC source reads them (DECIMAL rounded HALF_UP to the scale and NULL past the precision, TIME in whole seconds as java.sql.Time#toLocalTime); BOOLEAN, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL, strings, binaries, DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ (p <= 6). A job that runs on Flink reads the table with the same Go reader, its rows encoded as BinaryRowData. Not yet: ARRAY columns, filter and LIMIT pushdown (filters run in the native Calc above), lookups"},
		{Type: ScanType, Doc: "filesystem tables in Parquet on the local file system: Flink's FileSource plans, assigns and checkpoints the splits, Go reads them (row groups by midpoint, columns by exact name, missing columns as NULL, Flink's type conversions) into Arrow batches that go straight into the native chain; bounded and 'source.monitor-interval' streaming; BOOLEAN, integers, FLOAT, DOUBLE, DECIMAL, strings, binaries, DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ (p ≤ 9) from INT96 and INT64 (JVM-zone wall clock unless 'parquet.utc-timezone'); ROW, ARRAY and MAP columns of those types but timestamps, nested in any way, in the standard layouts (three-level LIST and MAP groups, ROW fields in the file's order; other layouts fail with an error, as Flink's nested reader reads them differently); partitioned tables (values from the directory names, parsed as Flink parses them; pruned partitions). Not native yet (the scan stays Flink's reader, the rest of the plan can still be native): timestamps inside nested columns, partition columns of types Flink cannot convert, metadata columns, 'source.path.regex-pattern', non-local paths"},
		{Type: SinkType, Doc: "filesystem tables in Parquet on the local file system, fed by a native chain: Flink's streaming file writer keeps part files, rolling, checkpoint commits and partition commits; Go splits rows by partition (directories named as Flink names them; partition keys of integer, BOOLEAN, DATE, TIME, DECIMAL, string and TIMESTAMP(p <= 6) types, and FLOAT/DOUBLE as Java 8 to 18's Float/Double#toString print them where the planning JVM is one of those) and writes the files with Flink's Parquet conventions (INT96 or INT64 timestamps, FLBA decimals, SNAPPY, 128 MB row groups; ROW, ARRAY and MAP columns as ParquetSchemaConverter's groups with Dremel levels computed in Go, a NULL map key failing as in Flink); NOT NULL columns checked as Flink's ConstraintEnforcer does ('table.exec.sink.not-null-enforcer': ERROR fails with Flink's message, DROP drops the row). Not native yet: binary and TIMESTAMP(p > 6) partition keys, FLOAT/DOUBLE keys on Java 19 and later, sink.shuffle-by-partition.enable, auto-compaction, partial column inserts, 'table.exec.sink.type-length-enforcer' on CHAR/VARCHAR(n)/BINARY/VARBINARY(n) columns, 'table.exec.sink.nested-constraint-enforcer' on nested columns"},
		{Type: IcebergSinkType, Doc: "inserts into Iceberg tables (an Iceberg catalog's tables, or 'connector' = 'iceberg'), format v1 and v2, Parquet data files, fed by a native chain: Flink's Iceberg sink (the v1 FlinkSink or, with 'table.exec.iceberg.use-v2-sink', the v2 IcebergSink) keeps its writer operator, file naming, rolling at 'write.target-file-size-bytes', committer and checkpoint-idempotent commits; Go writes the data files (Iceberg's Parquet schema with field ids, the values FlinkParquetWriters stores, 'write.parquet.*' codec, level, row group, page and dictionary sizes) and Iceberg's own code computes their metrics from the footer. Partitioned tables: one open file per partition, partitions computed in Go with Iceberg's identity, year, month, day, hour, bucket[N], truncate[W] and void transforms (integers, BIGINT, BOOLEAN, DECIMAL, FLOAT and DOUBLE, strings, binaries, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ as the transform allows). ROW, ARRAY and MAP columns as Iceberg's groups with field ids on every part; uuid columns from BINARY(16). NOT NULL (required) columns checked as Flink's ConstraintEnforcer does ('table.exec.sink.not-null-enforcer'). The HASH distribution mode of partitioned tables: Go splits batches by partition, Flink shuffles them by the partition path Iceberg names (the connector's key). Not native yet: upsert and equality fields, INSERT OVERWRITE, 'write-parallelism', 'table-refresh-interval', RANGE distribution, ORC/Avro, encrypted tables, format version 3, TIMESTAMP(p > 6), bloom filters"},
		{Type: AdbcSinkType, Doc: "inserts and upserts into warehouse tables through ADBC drivers ('connector' = 'adbc', or the tables of an ADBC catalog: PostgreSQL and SQLite through ADBC's C drivers, Flight SQL servers through ADBC's Go driver), fed by a native chain of inserts as Arrow batches (a job that runs on Flink, or a changelog into an upsert table, feeds the same writer with rows): bulk ingestion (COPY for PostgreSQL) of 'sink.buffer-flush.max-rows' rows at a time; 'sink.delivery-guarantee' exactly-once (the default: each checkpoint's rows written in one PostgreSQL transaction, prepared before the barrier and committed when the checkpoint completes (a sink with a 'sink.transactional-id-prefix', or 'sink.commit-mode' = 'two-phase'), or else in a stage table of their own moved into the table when the checkpoint completes; either way the commit is recorded in 'sink.commit-table' in the same transaction, so that replayed commits are skipped), at-least-once or none; tables with a PRIMARY KEY (PostgreSQL) take +I/+U/-U/-D by the key, the last change of a key winning as in Flink's JDBC sink; BOOLEAN, integers, FLOAT, DOUBLE, DECIMAL, strings, binaries, DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ (p <= 6); NOT NULL columns checked as Flink's ConstraintEnforcer does. Not yet: native batches with updates, ROW/ARRAY/MAP columns, TIMESTAMP(p > 6)"},
		{Type: ExchangeType, Doc: "hash (and single-subtask) exchanges between native chains into a window aggregation carry Arrow batches split per subtask in Go by Flink's key groups (sluice.exchange.columnar); other exchanges are Flink's own, with rows"},
	}
}
