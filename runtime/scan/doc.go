// Package scan opens the readers of native scans from their compiled nodes: Parquet file
// splits of a filesystem table, the data files of an Iceberg scan and the query splits of an
// ADBC scan, each giving Arrow batches that go into a native chain.
package scan
