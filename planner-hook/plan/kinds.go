package plan

import (
	"fmt"
	"strings"

	"github.com/sluice-project/sluice/catalog"
)

// Node is a compiled island node: the description of what the runtime runs for it (*Calc,
// *WindowAggregate, *WatermarkAssigner, *MiniBatchAssigner, *WindowTableFunction, *WindowJoin, *IntervalJoin, *RegularJoin, *GroupAggregate, *Deduplicate, *Rank, *OverAggregate, a Scan, *FileSink, *IcebergSink, *AdbcSink, *Exchange).
type Node interface {
	// ExecType is the exec-node type of Flink's plan that the node was compiled from.
	ExecType() string
}

// Scan is a compiled native scan, which starts its chain with Arrow batches of its columns.
type Scan interface {
	Node
	// Columns returns the types of the batches' columns.
	Columns() []catalog.Type
}

// Exchange is Flink's own exchange inside an island: rows cross the network as BinaryRowData,
// routed by Flink (or, between native chains, as Arrow batches by the columnar exchange).
type Exchange struct{}

// Kind is one exec-node type of Flink's plans that Sluice compiles: the one place that says
// what a node type is, for the verdict, the runtime and the support matrix.
type Kind struct {
	// Type is Flink's exec-node type, e.g. "stream-exec-calc_1".
	Type string
	// Doc says what runs natively, for the support matrix; empty for a type that is only ever
	// refused.
	Doc     string
	compile func(n *IslandNode, options map[string]string) (Node, []string, error)
	// keyed marks the operators with keyed native state, which they write to Flink's raw keyed
	// state.
	keyed bool
}

// kinds is the registry of exec-node types.
var kinds = []Kind{
	{Type: CalcType, compile: node(CompileCalc),
		Doc: "projection and filter; every expression must be supported (see Functions)"},
	{Type: WatermarkAssignerType, compile: func(n *IslandNode, _ map[string]string) (Node, []string, error) {
		return wrap(CompileWatermarkAssigner(n))
	},
		Doc: "watermark expression evaluated natively; Flink's emission rules (on jumps past the auto-watermark interval, periodic, idleness) kept; starts a chain, or joins the chain of the native scan it reads (directly or through a Calc computing the event-time column)"},
	{Type: WindowAggregateType, compile: windowAggregate(OnePhase), keyed: true,
		Doc: "one-phase TUMBLE, HOP, CUMULATE (with offsets) on a TIMESTAMP(3) event-time attribute, or a TIMESTAMP_LTZ(3) one in the session time zone (daylight-saving gaps and overlaps as Flink's TimeWindowUtil); processing time (PROCTIME(): rows take the clock when they arrive, windows fire on processing-time timers, as Flink's WindowAggOperator); COUNT(*), COUNT, SUM, $SUM0 (which Flink plans for some SUMs), MIN, MAX, AVG on numeric types (MIN/MAX also DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ of every precision (TimestampData#compareTo), BOOLEAN and CHAR/VARCHAR, by unsigned UTF-8 bytes as BinaryStringData#compareTo), FIRST_VALUE and LAST_VALUE on the types Flink 2.1 plans them for: TINYINT to DOUBLE, BOOLEAN, VARCHAR and DECIMAL (TUMBLE; Flink cannot merge them), SUM, MIN, MAX, AVG on DECIMAL (sums in DECIMAL(38, s), NULL on overflow as Flink; AVG at scale max(6, s)), FILTER clauses; state per key group in Flink's checkpoints. COUNT(DISTINCT) (also with FILTER clauses) on integer-like, floating-point (NaN one value, 0.0 and -0.0 two, as Double#equals), DECIMAL, string and binary values and SUM(DISTINCT)/MIN/MAX(DISTINCT) on TUMBLE windows, in one and two phases (the partial aggregates carry the distinct values in the RAW distinct views, in Sluice's own encoding). SESSION windows (the window TVF, with or without PARTITION BY) on a TIMESTAMP(3) event-time attribute, in one phase: each row's window [ts, ts + gap) merges with the key's sessions it touches (their accumulators merged), a row whose window ends behind the watermark without touching a live session is dropped, a session fires when the watermark reaches its end, as Flink's MergingWindowSet and UnsliceSyncStateWindowAggProcessor; COUNT, SUM, $SUM0, MIN, MAX, AVG and FILTER clauses on the types above. Fallback: other aggregate functions, DISTINCT, FIRST_VALUE and LAST_VALUE on SESSION windows, SESSION windows on processing time or on a TIMESTAMP_LTZ attribute"},
	{Type: WindowTableFunctionType, compile: node(CompileWindowTableFunction),
		Doc: "window TVFs that no aggregation follows directly (FROM TABLE(TUMBLE/HOP/CUMULATE(...)) selected, filtered, or feeding a window join) on a TIMESTAMP(3) event-time attribute, or a TIMESTAMP_LTZ(3) one in the session time zone, with offsets: each row once per window, in the order of Flink's group window assigners (HOP from the latest window back, CUMULATE by ascending end), with window_start, window_end and window_time; rows whose time attribute is NULL dropped, record timestamps erased, as AlignedWindowTableFunctionOperator. Not native yet: processing time, SESSION"},
	{Type: WindowJoinType, compile: node(CompileWindowJoin), keyed: true,
		Doc: "joins of two window TVFs (TUMBLE, HOP, CUMULATE on event time) on their windows and equality keys, with a condition on both rows: INNER, LEFT, RIGHT and FULL OUTER, SEMI and ANTI (IN/EXISTS, NOT IN/NOT EXISTS); each side's rows wait in state per key group and window until the watermark passes the window's end, then they are joined as Flink's WindowJoinOperator joins them (outer rows padded with NULLs, NULL keys matching nothing) and rows of fired windows are dropped as late; both inputs arrive through columnar exchanges keyed by the join keys (Flink runs window joins on event time only). Not native yet: joins without equality keys"},
	{Type: IntervalJoinType, compile: node(CompileIntervalJoin), keyed: true,
		Doc: "joins whose condition bounds the difference of the two inputs' event-time attributes (l.ts BETWEEN r.ts - INTERVAL ... AND r.ts + INTERVAL ...), on equality keys, with a condition on both rows: INNER, LEFT, RIGHT and FULL OUTER; a row joins the other side's cached rows of its interval as it arrives and stays cached while rows of the other side can still join it; per key, cleanup timers remove the rows the watermark has passed and pad an outer side's rows that never joined, step by step as Flink's RowTimeIntervalJoin (table.exec.interval-join.min-cleanup-interval included), and the watermarks it forwards are held back by the larger relative bound; TIMESTAMP(3) and TIMESTAMP_LTZ(3) time attributes. On processing time (PROCTIME() attributes) as ProcTimeIntervalJoin: each row's time is the clock when it arrives, the clock is the operator time that decides which rows are cached and which expire, the cleanup timers fire on the clock, and watermarks pass unchanged. Both inputs arrive through columnar exchanges keyed by the join keys. Not native yet: joins without equality keys, bounds of negative size (Flink plans no join then)"},
	{Type: RegularJoinType, compile: node(CompileRegularJoin), keyed: true,
		Doc: "joins on equality keys without time bounds, of inputs that insert, update and delete (changelogs, also upserts without UPDATE_BEFORE under an upsert sink), with a condition on both rows: INNER, LEFT, RIGHT and FULL OUTER, SEMI and ANTI (IN/EXISTS and NOT EXISTS subqueries); each input keeps its rows per key as Flink's JoinInputSideSpec decides from its upsert keys (distinct rows with their counts without one, one row per join key when the join key contains one, else one row per unique key), with their numbers of associations on an outer side or a SEMI/ANTI join's left side, in state per key group; every row joins the other side's kept rows as it arrives and is then kept (+I, +U) or retracted (-U, -D), an inner join forwarding its kind, an outer side's row that joins nothing coming out NULL-padded (+I), retracted (-D) when a row first joins it and padded again when its last join is retracted, as Flink's StreamingJoinOperator and JoinHelper (a SEMI join emits or retracts a left row as its matches come and go, an ANTI join the reverse, as StreamingSemiAntiJoinOperator); both inputs arrive through columnar exchanges keyed by the join keys, a changelog with its RowKinds. State TTLs per input (table.exec.state.ttl or STATE_TTL hints) as the state views' StateTtlConfig: a kept row is gone a TTL after its last write (added, its count or, on an outer side, its number of associations changed). With mini-batches (table.exec.mini-batch.enabled) INNER, LEFT, RIGHT and FULL joins as MiniBatchStreamingJoinOperator: both inputs' rows buffered until the bundle holds table.exec.mini-batch.size rows of the two together, a watermark comes, a checkpoint barrier or the end of input, each input's rows folded as its buffer folds them (an update replacing the accumulate before it, an accumulate and its retraction cancelling: by the last row of a join key or unique key, by equal contents without a unique key), then one input's buffer joined after the other's (right first; left first for RIGHT) in the order of Flink's HashMaps (the join keys' map keeping its capacity from bundle to bundle), a retraction and the accumulate after it joined as a suppressed pair (the row replaced in place, the other side's outer rows not padded in between); SEMI and ANTI joins run without mini-batches as in Flink. Not native yet: joins without equality keys (NOT IN)"},
	{Type: GroupAggregateType, compile: groupAggregate(OnePhase), keyed: true,
		Doc: "GROUP BY aggregations outside windows: COUNT(*), COUNT, SUM, $SUM0, MIN, MAX, AVG on the types the window aggregation takes, FILTER clauses, with or without grouping keys; one accumulator row per key in state per key group, and per input row the change Flink's GroupAggFunction emits (+I for a key's first row, -U/+U for a later one whose result differs, nothing when it stays equal), rows carrying their RowKind. Over inputs with updates or deletes (an aggregation of an aggregation, of an outer join) -U/-D rows are retracted as Flink's *WithRetract functions retract them (SUM with a count of its values, MIN/MAX with a count per value), each key counts its rows, and a key whose rows are all retracted is deleted (-D of its last result). DISTINCT calls (also with FILTER clauses) on integer-like, floating-point, DECIMAL, string and binary values count each value per key as Flink's DistinctAggCodeGen does (a value reaches the inner function when its count goes from 0 to 1 and leaves it when it returns to 0). A state TTL (table.exec.state.ttl or the node's state hint) as GroupAggFunction's StateTtlConfig: a key's state is gone a TTL after its last write (its next row inserts, a retraction of it is dropped), and every update is emitted, equal results too. With mini-batches in one phase (table.optimizer.agg-phase-strategy ONE_PHASE) as KeyedMapBundleOperator over MiniBatchGroupAggFunction: rows buffered per key until the bundle holds table.exec.mini-batch.size rows, a watermark of the mini-batch assigner comes or a checkpoint barrier, then aggregated key by key in the order of Flink's HashMap of BinaryRowData keys (which keeps its capacity from bundle to bundle), each key emitting once for all its rows, its count judged after its last row, leading retractions of a key without state dropped, and the rest of the bundle dropped at a key without state whose rows all retract, as Flink does. Not native yet: FIRST_VALUE/LAST_VALUE, retracting SUM/AVG of DECIMAL and MIN/MAX of DECIMAL, strings, bytes and booleans, DISTINCT with a state TTL, two-phase mini-batch aggregation (local/global) and incremental aggregation"},
	{Type: DeduplicateType, compile: node(CompileDeduplicate), keyed: true,
		Doc: "ROW_NUMBER() OVER (PARTITION BY keys ORDER BY a time attribute) = 1, of inputs that only insert, as Flink's deduplicate functions: " +
			"on event time (a TIMESTAMP(3) or TIMESTAMP_LTZ(3) attribute) the last row (a row as late or later replaces the kept one: +I, then -U/+U) or the first row " +
			"(insert-only: a key's earliest row waits until the watermark passes its time and is emitted once, late rows dropped; or, where Flink plans it, with updates when an earlier row comes); " +
			"on processing time the first row (+I, once per key) or the last row (-U/+U; a row equal to the kept one, RowKind included as Flink's heap or copying state holds it, replaces it silently); the kept row of each key in state per key group. A state TTL as the functions' StateTtlConfig: a key's state is gone a TTL after its last write (its next row is a first row again), and a last row equal to the kept one is emitted. " +
			"With mini-batches on processing time (table.exec.mini-batch.enabled) as KeyedMapBundleOperator over ProcTimeMiniBatchDeduplicateKeepFirstRowFunction and ProcTimeMiniBatchDeduplicateKeepLastRowFunction: each key's first (or latest) row of the bundle waits until the bundle holds table.exec.mini-batch.size rows, a watermark of the mini-batch assigner comes or a checkpoint barrier, and is then deduplicated as above, keys in the order of Flink's HashMap of BinaryRowData keys. " +
			"With mini-batches on event time as KeyedMapBundleOperator over RowTimeMiniBatchDeduplicateFunction (behind an event-time mini-batch assigner): every row waits in the bundle, and each key's rows are then deduplicated in arrival order as above, keys in the HashMap's order. Not native yet: " +
			"a state TTL on the insert-only event-time first row, a state TTL with mini-batches on event time, compacted changes (table.exec.deduplicate.mini-batch.compact-changes-enabled)"},
	{Type: DropUpdateBeforeType, compile: node(CompileDropUpdateBefore),
		Doc: "the -U rows of a changelog dropped, the others passed on unchanged with their RowKinds, as Flink's DropUpdateBeforeFunction (in front of a sink or an operator that takes upserts without update-befores)"},
	{Type: ChangelogNormalizeType, compile: node(CompileChangelogNormalize), keyed: true,
		Doc: "ChangelogNormalize, which the planner puts after an upsert source (upsert-kafka) or a changelog source with a primary key that may repeat events, keyed by the unique key, as Flink's ProcTimeDeduplicateKeepLastRowFunction over a changelog (DeduplicateFunctionHelper#processLastRowOnChangelog): each key's last row kept in state per key group as BinaryRowData (as an insert); a +I or +U row emitted as +I for a new key, else as -U of the kept row (with generateUpdateBefore) and +U, except a +I byte for byte equal to the kept row (Flink's equaliser compares BinaryRowData bytes, RowKind included), which is dropped; a -U or -D row emitted as -D of the kept row (the full row, not the incoming one, which may hold only the key) and the key's state cleared, dropped for a key without one. A state TTL (table.exec.state.ttl or the node's state hint) as the function's StateTtlConfig: a key's state gone a TTL after its last write, and equal rows emitted all the same. Not native yet: mini-batches (ProcTimeMiniBatchDeduplicateKeepLastRowFunction), a filter condition pushed into the node"},
	{Type: RankType, compile: node(CompileRank), keyed: true,
		Doc: "Top-N: ROW_NUMBER() OVER (PARTITION BY keys ORDER BY fields) in a constant range [start, N]: of inputs that only insert as Flink's AppendOnlyTopNFunction (FastTop1Function for the top 1: a row replaces the kept one when it sorts strictly first, -U/+U): " +
			"per key the sort keys in order with their rows in arrival order (TopNBuffer), a row pushed out of the top N deleted (-D), or with rank numbers or an offset each rank's row updated (-U/+U) as rows move down; " +
			"sort fields of the types whose order Flink's comparator defines totally (not FLOAT/DOUBLE, whose NaN compares equal to every value); state per key group. " +
			"Over inputs with updates or deletes (Flink's Retract strategy) as RetractableTopNFunction: every row kept per key with each sort key's count, a row entering or leaving emitting the changes it makes to the top N (-D/+I, or with rank numbers or an offset -U/+U along the ranks; with an offset and no rank numbers the kept rows take the kinds they were emitted with, as Flink's row objects do on the heap backend and on RocksDB where the list is written back). Not native yet: the UpdateFast strategy (an input with a unique key and monotonic sort fields), a rank end from a column, ordering by processing time, a state TTL"},
	{Type: OverAggregateType, compile: node(CompileOverAggregate), keyed: true,
		Doc: "aggregates OVER (PARTITION BY keys ORDER BY an event-time attribute) on TIMESTAMP(3) and TIMESTAMP_LTZ(3) attributes, of inputs that only insert: " +
			"ROWS and RANGE frames from UNBOUNDED PRECEDING, N PRECEDING rows or an INTERVAL PRECEDING up to the current row; each row waits in state per key group until the watermark passes its time, " +
			"then comes out with its frame's aggregates (ROWS: each row its own result, in arrival order within a time; RANGE: the rows of a time one result), as Flink's RowTime*PrecedingFunction " +
			"(both unbounded OVER versions; late rows dropped: at or before the watermark, or on bounded frames at or before the key's last fired time, which is 0 for a new key, so that rows at or before the epoch are dropped as in Flink; a bounded RANGE frame's cleanup timers); " +
			"COUNT(*), COUNT, SUM, $SUM0, MIN, MAX, AVG as the group aggregation takes them (bounded frames retract, as the *WithRetract functions). " +
			"On processing time, as ProcTimeUnboundedPrecedingFunction (ROWS and RANGE) and ProcTimeRowsBoundedPrecedingFunction: each row aggregated and emitted as it arrives, a bounded ROWS frame retracting its oldest row once full. Not native yet: bounded RANGE frames on processing time, a ROWS frame of the current row alone on processing time (Flink's loses its oldest time), ordering by other columns, FILTER, DISTINCT, constant arguments, floating-point SUM/AVG over a bounded RANGE frame (Flink retracts in its state backend's map order), a state TTL"},
	{Type: MiniBatchAssignerType, compile: node(CompileMiniBatchAssigner),
		Doc: "mini-batches on processing time (table.exec.mini-batch.enabled, allow-latency, size): rows pass unchanged, and a watermark at the start of the current interval goes out before the first row of each new interval and on a timer each interval, upstream watermarks stopping here except the final one, as Flink's ProcTimeMiniBatchAssignerOperator; its watermarks finish the bundles of the mini-batch operators after it. On event time (RowTime mode, which Flink picks under event-time window aggregations and joins) as RowTimeMiniBatchAssginerOperator: rows pass unchanged, and an upstream watermark goes on only once it reaches the end of the current interval of event time (the final watermark at once)"},
	{Type: LocalGroupAggregateType, compile: groupAggregate(LocalPhase),
		Doc: "local phase of Flink's two-phase group aggregation with mini-batches (MapBundleOperator over MiniBatchLocalGroupAggFunction), of input that only inserts: each bundle's rows aggregated per key into partial accumulators, emitted per key in the order of Flink's HashMap when the bundle is finished; the aggregates of the one-phase aggregation, FILTER clauses; no state. Over input with retractions (-U/-D rows retracted in their place in arrival order) COUNT, COUNT(*), $SUM0 and AVG, with the COUNT(*) Flink's planner appends to count the rows. Not native yet: SUM, MIN and MAX over retractions, DISTINCT"},
	{Type: GlobalGroupAggregateType, compile: groupAggregate(GlobalPhase), keyed: true,
		Doc: "global phase of Flink's two-phase group aggregation (KeyedMapBundleOperator over MiniBatchGlobalGroupAggFunction): each bundle's partial accumulators merged per key into a buffer, the buffer merged into the key's state, and the key's change emitted (+I, -U/+U when its result differs, or with a state TTL always), keys in the order of Flink's HashMap; state per key group in Flink's checkpoints. Over input with retractions a key whose record count is 0 after the merge is deleted (-D of its last result, nothing for a key without state) with its state, the count being the COUNT(*) the query has or Flink's planner appends (whose result is neither compared nor output)"},
	{Type: LocalWindowAggregateType, compile: windowAggregate(LocalPhase),
		Doc: "local phase of Flink's two-phase window aggregation (same windows and aggregates); no state"},
	{Type: GlobalWindowAggregateType, compile: windowAggregate(GlobalPhase), keyed: true,
		Doc: "global phase of Flink's two-phase window aggregation; state per key group in Flink's checkpoints"},
	{Type: FlussScanType, compile: node(CompileFlussScan),
		Doc: "streaming scans of Fluss log tables and of primary-key tables' changelogs from an offset ('scan.startup.mode' earliest, latest or timestamp), not partitioned, without a data lake: Fluss's source enumerates and assigns the buckets and keeps their offsets in checkpoints; each bucket's log is fetched raw from its leader (projected columns only) and the fetched log batches (Arrow IPC record batches, ZSTD or LZ4 compressed, with a change type per row for a changelog) go to Go untouched, decoded into Arrow batches of BOOLEAN, integer, FLOAT, DOUBLE, DECIMAL, STRING, BYTES, DATE, TIME(0-3), TIMESTAMP(0-6) and TIMESTAMP_LTZ(0-6) columns (a TIMESTAMP(4-6) before 1970 with a fraction of a millisecond fails, as Fluss's reader fails on it), rows before the split's offset dropped. Not native yet (Fluss's reader and a row edge): partitioned tables, a primary-key table's snapshot ('full' startup), data lakes, bounded reads, other types. A log whose segments were moved to remote (tiered) storage fails the native scan with an error naming the table and bucket"},
	{Type: IcebergScanType, compile: node(CompileIcebergScan),
		Doc: "bounded and streaming ('streaming' = 'true': the current snapshot, then the appends of later snapshots, as Flink SQL's default Iceberg source) scans of Iceberg tables (an Iceberg catalog's tables, or 'connector' = 'iceberg'), v1 and v2 (position deletes applied, as the connector's delete filter applies them): Flink's Iceberg source (FLIP-27) plans, assigns and checkpoints the splits, Go reads their Parquet data files (columns by Iceberg field id, added columns as NULL, int->long, float->double and decimal widening as Iceberg's Flink reader) into Arrow batches that go straight into the native chain; BOOLEAN, INT, BIGINT, FLOAT, DOUBLE, DECIMAL, STRING, BYTES, BINARY(L) (fixed, uuid), DATE, TIME, TIMESTAMP(6), TIMESTAMP_LTZ(6), and ROW, ARRAY, MAP of these (struct fields by field id at every level, missing ones as NULL); files without field ids (imported) through the table's name mapping. Not native yet (the whole scan stays Flink's reader): streaming reads with start or end options on the legacy source, pushed filters on FLOAT/DOUBLE columns, format version 3, equality deletes, LIMIT pushdown, ORC/Avro data files, 'watermark-column', 'scan.parallelism'"},
	{Type: AdbcScanType, compile: node(CompileAdbcScan),
		Doc: "bounded scans of warehouse tables through ADBC drivers ('connector' = 'adbc', or the tables of an ADBC catalog: PostgreSQL and SQLite through ADBC's C drivers, Flight SQL servers through ADBC's Go driver): the query's Arrow stream (only the projected columns are selected) goes into the native chain; 'scan.partition.column', 'scan.partition.num', 'scan.partition.lower-bound' and 'scan.partition.upper-bound' split the read into BETWEEN ranges as Flink's JDBC source splits it; values as Flink's JDBC source reads them (DECIMAL rounded HALF_UP to the scale and NULL past the precision, TIME in whole seconds as java.sql.Time#toLocalTime); BOOLEAN, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL, strings, binaries, DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ (p <= 6). A job that runs on Flink reads the table with the same Go reader, its rows encoded as BinaryRowData. Not yet: ARRAY columns, filter and LIMIT pushdown (filters run in the native Calc above), lookups"},
	{Type: ScanType, compile: compileTableScan,
		Doc: "Kafka tables ('connector' = 'kafka') in the json format: Flink's Kafka source polls, assigns partitions, checkpoints and commits offsets, and the record values of each partition's fetch go to Go in one call, which decodes them exactly as Flink's json format (streaming parser) does into one Arrow batch; a record whose result depends on Jackson's or java.time's corner cases (malformed JSON, duplicate keys, Java-only number spellings, ...) is decoded by the table's own Flink deserializer inside the same batch, in record order, with its errors, skips and null rows; a pushed WATERMARK runs per partition in Flink's own watermark machinery (periodic emission, idleness) on each fetch's maximum of the expression computed in Go; the json options fail-on-missing-field, ignore-parse-errors and timestamp-format.standard; columns of the flat types and ROWs of them (nested objects, at any depth); the metadata columns offset, partition, topic, timestamp, timestamp-type and leader-epoch, appended in Go from the record metadata the source hands over with each fetch. Keys in the json, csv or raw format (key.fields, key.fields-prefix, value.fields-include) decoded the same way from the record keys handed over beside the values. Kafka tables in the csv format the same way: Jackson's CSV grammar and Flink's text converters for the flat types (csv.field-delimiter, quote-character, disable-quote-character, escape-character, allow-comments, null-literal, ignore-parse-errors), records with line breaks, the escape character, comment marks, a wrong number of values or texts outside the forms reproduced decoded by Flink's deserializer. Kafka tables in the avro format the same way (binary encoding, flat types, TIMESTAMP(p <= 3) in both timestamp mappings; once a record leaves bytes over, which Flink's buffered decoder reads into the next record, the subtask's later records decoded by Flink's deserializer). Kafka tables in the raw format the same way: the value as the one column's UTF-8 string or bytes, or a BOOLEAN, integer, FLOAT or DOUBLE in raw.endianness's byte order (raw.charset UTF-8), an empty value or one of the wrong length decoded by Flink's deserializer. Kafka tables in the debezium-json format the same way, as a changelog: each envelope decoded by the json decoder in the mode of Flink's tree deserializer (values where the tree and streaming paths differ left to Flink), op c/r giving +I, u giving -U and +U, d giving -D, the rows carrying their RowKinds into the chain's row stages; envelopes Flink fails or skips (unknown or missing op, an update or delete without before, a create without after) decoded by Flink's deserializer. With debezium-json.schema-include the envelope is the record's payload. upsert-kafka tables the same way, as a changelog: the key's fields (the PRIMARY KEY's columns, key.format) and the value's (value.format, value.fields-include) decoded in Go, a record with a value an insert (+I), a tombstone (a record without a value, which the source marks apart from an empty one) a delete (-D) of its key's row with NULL in the value's other fields, as Flink's DynamicKafkaDeserializationSchema in upsert mode; the ChangelogNormalize after it runs natively. Not native yet (the source stays Flink's and its rows are transposed once): ARRAY and MAP columns, other formats (avro-confluent, ...), debezium-json's metadata, keys, Kafka metadata columns, a WATERMARK or ROW columns beside debezium-json changes, ARRAY and ROW columns of csv and avro tables, RAW columns, other key formats, the headers metadata column, on-event watermark emission, watermark alignment, scan.parallelism, a WATERMARK on an upsert-kafka table, a plan whose rows go to a DataStream (the native scan's rows do not carry the Kafka timestamps as record timestamps). Filesystem tables in Parquet on the local file system: Flink's FileSource plans, assigns and checkpoints the splits, Go reads them (row groups by midpoint, columns by exact name, missing columns as NULL, Flink's type conversions) into Arrow batches that go straight into the native chain; bounded and 'source.monitor-interval' streaming; BOOLEAN, integers, FLOAT, DOUBLE, DECIMAL, strings, binaries, DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ (p ≤ 9) from INT96 and INT64 (JVM-zone wall clock unless 'parquet.utc-timezone'); ROW, ARRAY and MAP columns of those types but timestamps, nested in any way, in the standard layouts (three-level LIST and MAP groups, ROW fields in the file's order; other layouts fail with an error, as Flink's nested reader reads them differently); partitioned tables (values from the directory names, parsed as Flink parses them; pruned partitions). Not native yet (the scan stays Flink's reader, the rest of the plan can still be native): timestamps inside nested columns, partition columns of types Flink cannot convert, metadata columns, 'source.path.regex-pattern', non-local paths"},
	{Type: SinkType, compile: compileTableSink,
		Doc: "inserts into Kafka tables ('connector' = 'kafka') in the json format, fed by a native chain of inserts: Go encodes each batch's rows into record values byte for byte as Flink's json format writes them (json.timestamp-format.standard, json.encode.decimal-as-plain-number, json.encode.ignore-null-fields), NOT NULL columns checked as Flink's ConstraintEnforcer does, and Flink's KafkaSink, as the table's connector builds it, writes them (sink.delivery-guarantee with exactly-once transactions, its producer properties and transactional id prefix, and the default, round-robin or fixed partitioner). Keys in the json, csv or raw format (key.fields, key.fields-prefix, value.fields-include) encoded beside the values, the producer partitioning by them. A written timestamp metadata column as the records' timestamps. Inserts into Kafka tables in the avro format the same way (binary, flat types, TIMESTAMP(p <= 3) as epoch milliseconds). Inserts into Kafka tables in the csv format the same way (Jackson's loose quoting check, the null literal, decimals plain unless csv.write-bigdecimal-in-scientific-notation is set; FLOAT/DOUBLE columns, in json too, only when the planning JVM is Java 8 to 18; not csv.escape-character). Inserts into Kafka tables in the raw format the same way (the one column's UTF-8 bytes, bytes or number in raw.endianness's byte order; a NULL field a record without a value). Changes into Kafka tables in the debezium-json format the same way (+I/+U as {\"before\":null,\"after\":ROW,\"op\":\"c\"}, -U/-D as {\"before\":ROW,\"after\":null,\"op\":\"d\"}, debezium-json.encode.ignore-null-fields leaving NULLs out). Changes into upsert-kafka tables the same way, the chain's batches carrying their RowKinds: the key from the primary key's columns, +I/+U rows' values as inserts, -U/-D rows as records without a value (tombstones), as Flink's upsert-mode serializer writes them. Not native yet (Flink's format writes the rows the chain hands back): other formats, RAW columns, the headers metadata column, custom partitioners, several topics, sink.parallelism, nested types, the upsert-kafka buffer (sink.buffer-flush.*), an input whose upsert key is not the primary key (SinkUpsertMaterializer), table.exec.sink.keyed-shuffle FORCE. Filesystem tables in Parquet on the local file system, fed by a native chain: Flink's streaming file writer keeps part files, rolling, checkpoint commits and partition commits; Go splits rows by partition (directories named as Flink names them; partition keys of integer, BOOLEAN, DATE, TIME, DECIMAL, string and TIMESTAMP(p <= 6) types, and FLOAT/DOUBLE as Java 8 to 18's Float/Double#toString print them where the planning JVM is one of those) and writes the files with Flink's Parquet conventions (INT96 or INT64 timestamps, FLBA decimals, SNAPPY, 128 MB row groups; ROW, ARRAY and MAP columns as ParquetSchemaConverter's groups with Dremel levels computed in Go, a NULL map key failing as in Flink); NOT NULL columns checked as Flink's ConstraintEnforcer does ('table.exec.sink.not-null-enforcer': ERROR fails with Flink's message, DROP drops the row). Not native yet: binary and TIMESTAMP(p > 6) partition keys, FLOAT/DOUBLE keys on Java 19 and later, sink.shuffle-by-partition.enable, auto-compaction, partial column inserts, 'table.exec.sink.type-length-enforcer' on CHAR/VARCHAR(n)/BINARY/VARBINARY(n) columns, 'table.exec.sink.nested-constraint-enforcer' on nested columns"},
	{Type: IcebergSinkType, compile: node(CompileIcebergSink),
		Doc: "inserts into Iceberg tables (an Iceberg catalog's tables, or 'connector' = 'iceberg'), format v1 and v2, Parquet data files, fed by a native chain: Flink's Iceberg sink (the v1 FlinkSink or, with 'table.exec.iceberg.use-v2-sink', the v2 IcebergSink) keeps its writer operator, file naming, rolling at 'write.target-file-size-bytes', committer and checkpoint-idempotent commits; Go writes the data files (Iceberg's Parquet schema with field ids, the values FlinkParquetWriters stores, 'write.parquet.*' codec, level, row group, page and dictionary sizes) and Iceberg's own code computes their metrics from the footer. Partitioned tables: one open file per partition, partitions computed in Go with Iceberg's identity, year, month, day, hour, bucket[N], truncate[W] and void transforms (integers, BIGINT, BOOLEAN, DECIMAL, FLOAT and DOUBLE, strings, binaries, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ as the transform allows). ROW, ARRAY and MAP columns as Iceberg's groups with field ids on every part; uuid columns from BINARY(16). NOT NULL (required) columns checked as Flink's ConstraintEnforcer does ('table.exec.sink.not-null-enforcer'). The HASH distribution mode of partitioned tables: Go splits batches by partition, Flink shuffles them by the partition path Iceberg names (the connector's key). Not native yet: upsert and equality fields, INSERT OVERWRITE, 'write-parallelism', 'table-refresh-interval', RANGE distribution, ORC/Avro, encrypted tables, format version 3, TIMESTAMP(p > 6), bloom filters"},
	{Type: AdbcSinkType, compile: node(CompileAdbcSink),
		Doc: "inserts and upserts into warehouse tables through ADBC drivers ('connector' = 'adbc', or the tables of an ADBC catalog: PostgreSQL and SQLite through ADBC's C drivers, Flight SQL servers through ADBC's Go driver), fed by a native chain as Arrow batches (a changelog's with their RowKinds; a job that runs on Flink feeds the same writer with rows): bulk ingestion (COPY for PostgreSQL) of 'sink.buffer-flush.max-rows' rows at a time; 'sink.delivery-guarantee' exactly-once (the default: each checkpoint's rows written in one PostgreSQL transaction, prepared before the barrier and committed when the checkpoint completes (a sink with a 'sink.transactional-id-prefix', or 'sink.commit-mode' = 'two-phase'), or else in a stage table of their own moved into the table when the checkpoint completes; either way the commit is recorded in 'sink.commit-table' in the same transaction, so that replayed commits are skipped), at-least-once or none; tables with a PRIMARY KEY (PostgreSQL) take +I/+U/-U/-D by the key, the last change of a key winning as in Flink's JDBC sink; BOOLEAN, integers, FLOAT, DOUBLE, DECIMAL, strings, binaries, DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ (p <= 6); NOT NULL columns checked as Flink's ConstraintEnforcer does. Not yet: an input whose upsert key is not the primary key (SinkUpsertMaterializer) or table.exec.sink.keyed-shuffle FORCE in front of a native sink (Flink's sink takes the chain's rows), ROW/ARRAY/MAP columns, TIMESTAMP(p > 6)"},
	{Type: ExchangeType, compile: func(*IslandNode, map[string]string) (Node, []string, error) { return &Exchange{}, nil, nil },
		Doc: "hash (and single-subtask) exchanges between native chains into a window aggregation carry Arrow batches split per subtask in Go by Flink's key groups (sluice.exchange.columnar); other exchanges are Flink's own, with rows"},
	{Type: GroupWindowAggregateType, compile: func(*IslandNode, map[string]string) (Node, []string, error) {
		return nil, []string{"legacy group windows (GROUP BY TUMBLE/HOP/SESSION(...), planned as " + GroupWindowAggregateType +
			") are not supported natively yet; the window TVF syntax (FROM TABLE(TUMBLE(...)) GROUP BY window_start, window_end) is"}, nil
	}},
}

// node adapts a compile function to the registry.
func node[T Node](compile func(*IslandNode, map[string]string) (T, []string, error)) func(*IslandNode, map[string]string) (Node, []string, error) {
	return func(n *IslandNode, options map[string]string) (Node, []string, error) {
		return wrap(compile(n, options))
	}
}

// wrap returns a compiled node as a Node: nil (not a typed nil) on an error.
func wrap[T Node](c T, reasons []string, err error) (Node, []string, error) {
	if err != nil {
		return nil, reasons, err
	}
	return c, reasons, nil
}

// groupAggregate compiles a group aggregation of one phase.
func groupAggregate(phase AggregatePhase) func(*IslandNode, map[string]string) (Node, []string, error) {
	return func(n *IslandNode, options map[string]string) (Node, []string, error) {
		return wrap(CompileGroupAggregate(n, phase, options))
	}
}

// windowAggregate compiles a window aggregation of one phase.
func windowAggregate(phase AggregatePhase) func(*IslandNode, map[string]string) (Node, []string, error) {
	return func(n *IslandNode, options map[string]string) (Node, []string, error) {
		return wrap(CompileWindowAggregate(n, phase, options))
	}
}

// KindOf returns the registered kind of an exec-node type.
func KindOf(typ string) (*Kind, bool) {
	for i := range kinds {
		if kinds[i].Type == typ {
			return &kinds[i], true
		}
	}
	return nil, false
}

// Compile compiles one island node with the island's options. Reasons say why it cannot run
// natively (an unknown node type is one); err is a malformed node.
func Compile(n *IslandNode, options map[string]string) (Node, []string, error) {
	h, err := n.Header()
	if err != nil {
		return nil, nil, err
	}
	k, ok := KindOf(h.Type)
	if !ok {
		return nil, []string{fmt.Sprintf("operator %s is not supported natively yet", displayType(h.Type))}, nil
	}
	c, reasons, err := k.compile(n, options)
	if k.keyed && options[OptLegacyTimerSnapshots] == "true" {
		// Flink then writes the timers of the operator's keyed state backend into raw keyed
		// state, which a native operator's state takes.
		reasons = append(reasons, "keyed native state cannot be checkpointed with RocksDB's heap timers "+
			"('state.backend.rocksdb.timer-service.factory' = 'HEAP': Flink writes those timers to raw keyed state)")
	}
	return c, reasons, err
}

// CompileNative compiles a node that must run natively: reasons are an error naming it.
func CompileNative(n *IslandNode, options map[string]string) (Node, error) {
	c, reasons, err := Compile(n, options)
	if err == nil && len(reasons) > 0 {
		err = fmt.Errorf("node %s cannot run natively: %s", n.Name, strings.Join(reasons, "; "))
	}
	if err != nil {
		return nil, err
	}
	return c, nil
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

// Operators lists the exec nodes that run natively, from the registry: the support matrix.
func Operators() []Operator {
	var out []Operator
	for _, k := range kinds {
		if k.Doc != "" {
			out = append(out, Operator{Type: k.Type, Doc: k.Doc})
		}
	}
	return out
}

// ExecType implements Node.
func (*Calc) ExecType() string { return CalcType }

// ExecType implements Node.
func (*WatermarkAssigner) ExecType() string { return WatermarkAssignerType }

// ExecType implements Node: the type of the aggregation's phase.
func (w *WindowAggregate) ExecType() string {
	switch w.Phase {
	case LocalPhase:
		return LocalWindowAggregateType
	case GlobalPhase:
		return GlobalWindowAggregateType
	}
	return WindowAggregateType
}

// ExecType implements Node.
func (*WindowTableFunction) ExecType() string { return WindowTableFunctionType }

// ExecType implements Node.
func (*WindowJoin) ExecType() string { return WindowJoinType }

// ExecType implements Node.
func (*IntervalJoin) ExecType() string { return IntervalJoinType }

// ExecType implements Node.
func (g *GroupAggregate) ExecType() string {
	switch g.Phase {
	case LocalPhase:
		return LocalGroupAggregateType
	case GlobalPhase:
		return GlobalGroupAggregateType
	}
	return GroupAggregateType
}

// ExecType implements Node.
func (*RegularJoin) ExecType() string { return RegularJoinType }

// ExecType implements Node.
func (*FileScan) ExecType() string { return ScanType }

// ExecType implements Node.
func (*KafkaScan) ExecType() string { return ScanType }

// ExecType implements Node.
func (*IcebergScan) ExecType() string { return IcebergScanType }

// ExecType implements Node.
func (*AdbcScan) ExecType() string { return AdbcScanType }

// ExecType implements Node.
func (*FileSink) ExecType() string { return SinkType }

// ExecType implements Node.
func (*KafkaSink) ExecType() string { return SinkType }

// ExecType implements Node.
func (*IcebergSink) ExecType() string { return IcebergSinkType }

// ExecType implements Node.
func (*AdbcSink) ExecType() string { return AdbcSinkType }

// ExecType implements Node.
func (*Exchange) ExecType() string { return ExchangeType }

// Columns implements Scan.
func (s *FileScan) Columns() []catalog.Type { return s.Schema.Types }

// Columns implements Scan.
func (s *KafkaScan) Columns() []catalog.Type { return s.Types }

// Columns implements Scan.
func (s *IcebergScan) Columns() []catalog.Type { return s.Types() }

// Columns implements Scan.
func (s *AdbcScan) Columns() []catalog.Type { return s.Types() }
