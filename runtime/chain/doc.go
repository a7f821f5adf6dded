// Package chain runs a compiled island in one Flink operator: the chain of native nodes between
// two exchanges or edges (a Calc, a watermark assigner, a window aggregation in one or two
// phases, behind a native scan or a columnar exchange), each node's output feeding the next
// inside Go. Rows come in as BinaryRowData or as Arrow batches and leave as BinaryRowData, as
// Arrow batches for a native sink, or split per subtask for a columnar exchange; watermarks,
// processing-time timers, checkpoints and keyed state per key group go through the chain.
package chain
