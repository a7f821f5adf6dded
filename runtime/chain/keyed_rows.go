package chain

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/binaryrow"
	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/keygroup"
)

// keyedRows is the input of the keyed stages that keep whole rows in state (deduplication,
// Top-N, OVER aggregation): rows of Flink's row exchange, or batches of a columnar exchange
// encoded as rows, each with its key group and key row.
type keyedRows struct {
	what     string
	names    []string
	types    []catalog.Type
	keyCols  []int
	cols     []int // the columns the stage reads
	decoder  *binaryrow.Decoder
	encoder  *binaryrow.Encoder
	assigner *keygroup.Assigner
	groups   []int32
	encoded  []byte
	offsets  []int32
}

// keyedBatch is one call's input rows: the columns the stage reads (Col), each row's
// BinaryRowData bytes (Data[Offsets[r]:Offsets[r+1]]), key group and key row (KeyRows[
// KeyOffsets[r]:KeyOffsets[r+1]]). It is valid during the call only.
type keyedBatch struct {
	Col        func(int) arrow.Array
	N          int
	Data       []byte
	Offsets    []int32
	Groups     []int32
	KeyRows    []byte
	KeyOffsets []int32
}

// Row returns row r's bytes.
func (b *keyedBatch) Row(r int) []byte { return b.Data[b.Offsets[r]:b.Offsets[r+1]] }

// Key returns row r's key row.
func (b *keyedBatch) Key(r int) []byte { return b.KeyRows[b.KeyOffsets[r]:b.KeyOffsets[r+1]] }

// newKeyedRows prepares the input of a stage (what names it in errors) over rows of the given
// fields, keyed by keyCols, reading cols (the keys among them).
func newKeyedRows(what string, names []string, types []catalog.Type, keyCols []int, keyTypes []catalog.Type, cols []int,
	maxParallelism int, mem memory.Allocator) (*keyedRows, error) {
	k := &keyedRows{what: what, names: names, types: types, keyCols: keyCols, cols: cols}
	var err error
	if k.decoder, err = binaryrow.NewDecoder(names, types, mem); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if k.encoder, err = binaryrow.NewEncoder(types); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if k.assigner, err = keygroup.NewAssigner(keyTypes, maxParallelism); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return k, nil
}

// rows runs fn over rows of Flink's row exchange.
func (k *keyedRows) rows(data []byte, offsets []int32, fn func(*keyedBatch) error) error {
	n := len(offsets) - 1
	if n < 0 {
		return fmt.Errorf("%s: no offsets", k.what)
	}
	starts, ends := offsets[:n], offsets[1:]
	if err := k.decoder.Check(data, starts, ends); err != nil {
		return fmt.Errorf("%s: %w", k.what, err)
	}
	b, err := decodeSparse(k.decoder, len(k.types), data, starts, ends, k.cols)
	if err != nil {
		return fmt.Errorf("%s: %w", k.what, err)
	}
	defer b.release()
	return k.run(b.Column, data, offsets, n, fn)
}

// batch runs fn over a batch of a columnar exchange, encoding its rows.
func (k *keyedRows) batch(b arrow.RecordBatch, fn func(*keyedBatch) error) error {
	if err := checkBatchColumns(k.what, b, k.names, k.types, k.cols); err != nil {
		return err
	}
	n := int(b.NumRows())
	var err error
	if k.encoded, k.offsets, err = encodeRows(k.encoder, b.Columns(), nil, n, k.encoded, k.offsets); err != nil {
		return fmt.Errorf("%s: %w", k.what, err)
	}
	return k.run(b.Column, k.encoded, k.offsets, n, fn)
}

func (k *keyedRows) run(col func(int) arrow.Array, data []byte, offsets []int32, n int, fn func(*keyedBatch) error) error {
	keys := make([]arrow.Array, len(k.keyCols))
	for i, c := range k.keyCols {
		keys[i] = col(c)
	}
	k.groups = grown(k.groups, n)
	if err := k.assigner.Assign(keys, n, k.groups, nil); err != nil {
		return fmt.Errorf("%s: %w", k.what, err)
	}
	keyRows, keyOffsets := k.assigner.KeyRows()
	return fn(&keyedBatch{Col: col, N: n, Data: data, Offsets: offsets, Groups: k.groups, KeyRows: keyRows, KeyOffsets: keyOffsets})
}
