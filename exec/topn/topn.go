// Package topn is Flink's Top-N (ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) <= N) on
// one subtask: over input that only inserts (AppendOnlyTopNFunction, and FastTop1Function for
// N = 1) per key a buffer of sort keys in order, each with its rows in arrival order, as Flink's
// TopNBuffer keeps them; over input with updates and deletes (RetractableTopNFunction) every
// row, with the sort keys' counts; and the changes Flink emits as rows enter, move within and
// leave the top N.
package topn

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"

	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/exec/stateblob"
)

// Config configures a Top-N.
type Config struct {
	// RankStart and RankEnd are the constant rank range (1-based, inclusive).
	RankStart, RankEnd int64
	// OutputRankNumber says whether the output rows carry their rank.
	OutputRankNumber     bool
	GenerateUpdateBefore bool
	// Retract selects RetractableTopNFunction, for input with updates and deletes (Flink's
	// Retract strategy); otherwise the input only inserts.
	Retract bool
	// HeapState says Flink's keyed state holds the kept row objects themselves (its heap
	// backend) rather than serialized copies; a Retract Top-N with an offset and without rank
	// numbers changes them (emitKept).
	HeapState bool
	// KeyGroups is the subtask's key-group range, whose state it keeps.
	KeyGroups keygroup.Range
}

// Row is one input row: its key group, key row bytes, sort key (EncodeSortKeys: ordered as
// Flink's comparator orders the sort fields) and BinaryRowData bytes. The slices are only read
// during the call.
type Row struct {
	KeyGroup int
	Key      []byte
	SortKey  []byte
	Row      []byte
}

// Change is one output row: a kept row with its RowKind and rank (0 without rank numbers). Row
// stays valid until the next call.
type Change struct {
	Kind int8
	Row  []byte
	Rank int64
}

// entry is one sort key of a buffer with its rows, in arrival order.
type entry struct {
	sortKey []byte
	rows    [][]byte
}

// buffer is one key's state: TopNBuffer (the entries in sort-key order and the number of rows
// in them), or a Retract Top-N's counts and rows.
type buffer struct {
	entries []entry
	size    int64
	retractState
}

// TopN is one subtask's Top-N.
type TopN struct {
	cfg         Config
	groups      []map[string]*buffer
	keys, bytes int64
	changes     []Change
}

// New returns an empty Top-N.
func New(cfg Config) (*TopN, error) {
	if cfg.KeyGroups.End < cfg.KeyGroups.Start {
		return nil, fmt.Errorf("top-n: key groups %v", cfg.KeyGroups)
	}
	if cfg.RankStart < 1 || cfg.RankEnd < cfg.RankStart {
		return nil, fmt.Errorf("top-n: rank range [%d, %d]", cfg.RankStart, cfg.RankEnd)
	}
	return &TopN{cfg: cfg, groups: make([]map[string]*buffer, cfg.KeyGroups.Len())}, nil
}

func (t *TopN) group(kg int) (map[string]*buffer, error) {
	if !t.cfg.KeyGroups.Contains(kg) {
		return nil, fmt.Errorf("top-n: key group %d outside %v", kg, t.cfg.KeyGroups)
	}
	i := kg - t.cfg.KeyGroups.Start
	if t.groups[i] == nil {
		t.groups[i] = map[string]*buffer{}
	}
	return t.groups[i], nil
}

// Changes returns the output rows of the last call, in order.
func (t *TopN) Changes() []Change { return t.changes }

// Process runs rows through the Top-N, in order (AppendOnlyTopNFunction#processElement).
func (t *TopN) Process(rows []Row) error {
	t.changes = t.changes[:0]
	for _, r := range rows {
		m, err := t.group(r.KeyGroup)
		if err != nil {
			return err
		}
		if len(r.Row) == 0 || r.Row[0] > byte(changelog.Delete) {
			return errors.New("top-n: a row without a RowKind")
		}
		if !t.cfg.Retract && int8(r.Row[0]) != changelog.Insert {
			return errors.New("top-n: a row that is not an insert (this Top-N takes inserts only)")
		}
		b := m[string(r.Key)]
		if b == nil {
			b = &buffer{}
			if t.cfg.Retract {
				b.rows = map[string][][]byte{}
			}
			m[string(r.Key)] = b
			t.keys++
			t.bytes += int64(len(r.Key))
		}
		if t.cfg.Retract {
			if err := t.retract(&b.retractState, r); err != nil {
				return err
			}
			if len(b.counts) == 0 && len(b.rows) == 0 {
				delete(m, string(r.Key))
				t.keys--
				t.bytes -= int64(len(r.Key))
			}
			continue
		}
		if t.cfg.RankStart == 1 && t.cfg.RankEnd == 1 {
			t.top1(b, r)
			continue
		}
		if !t.inRange(b, r.SortKey) {
			continue
		}
		row := append([]byte(nil), r.Row...)
		at := t.put(b, r.SortKey, row)
		if t.cfg.OutputRankNumber || t.cfg.RankStart > 1 {
			t.withRowNumber(b, at, row)
		} else {
			t.withoutRowNumber(b, row)
		}
	}
	return nil
}

// top1 is FastTop1Function (Flink's Top-1 of insert-only input): a key's first row is
// inserted, a later one replaces it when its sort key comes strictly first (-U/+U).
func (t *TopN) top1(b *buffer, r Row) {
	if len(b.entries) == 0 {
		row := append([]byte(nil), r.Row...)
		t.put(b, r.SortKey, row)
		t.emit(changelog.Insert, row, 1)
		return
	}
	if bytes.Compare(r.SortKey, b.entries[0].sortKey) >= 0 {
		return
	}
	prev := b.entries[0].rows[0]
	t.dropFrom(b, 0)
	row := append([]byte(nil), r.Row...)
	t.put(b, r.SortKey, row)
	if t.cfg.GenerateUpdateBefore {
		t.emit(changelog.UpdateBefore, prev, 1)
	}
	t.emit(changelog.UpdateAfter, row, 1)
}

// inRange is TopNBuffer#checkSortKeyInBufferRange: a sort key before the buffer's last one, or
// any while the buffer holds fewer rows than the rank end.
func (t *TopN) inRange(b *buffer, sortKey []byte) bool {
	if len(b.entries) == 0 {
		return true
	}
	if bytes.Compare(sortKey, b.entries[len(b.entries)-1].sortKey) < 0 {
		return true
	}
	return b.size < t.cfg.RankEnd
}

// put adds a row at its sort key (after the key's earlier rows) and returns the entry's index.
func (t *TopN) put(b *buffer, sortKey, row []byte) int {
	i := sort.Search(len(b.entries), func(i int) bool { return bytes.Compare(b.entries[i].sortKey, sortKey) >= 0 })
	if i == len(b.entries) || !bytes.Equal(b.entries[i].sortKey, sortKey) {
		b.entries = append(b.entries, entry{})
		copy(b.entries[i+1:], b.entries[i:])
		b.entries[i] = entry{sortKey: append([]byte(nil), sortKey...)}
		t.bytes += int64(len(sortKey))
	}
	b.entries[i].rows = append(b.entries[i].rows, row)
	b.size++
	t.bytes += int64(len(row))
	return i
}

// dropFrom removes the buffer's entries from index i on.
func (t *TopN) dropFrom(b *buffer, i int) {
	for _, e := range b.entries[i:] {
		b.size -= int64(len(e.rows))
		t.bytes -= int64(len(e.sortKey))
		for _, r := range e.rows {
			t.bytes -= int64(len(r))
		}
	}
	clear(b.entries[i:])
	b.entries = b.entries[:i]
}

// withoutRowNumber is AppendOnlyTopNHelper#processElementWithoutRowNumber: past the rank end
// the last row leaves (-D, unless it is the row that came in), and the new row is inserted.
func (t *TopN) withoutRowNumber(b *buffer, input []byte) {
	if b.size > t.cfg.RankEnd {
		last := &b.entries[len(b.entries)-1]
		lastRow := last.rows[len(last.rows)-1]
		if len(last.rows) <= 1 {
			t.dropFrom(b, len(b.entries)-1)
		} else {
			last.rows[len(last.rows)-1] = nil
			last.rows = last.rows[:len(last.rows)-1]
			b.size--
			t.bytes -= int64(len(lastRow))
		}
		if bytes.Equal(input, lastRow) {
			return
		}
		t.emit(changelog.Delete, lastRow, 0)
	}
	t.emit(changelog.Insert, input, 0)
}

// withRowNumber is AppendOnlyTopNHelper#processElementWithRowNumber: the rows after the new
// one move down a rank (-U/+U of each rank up to the end), the last of them takes a new rank
// (+I) while it is in range, and the entries past the rank end leave the buffer.
func (t *TopN) withRowNumber(b *buffer, at int, input []byte) {
	end := t.cfg.RankEnd
	var rank int64
	found := false
	var current []byte
	i := 0
	for i < len(b.entries) && rank <= end {
		e := b.entries[i]
		i++
		switch {
		case !found && i-1 == at:
			rank += int64(len(e.rows))
			current, found = input, true
		case found:
			for j := 0; j < len(e.rows) && rank <= end; j++ {
				prev := e.rows[j]
				if t.cfg.GenerateUpdateBefore {
					t.emitRanked(changelog.UpdateBefore, prev, rank)
				}
				t.emitRanked(changelog.UpdateAfter, current, rank)
				current = prev
				rank++
			}
		default:
			rank += int64(len(e.rows))
		}
	}
	if rank <= end {
		t.emitRanked(changelog.Insert, current, rank)
	}
	t.dropFrom(b, i)
}

// emitRanked emits a row at a rank when the rank is in the range.
func (t *TopN) emitRanked(kind int8, row []byte, rank int64) {
	if rank >= t.cfg.RankStart && rank <= t.cfg.RankEnd {
		t.emit(kind, row, rank)
	}
}

func (t *TopN) emit(kind int8, row []byte, rank int64) {
	if !t.cfg.OutputRankNumber {
		rank = 0
	}
	t.changes = append(t.changes, Change{Kind: kind, Row: row, Rank: rank})
}

// StateKeys is the number of keys in state.
func (t *TopN) StateKeys() int64 { return t.keys }

// StateBytes is the size of the keys, sort keys and rows in state.
func (t *TopN) StateBytes() int64 { return t.bytes }

// State format of one key group (integers little-endian):
//
//	magic "SLTN" | version u16 (2) | strategy u8 (0 append only, 1 retract) | keys u32 |
//	per key: key length u32, key row bytes,
//	         append only: entries u32,
//	                      per entry: sort key length u32, sort key bytes, rows u32,
//	                                 per row: length u32, BinaryRowData bytes
//	         retract:     counts u32, per count: sort key length u32, sort key bytes, count i64;
//	                      row lists u32 (in sort key order),
//	                      per list: sort key length u32, sort key bytes, rows u32,
//	                                per row: length u32, BinaryRowData bytes |
//	CRC-32C of everything before, u32.
//
// Version 1 is version 2 of an append-only Top-N without the strategy byte.
const (
	stateMagic   = "SLTN"
	stateVersion = 2
)

// Snapshot serializes key group kg's buffers (nil when it holds none), keys in sorted order.
func (t *TopN) Snapshot(kg int) ([]byte, error) {
	m, err := t.group(kg)
	if err != nil {
		return nil, err
	}
	if len(m) == 0 {
		return nil, nil
	}
	keys := stateblob.SortedKeys(m)
	b := append(stateblob.Header(stateMagic, stateVersion), boolByte(t.cfg.Retract))
	b = binary.LittleEndian.AppendUint32(b, uint32(len(keys)))
	for _, key := range keys {
		buf := m[key]
		b = stateblob.AppendBytes(b, []byte(key))
		if t.cfg.Retract {
			b = binary.LittleEndian.AppendUint32(b, uint32(len(buf.counts)))
			for _, c := range buf.counts {
				b = stateblob.AppendBytes(b, c.sortKey)
				b = binary.LittleEndian.AppendUint64(b, uint64(c.count))
			}
			sortKeys := stateblob.SortedKeys(buf.rows)
			b = binary.LittleEndian.AppendUint32(b, uint32(len(sortKeys)))
			for _, sk := range sortKeys {
				b = appendRows(stateblob.AppendBytes(b, []byte(sk)), buf.rows[sk])
			}
			continue
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(len(buf.entries)))
		for _, e := range buf.entries {
			b = appendRows(stateblob.AppendBytes(b, e.sortKey), e.rows)
		}
	}
	return stateblob.Seal(b), nil
}

// appendRows appends a number of rows and each row's length and bytes.
func appendRows(b []byte, rows [][]byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(rows)))
	for _, r := range rows {
		b = stateblob.AppendBytes(b, r)
	}
	return b
}

func boolByte(v bool) byte {
	if v {
		return 1
	}
	return 0
}

// Restore reads a key group's buffers written by Snapshot.
func (t *TopN) Restore(kg int, blob []byte) error {
	if err := t.restore(kg, blob); err != nil {
		return fmt.Errorf("top-n state of key group %d: %w", kg, err)
	}
	return nil
}

func (t *TopN) restore(kg int, blob []byte) error {
	m, err := t.group(kg)
	if err != nil {
		return err
	}
	r, version, err := stateblob.Open(blob, stateMagic, "Top-N", 1, stateVersion)
	if err != nil {
		return err
	}
	retract := false
	if version >= 2 {
		retract = r.U8() == 1
	}
	if r.OK() && retract != t.cfg.Retract {
		return fmt.Errorf("state of a Top-N %s restored into one %s", strategyName(retract), strategyName(t.cfg.Retract))
	}
	for n := r.U32(); n > 0 && r.OK(); n-- {
		key := string(r.Bytes())
		buf := &buffer{}
		if retract {
			buf.rows = map[string][][]byte{}
			for c := r.U32(); c > 0 && r.OK(); c-- {
				sc := sortCount{sortKey: r.Bytes(), count: int64(r.U64())}
				if k := len(buf.counts); k > 0 && bytes.Compare(buf.counts[k-1].sortKey, sc.sortKey) >= 0 {
					return fmt.Errorf("sort keys out of order")
				}
				buf.counts = append(buf.counts, sc)
				t.bytes += int64(len(sc.sortKey))
			}
			for l := r.U32(); l > 0 && r.OK(); l-- {
				sk := string(r.Bytes())
				buf.rows[sk] = t.readRows(r)
			}
		} else {
			for e := r.U32(); e > 0 && r.OK(); e-- {
				en := entry{sortKey: r.Bytes()}
				en.rows = t.readRows(r)
				buf.size += int64(len(en.rows))
				t.bytes += int64(len(en.sortKey))
				buf.entries = append(buf.entries, en)
			}
		}
		if _, dup := m[key]; dup {
			return fmt.Errorf("key %q twice", key)
		}
		m[key] = buf
		t.keys++
		t.bytes += int64(len(key))
	}
	return r.End()
}

// readRows reads a number of rows and the rows.
func (t *TopN) readRows(r *stateblob.Reader) [][]byte {
	var rows [][]byte
	for k := r.U32(); k > 0 && r.OK(); k-- {
		row := r.Bytes()
		rows = append(rows, row)
		t.bytes += int64(len(row))
	}
	return rows
}

func strategyName(retract bool) string {
	if retract {
		return "over updates and deletes"
	}
	return "over inserts"
}
