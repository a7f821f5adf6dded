// Package sink opens the writers of native sinks from their compiled nodes: the partitioner
// and file writer of a filesystem table in Parquet, the splitter and data-file writer of an
// Iceberg table, and the writer and committer of an ADBC table.
package sink
