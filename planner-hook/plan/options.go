package plan

import (
	"strconv"
	"strings"
)

// Runtime options that the operator adds to the island plan when it opens a keyed pipeline.
const (
	OptMaxParallelism = "sluice.runtime.max-parallelism"
	OptKeyGroupStart  = "sluice.runtime.key-group-start"
	OptKeyGroupEnd    = "sluice.runtime.key-group-end"
	// OptHeapState is "true" when the operator's keyed state backend holds objects (Flink's
	// heap backend) rather than serialized copies.
	OptHeapState = "sluice.runtime.heap-state"
)

// OptLegacyTimerSnapshots is "true" when the job's state backend is RocksDB with heap timers
// ('state.backend.rocksdb.timer-service.factory' = 'HEAP'), whose timers Flink writes to raw
// keyed state; set by the planner.
const OptLegacyTimerSnapshots = "sluice.state.legacy-timer-snapshots"

// Runtime option: the auto watermark interval (ms) of the job, for a chain that starts with a
// watermark assigner.
const OptAutoWatermarkInterval = "sluice.runtime.auto-watermark-interval"

// Options of chains on either side of a columnar hash exchange.
const (
	// OptExchangeKeys lists the output fields (a JSON array of indices; empty for an exchange
	// into one subtask) by which the chain's output is hash-partitioned: the chain then splits
	// its output into one Arrow batch per target channel (Partition).
	OptExchangeKeys = "sluice.chain.exchange-keys"
	// OptExchangeParallelism and OptExchangeMaxParallelism are the consumer's parallelism and
	// maximum parallelism (key groups), set by the operator at runtime.
	OptExchangeParallelism    = "sluice.runtime.exchange-parallelism"
	OptExchangeMaxParallelism = "sluice.runtime.exchange-max-parallelism"
	// OptBatchInput makes a chain read Arrow batches of its input row type (a columnar
	// exchange's batches) instead of rows.
	OptBatchInput = "sluice.chain.batch-input"
)

// defaultScanBatchRows is the rows of a native scan's batches unless 'sluice.batch.rows' says
// otherwise.
const defaultScanBatchRows = 8192

// scanBatchRows is the rows of a native scan's batches: 'sluice.batch.rows' when positive.
func scanBatchRows(options map[string]string) int {
	if b, err := strconv.Atoi(options["sluice.batch.rows"]); err == nil && b > 0 {
		return b
	}
	return defaultScanBatchRows
}

// The side of a window join that a chain's columnar exchange feeds: the chain marks its
// batches with it (schema metadata JoinSideMetadata), since both exchanges reach the join's
// operator through one input.
const (
	OptExchangeSide  = "sluice.chain.exchange-side"
	JoinSideMetadata = "sluice.join.side"
	JoinSideLeft     = "left"
	JoinSideRight    = "right"
)

// OptMiniBatch is table.exec.mini-batch.enabled ("true" or "false"), and OptStateTTL
// table.exec.state.ttl in milliseconds: the table config a node may not persist.
const (
	OptMiniBatch = "table.exec.mini-batch.enabled"
	OptStateTTL  = "table.exec.state.ttl"
)

// optionTrue reads a boolean option as Flink's configuration does (ConfigurationUtils
// #convertToBoolean: "true" in any case).
func optionTrue(v string) bool { return strings.EqualFold(v, "true") }
