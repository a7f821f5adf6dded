package topn

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/sluice-project/sluice/exec/changelog"
)

// retractState is one partition key's state in Flink's RetractableTopNFunction: every sort key
// in order with its number of rows (its treeMap), and every sort key's rows in arrival order
// (its dataState). Both are kept, as there, even where they disagree (state that Flink calls
// stale: a retraction of a row it never held).
type retractState struct {
	counts []sortCount
	rows   map[string][][]byte
}

type sortCount struct {
	sortKey []byte
	count   int64
}

// find returns the index of a sort key in the counts, or where it would go.
func (s *retractState) find(sortKey []byte) (int, bool) {
	i := sort.Search(len(s.counts), func(i int) bool { return bytes.Compare(s.counts[i].sortKey, sortKey) >= 0 })
	return i, i < len(s.counts) && bytes.Equal(s.counts[i].sortKey, sortKey)
}

// staled drops counts[i] whose sort key has no rows (RetractableTopNFunction#processStateStaled,
// which only logs with its lenient handling).
func (t *TopN) staled(s *retractState, i int) {
	t.bytes -= int64(len(s.counts[i].sortKey))
	s.counts = append(s.counts[:i], s.counts[i+1:]...)
}

// rowsAt returns the rows of counts[i]'s sort key; without any the entry is stale and dropped
// (ok false: the caller goes on with the entry now at i).
func (t *TopN) rowsAt(s *retractState, i int) ([][]byte, bool) {
	rows, ok := s.rows[string(s.counts[i].sortKey)]
	if !ok {
		t.staled(s, i)
	}
	return rows, ok
}

// dropRow takes row j out of rows.
func (t *TopN) dropRow(rows [][]byte, j int) [][]byte {
	t.bytes -= int64(len(rows[j]))
	return append(rows[:j], rows[j+1:]...)
}

// retract is RetractableTopNFunction#processElement: an accumulating row (+I, +U) counts at its
// sort key, emits the changes it makes to the top N and joins its sort key's rows; a retracting
// row (-U, -D) emits the changes its leaving makes, then leaves the counts and its sort key's
// rows.
func (t *TopN) retract(s *retractState, r Row) error {
	kind := int8(r.Row[0])
	row := append([]byte(nil), r.Row...)
	row[0] = byte(changelog.Insert) // the kind erased, as Flink keeps rows
	withNumber := t.cfg.OutputRankNumber || t.cfg.RankStart > 1
	if kind == changelog.Insert || kind == changelog.UpdateAfter {
		if i, ok := s.find(r.SortKey); ok {
			s.counts[i].count++
		} else {
			s.counts = append(s.counts, sortCount{})
			copy(s.counts[i+1:], s.counts[i:])
			s.counts[i] = sortCount{sortKey: append([]byte(nil), r.SortKey...), count: 1}
			t.bytes += int64(len(r.SortKey))
		}
		var err error
		if withNumber {
			t.emitRetractWithRowNumber(s, r.SortKey, row)
		} else {
			err = t.emitRetractWithoutRowNumber(s, r.SortKey, row)
		}
		s.rows[string(r.SortKey)] = append(s.rows[string(r.SortKey)], row)
		t.bytes += int64(len(row))
		return err
	}
	var removed bool
	var err error
	if withNumber {
		removed = t.retractWithRowNumber(s, r.SortKey, row)
	} else {
		removed, err = t.retractWithoutRowNumber(s, r.SortKey, row)
	}
	if i, ok := s.find(r.SortKey); ok {
		if s.counts[i].count--; s.counts[i].count == 0 {
			t.staled(s, i)
		}
	}
	if !removed {
		if rows, ok := s.rows[string(r.SortKey)]; ok {
			t.removeRow(s, r.SortKey, rows, row)
		}
	}
	return err
}

// removeRow takes the first of a sort key's rows equal to row out of its list (the list
// dropped when empty).
func (t *TopN) removeRow(s *retractState, sortKey []byte, rows [][]byte, row []byte) {
	for j, cur := range rows {
		if bytes.Equal(cur, row) {
			rows = t.dropRow(rows, j)
			break
		}
	}
	t.setRows(s, sortKey, rows)
}

// setRows stores a sort key's rows, or drops its list when empty.
func (t *TopN) setRows(s *retractState, sortKey []byte, rows [][]byte) {
	if len(rows) == 0 {
		delete(s.rows, string(sortKey))
		return
	}
	s.rows[string(sortKey)] = rows
}

// emitKept emits a kept row at a rank (RetractableTopNFunction's collect* with a rank): when
// the rank is in range, and an UPDATE_BEFORE only when Flink generates them. Without rank
// numbers Flink's createOutputRow sets the kind on the row object itself; where that object is
// the one state keeps (shared: every row on the heap backend, on RocksDB only the rows of a list
// written back afterwards), the kept row keeps the kind, and a later retraction, whose kind
// Flink erases to INSERT before comparing, no longer finds it.
func (t *TopN) emitKept(kind int8, row []byte, rank int64, shared bool) {
	if rank < t.cfg.RankStart || rank > t.cfg.RankEnd || (kind == changelog.UpdateBefore && !t.cfg.GenerateUpdateBefore) {
		return
	}
	if shared && !t.cfg.OutputRankNumber {
		row[0] = byte(kind)
	}
	t.emit(kind, row, rank)
}

// emitUpdate emits a row leaving a rank (-U) and one taking it (+U), each whose rows state
// shares (emitKept).
func (t *TopN) emitUpdate(before, after []byte, rank int64, beforeShared, afterShared bool) {
	t.emitKept(changelog.UpdateBefore, before, rank, beforeShared)
	t.emitKept(changelog.UpdateAfter, after, rank, afterShared)
}

// emitRetractWithRowNumber is RetractableTopNFunction#emitRecordsWithRowNumber: the new row
// takes the last rank of its sort key, every row after it moves down a rank (-U/+U), and the last
// of them takes a new rank (+I) while it is in range. The new row joins state after it; other
// lists are written back only on the heap backend.
func (t *TopN) emitRetractWithRowNumber(s *retractState, sortKey, input []byte) {
	end := t.cfg.RankEnd
	var rank int64
	var current []byte
	currentShared := true
	found := false
	for i := 0; i < len(s.counts) && rank <= end; i++ {
		e := s.counts[i]
		switch {
		case !found && bytes.Equal(e.sortKey, sortKey):
			rank += e.count
			current, found = input, true
		case found:
			rows, ok := t.rowsAt(s, i)
			if !ok {
				i--
				continue
			}
			for j := 0; j < len(rows) && rank <= end; j++ {
				t.emitUpdate(rows[j], current, rank, t.cfg.HeapState, currentShared)
				current, currentShared = rows[j], t.cfg.HeapState
				rank++
			}
		default:
			rank += e.count
		}
	}
	if rank <= end {
		t.emitKept(changelog.Insert, current, rank, currentShared)
	}
}

// emitRetractWithoutRowNumber is RetractableTopNFunction#emitRecordsWithoutRowNumber: a new row
// within the top N is inserted, and the row it pushes past the rank end deleted.
func (t *TopN) emitRetractWithoutRowNumber(s *retractState, sortKey, input []byte) error {
	end := t.cfg.RankEnd
	var rank int64
	found := false
	var toCollect, toDelete []byte
	for i := 0; i < len(s.counts) && rank <= end; i++ {
		e := s.counts[i]
		switch {
		case !found && bytes.Equal(e.sortKey, sortKey):
			rank += e.count
			if rank >= t.cfg.RankStart && rank <= end {
				toCollect = input
			}
			found = true
		case found:
			rows, ok := t.rowsAt(s, i)
			if !ok {
				i--
				continue
			}
			if last := rank + e.count; last <= end {
				rank = last
				continue
			}
			at := end - rank
			if at >= int64(len(rows)) {
				return fmt.Errorf("top-n: the row at rank %d of a sort key with %d rows (its state disagrees with itself)", end+1, len(rows))
			}
			toDelete = rows[at]
			i = len(s.counts) // break
		default:
			rank += e.count
		}
	}
	if toDelete != nil {
		t.emit(changelog.Delete, toDelete, 0)
	}
	if toCollect != nil {
		t.emit(changelog.Insert, input, 0)
	}
	return nil
}

// retractWithRowNumber is RetractableTopNFunction#retractRecordWithRowNumber: the retracted
// row leaves its sort key's rows, every row after it moves up a rank (-U/+U), and the last rank
// they held is deleted (-D). Its sort key's list is written back after its loop; later lists only
// on the heap backend. It reports whether the row was found (and taken out of its rows).
func (t *TopN) retractWithRowNumber(s *retractState, sortKey, input []byte) bool {
	end := t.cfg.RankEnd
	var rank int64
	var prev []byte
	found := false
	for i := 0; i < len(s.counts) && rank <= end; i++ {
		e := s.counts[i]
		switch {
		case !found && bytes.Equal(e.sortKey, sortKey):
			rows, ok := t.rowsAt(s, i)
			if !ok {
				i--
				continue
			}
			for j := 0; j < len(rows) && rank <= end; {
				cur := rows[j]
				switch {
				case !found && bytes.Equal(cur, input):
					prev, found = cur, true
					rows = t.dropRow(rows, j)
					rank++
					continue
				case found:
					t.emitUpdate(prev, cur, rank, true, true)
					prev = cur
				}
				rank++
				j++
			}
			t.setRows(s, e.sortKey, rows)
		case found:
			rows, ok := t.rowsAt(s, i)
			if !ok {
				i--
				continue
			}
			for j := 0; j < len(rows) && rank <= end; j++ {
				t.emitUpdate(prev, rows[j], rank, t.cfg.HeapState, t.cfg.HeapState)
				prev = rows[j]
				rank++
			}
		default:
			rank += e.count
		}
	}
	if rank <= end && found { // (Flink logs a stale state when the row is not found)
		t.emitKept(changelog.Delete, prev, rank, t.cfg.HeapState)
	}
	return found
}

// retractWithoutRowNumber is RetractableTopNFunction#retractRecordWithoutRowNumber: a retracted
// row within the top N is deleted, and the row that moves up into the rank end inserted. It
// reports whether the row was found (and taken out of its rows).
func (t *TopN) retractWithoutRowNumber(s *retractState, sortKey, input []byte) (bool, error) {
	end := t.cfg.RankEnd
	next := int64(1) // the next rank
	found := false
	for i := 0; i < len(s.counts) && next <= end; i++ {
		e := s.counts[i]
		switch {
		case !found && bytes.Equal(e.sortKey, sortKey):
			rows, ok := t.rowsAt(s, i)
			if !ok {
				i--
				continue
			}
			for j := 0; j < len(rows) && next <= end; {
				cur := rows[j]
				if !found && bytes.Equal(cur, input) {
					t.emitKept(changelog.Delete, cur, next, true)
					found = true
					rows = t.dropRow(rows, j)
					continue // the next row takes this rank
				}
				if found && next == end {
					t.emitKept(changelog.Insert, cur, next, true)
				}
				next++
				j++
			}
			t.setRows(s, e.sortKey, rows)
		case found:
			if last := next + e.count - 1; last < end {
				next = last + 1
				continue
			}
			rows, ok := t.rowsAt(s, i)
			if !ok {
				i--
				continue
			}
			at := end - next
			if at >= int64(len(rows)) {
				return found, fmt.Errorf("top-n: the row at rank %d of a sort key with %d rows (its state disagrees with itself)", end, len(rows))
			}
			t.emit(changelog.Insert, rows[at], 0)
			i = len(s.counts) // break
		default:
			next += e.count
		}
	}
	return found, nil
}
