// Package binaryrow is Sluice's codec of Flink's BinaryRowData, the row format of Flink's
// network and of its key selectors, in both directions:
//
//   - Decoder transposes buffers of BinaryRowData rows into Arrow column batches: the row edge
//     into Sluice, and the reader of key rows.
//   - Encoder writes Arrow columns as BinaryRowData bytes: the row edge out of Sluice and the
//     key rows whose hashes pick Flink's key groups. Every byte matches what Flink's
//     RowDataSerializer#toBinaryRow (or, for key rows, its generated projections) writes for
//     the same row (header, null bits, slots, variable part and its zeroed padding), so that
//     Java wraps the bytes without touching a field and hashes agree with Flink's.
//
// The layout rules both sides follow (header and null-bit sizes, field slots, the inline
// marker of short strings, which types live in the fixed-length part, array headers) are in
// layout.go and nowhere else.
package binaryrow
