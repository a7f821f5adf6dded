package scan

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/planner-hook/plan"
	"github.com/sluice-project/sluice/sources/adbc"
)

// openAdbcScan compiles an island JSON of the scan node, or a bare description.
func openAdbcScan(data []byte) (*plan.AdbcScan, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("adbc scan: %w", err)
	}
	if head.Type == plan.AdbcScanType {
		return plan.ParseAdbcScan(data)
	}
	return plan.CompileNodeIsland(data, "adbc scan", plan.CompileAdbcScan)
}

// OpenAdbcSplit opens split i of an ADBC scan (its island JSON, or its bare description on the
// row path), skipping the first skip rows (emitted before a restore).
func OpenAdbcSplit(data []byte, i int, skip int64) (*AdbcSplit, error) {
	s, err := openAdbcScan(data)
	if err != nil {
		return nil, err
	}
	sc, err := s.Split(i)
	if err != nil {
		return nil, err
	}
	r, err := adbc.Open(context.Background(), sc, skip)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.Table, err)
	}
	return &AdbcSplit{Reader: r, types: s.Types()}, nil
}

// AdbcSplit reads one split of an ADBC scan: batches for a native chain (SplitBatches), or
// Flink's rows (NextRows).
type AdbcSplit struct {
	*adbc.Reader
	types []catalog.Type
	enc   *binaryrow.Encoder
}

// NextRows encodes the next batch's rows as BinaryRowData: the row count (int32, little
// endian), the n+1 row offsets (int32) and the rows' bytes; nil after the last batch.
func (s *AdbcSplit) NextRows() ([]byte, error) {
	b, err := s.Next()
	if err != nil || b == nil {
		return nil, err
	}
	defer b.Release()
	if s.enc == nil {
		if s.enc, err = binaryrow.NewEncoder(s.types); err != nil {
			return nil, err
		}
	}
	n := int(b.NumRows())
	offsets := make([]int32, n+1)
	if err := s.enc.Layout(b.Columns(), n, offsets); err != nil {
		return nil, err
	}
	head := 4 * (n + 2)
	out := make([]byte, head+int(offsets[n]))
	binary.LittleEndian.PutUint32(out, uint32(n))
	for i, o := range offsets {
		binary.LittleEndian.PutUint32(out[4*(i+1):], uint32(o))
	}
	if err := s.enc.Encode(b.Columns(), make([]int8, n), n, offsets, out[head:]); err != nil {
		return nil, err
	}
	return out, nil
}
