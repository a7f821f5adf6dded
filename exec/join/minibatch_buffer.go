package join

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/sluice-project/sluice/javacompat/javahash"
)

// sideBuffer is one input's buffer of a mini-batch regular join, as Flink's BufferBundle of the
// input's layout keeps it (JoinKeyContainsUniqueKeyBundle, InputSideHasUniqueKeyBundle,
// InputSideHasNoUniqueKeyBundle): records per join key, folded as they arrive, in
// java.util.HashMaps whose iteration order decides the order the bundle is joined in. The maps
// are replayed call for call (computeIfAbsent, remove), because their order depends on every
// call: the outer map of join keys lives as long as the operator (clear keeps its capacity),
// the inner maps of unique keys or row hash codes are new per bundle.
type sideBuffer struct {
	layout Layout
	// count is the number of rows added since the last flush (folded ones included).
	count int64
	data  []byte // the records' rows, keys and unique keys
	recs  []bufRecord
	// Join keys: one entry per insertion into the outer map (a key removed and added again is
	// a new entry), the live ones indexed by their bytes.
	jks     []bufJoinKey
	jkIndex map[string]int32
	outer   javahash.HashMap
	// Lists of records: per join key (JoinKeyUnique), or per unique key or row hash code of a
	// join key (the inner maps' entries), indexed by listIndex.
	lists     []bufList
	listIndex map[string]int32
	inners    []javahash.HashMap // inner maps, one per join key entry that has one (reused)
	scratch   []byte
}

// bufRecord is a buffered row: spans of data, and links of its list.
type bufRecord struct {
	row, uk    span
	kind       int8
	prev, next int32
}

// span is a slice of sideBuffer.data.
type span struct{ from, to int32 }

// bufJoinKey is an entry of the outer map: the key, its key group and NULL flag, and its list
// (JoinKeyUnique) or inner map.
type bufJoinKey struct {
	key      span
	code     int32
	keyGroup int
	nullKey  bool
	list     int32 // JoinKeyUnique
	inner    int32 // the others
}

// bufList is a list of records (ArrayList): its ends and length, and the inner map key it is
// the value of (a unique key's bytes, or a row hash code).
type bufList struct {
	head, tail, n int32
	uk            span
	code          int32
}

func newSideBuffer(layout Layout) *sideBuffer {
	return &sideBuffer{layout: layout, jkIndex: map[string]int32{}, listIndex: map[string]int32{}}
}

func (b *sideBuffer) bytes(s span) []byte { return b.data[s.from:s.to:s.to] }

func (b *sideBuffer) keep(p []byte) span {
	from := int32(len(b.data))
	b.data = append(b.data, p...)
	return span{from, int32(len(b.data))}
}

// joinKeys is the outer map's view of the join key entries: BinaryRowData keys, equal when their
// bytes are, not comparable.
type joinKeys struct{ b *sideBuffer }

func (k joinKeys) Codes(codes []int32) {
	for i := range codes {
		codes[i] = k.b.jks[i].code
	}
}
func (k joinKeys) Equal(i, j int) bool {
	return string(k.b.bytes(k.b.jks[i].key)) == string(k.b.bytes(k.b.jks[j].key))
}
func (k joinKeys) Compare(int, int) (int, bool) { return 0, false }
func (k joinKeys) IsNull(int) bool              { return false }

// listKeys is an inner map's view of the lists: unique key rows (BinaryRowData, not
// comparable) or row hash codes (Integer, comparable).
type listKeys struct{ b *sideBuffer }

func (k listKeys) Codes(codes []int32) {
	for i := range codes {
		codes[i] = k.b.lists[i].code
	}
}
func (k listKeys) Equal(i, j int) bool {
	if k.b.layout == NoUniqueKey {
		return k.b.lists[i].code == k.b.lists[j].code
	}
	return string(k.b.bytes(k.b.lists[i].uk)) == string(k.b.bytes(k.b.lists[j].uk))
}
func (k listKeys) Compare(i, j int) (int, bool) {
	if k.b.layout != NoUniqueKey {
		return 0, false
	}
	a, c := k.b.lists[i].code, k.b.lists[j].code
	switch {
	case a < c:
		return -1, true
	case a > c:
		return 1, true
	}
	return 0, true
}
func (k listKeys) IsNull(int) bool { return false }

// joinKeyCIA is outer.computeIfAbsent(key): the live entry of the key, or a new one (with a new
// list or inner map) at the head of its bucket.
func (b *sideBuffer) joinKeyCIA(a *Arrival) int32 {
	if e, ok := b.jkIndex[string(a.Key)]; ok {
		// The call still checks the table's growth first.
		b.outer.ComputeIfAbsent(b.jks[e].code, int(e), joinKeys{b})
		return e
	}
	e := int32(len(b.jks))
	jk := bufJoinKey{key: b.keep(a.Key), code: javahash.Bytes(a.Key), keyGroup: a.KeyGroup, nullKey: a.NullKey, list: -1, inner: -1}
	b.jks = append(b.jks, jk)
	b.outer.ComputeIfAbsent(jk.code, int(e), joinKeys{b})
	b.jkIndex[string(b.bytes(jk.key))] = e
	if b.layout == JoinKeyUnique {
		b.jks[e].list = b.newList(span{}, 0)
	} else {
		b.jks[e].inner = b.newInner()
	}
	return e
}

// removeJoinKey is outer.remove(key) for a live entry.
func (b *sideBuffer) removeJoinKey(e int32) error {
	if !b.outer.Remove(b.jks[e].code, int(e), joinKeys{b}) {
		return fmt.Errorf("mini-batch join buffer: a join key to remove is not in the map")
	}
	delete(b.jkIndex, string(b.bytes(b.jks[e].key)))
	return nil
}

// newInner returns a new (empty) inner map, reusing the tables of an earlier bundle's.
func (b *sideBuffer) newInner() int32 {
	n := len(b.inners)
	if n < cap(b.inners) {
		b.inners = b.inners[:n+1]
		b.inners[n].Reset()
	} else {
		b.inners = append(b.inners, javahash.HashMap{})
	}
	return int32(n)
}

func (b *sideBuffer) newList(uk span, code int32) int32 {
	b.lists = append(b.lists, bufList{head: -1, tail: -1, uk: uk, code: code})
	return int32(len(b.lists) - 1)
}

// innerKey is the listIndex key of a join key entry's inner map key: the entry, then the unique
// key's bytes or the hash code.
func (b *sideBuffer) innerKey(jk int32, uk []byte, code int32) []byte {
	b.scratch = binary.LittleEndian.AppendUint32(b.scratch[:0], uint32(jk))
	if b.layout == NoUniqueKey {
		return binary.LittleEndian.AppendUint32(b.scratch, uint32(code))
	}
	return append(b.scratch, uk...)
}

// innerCIA is inner(jk).computeIfAbsent(unique key or hash code): the list, new when absent.
func (b *sideBuffer) innerCIA(jk int32, uk []byte, code int32) int32 {
	m := &b.inners[b.jks[jk].inner]
	k := b.innerKey(jk, uk, code)
	if l, ok := b.listIndex[string(k)]; ok {
		m.ComputeIfAbsent(code, int(l), listKeys{b})
		return l
	}
	var s span
	if b.layout != NoUniqueKey {
		s = b.keep(uk)
	}
	l := b.newList(s, code)
	m.ComputeIfAbsent(code, int(l), listKeys{b})
	b.listIndex[string(k)] = l
	return l
}

// removeList is inner(jk).remove(list's key), and outer.remove(jk) when the inner map is then
// empty.
func (b *sideBuffer) removeList(jk, l int32) error {
	m := &b.inners[b.jks[jk].inner]
	if !m.Remove(b.lists[l].code, int(l), listKeys{b}) {
		return fmt.Errorf("mini-batch join buffer: a list to remove is not in its join key's map")
	}
	var uk []byte
	if b.layout != NoUniqueKey {
		uk = b.bytes(b.lists[l].uk)
	}
	delete(b.listIndex, string(b.innerKey(jk, uk, b.lists[l].code)))
	if m.Len() == 0 {
		return b.removeJoinKey(jk)
	}
	return nil
}

// push appends record r to list l.
func (b *sideBuffer) push(l, r int32) {
	list := &b.lists[l]
	b.recs[r].prev, b.recs[r].next = list.tail, -1
	if list.tail >= 0 {
		b.recs[list.tail].next = r
	} else {
		list.head = r
	}
	list.tail = r
	list.n++
}

// unlink takes record r out of list l.
func (b *sideBuffer) unlink(l, r int32) {
	list, rec := &b.lists[l], &b.recs[r]
	if rec.prev >= 0 {
		b.recs[rec.prev].next = rec.next
	} else {
		list.head = rec.next
	}
	if rec.next >= 0 {
		b.recs[rec.next].prev = rec.prev
	} else {
		list.tail = rec.prev
	}
	list.n--
}

// add is BufferBundle#addRecord of the side's layout: the row is folded into its list or
// appended to it. The arrival's bytes are copied.
func (b *sideBuffer) add(a *Arrival) error {
	if len(b.data)+len(a.Row)+2*len(a.Key)+2*len(a.UniqueKey) > math.MaxInt32 {
		return fmt.Errorf("mini-batch join buffer: a bundle of more than 2 GiB of rows (lower table.exec.mini-batch.size)")
	}
	b.count++
	jk := b.joinKeyCIA(a)
	r := int32(len(b.recs))
	b.recs = append(b.recs, bufRecord{row: b.keep(a.Row), kind: a.Kind, prev: -1, next: -1})
	switch b.layout {
	case JoinKeyUnique:
		folded, err := b.foldLast(jk, b.jks[jk].list, a.Kind)
		if err != nil || folded {
			return err
		}
		b.joinKeyCIA(a)
		b.push(b.jks[jk].list, r)
	case UniqueKey:
		b.recs[r].uk = b.keep(a.UniqueKey)
		l := b.innerCIA(jk, a.UniqueKey, javahash.Bytes(a.UniqueKey))
		folded, err := b.foldLast(jk, l, a.Kind)
		if err != nil || folded {
			return err
		}
		b.joinKeyCIA(a)
		b.push(b.innerCIA(jk, a.UniqueKey, b.lists[l].code), r)
	default:
		// The row's hash code with RowKind INSERT (Arrival.Row's header holds INSERT).
		code := javahash.Bytes(a.Row)
		l := b.innerCIA(jk, nil, code)
		folded, err := b.foldEqual(jk, l, r)
		if err != nil || folded {
			return err
		}
		b.joinKeyCIA(a)
		b.push(b.innerCIA(jk, nil, code), r)
	}
	return nil
}

// foldLast is foldRecord of the unique-key layouts, which looks at the list's last record only:
// an accumulate is replaced by the new row, or cancelled with a retraction (the list's key then
// removed when the list is empty); a retraction is replaced by a new retraction. It reports
// whether the new row was dropped.
func (b *sideBuffer) foldLast(jk, l int32, kind int8) (bool, error) {
	last := b.lists[l].tail
	if last < 0 {
		return false, nil
	}
	switch {
	case accumulates(b.recs[last].kind):
		b.unlink(l, last)
		if accumulates(kind) {
			return false, nil
		}
		if b.lists[l].n == 0 {
			if b.layout == JoinKeyUnique {
				return true, b.removeJoinKey(jk)
			}
			return true, b.removeList(jk, l)
		}
		return true, nil
	case !accumulates(kind):
		b.unlink(l, last)
	}
	return false, nil
}

// foldEqual is InputSideHasNoUniqueKeyBundle#foldRecord: from the list's end backwards, the
// first record of the opposite sign and equal contents cancels with the new row.
func (b *sideBuffer) foldEqual(jk, l, r int32) (bool, error) {
	acc := accumulates(b.recs[r].kind)
	row := b.bytes(b.recs[r].row)
	for p := b.lists[l].tail; p >= 0; p = b.recs[p].prev {
		if accumulates(b.recs[p].kind) == acc || string(b.bytes(b.recs[p].row)) != string(row) {
			continue
		}
		b.unlink(l, p)
		if b.lists[l].n == 0 {
			return true, b.removeList(jk, l)
		}
		return true, nil
	}
	return false, nil
}

// empty reports whether no row was added since the last flush (BufferBundle#isEmpty).
func (b *sideBuffer) empty() bool { return b.count == 0 }

// appendArrivals appends the buffered rows in the order MiniBatchStreamingJoinOperator's
// processSingleSideBundles joins them, each with its suppression flag. result is the scratch
// map of InputSideHasNoUniqueKeyBundle#getRecords.
func (b *sideBuffer) appendArrivals(dst []Arrival, result *javahash.HashMap) ([]Arrival, error) {
	order, _ := b.outer.AppendEntries(nil, nil)
	if b.layout == NoUniqueKey {
		// getRecords copies the join keys into a new HashMap, which orders them anew.
		result.Reset()
		for _, e := range order {
			result.ComputeIfAbsent(b.jks[e].code, int(e), joinKeys{b})
		}
		order, _ = result.AppendEntries(order[:0], nil)
	}
	var lists []int32
	var err error
	for _, e := range order {
		jk := &b.jks[e]
		if b.layout == JoinKeyUnique {
			if dst, err = b.appendList(dst, jk, jk.list, true); err != nil {
				return nil, err
			}
			continue
		}
		lists, _ = b.inners[jk.inner].AppendEntries(lists[:0], nil)
		for _, l := range lists {
			if dst, err = b.appendList(dst, jk, l, b.layout == UniqueKey); err != nil {
				return nil, err
			}
		}
	}
	return dst, nil
}

// appendList appends a list's records; with suppress, paired as processElementWithSuppress
// pairs them: a retraction followed by an accumulate are both joined suppressed.
func (b *sideBuffer) appendList(dst []Arrival, jk *bufJoinKey, l int32, suppress bool) ([]Arrival, error) {
	for r := b.lists[l].head; r >= 0; r = b.recs[r].next {
		rec := &b.recs[r]
		a := Arrival{KeyGroup: jk.keyGroup, Key: b.bytes(jk.key), NullKey: jk.nullKey, Row: b.bytes(rec.row), Kind: rec.kind}
		if b.layout == UniqueKey {
			a.UniqueKey = b.bytes(rec.uk)
		}
		if suppress && !accumulates(rec.kind) && rec.next >= 0 {
			if !accumulates(b.recs[rec.next].kind) {
				// Two retractions in a row: the folding never leaves them (Flink's branch for
				// them would drop one).
				return nil, fmt.Errorf("mini-batch join buffer: two retractions in one list")
			}
			a.Suppress = true
			next := &b.recs[rec.next]
			dst = append(dst, a)
			a.Row, a.Kind = b.bytes(next.row), next.kind
			if b.layout == UniqueKey {
				a.UniqueKey = b.bytes(next.uk)
			}
			dst = append(dst, a)
			r = rec.next
			continue
		}
		dst = append(dst, a)
	}
	return dst, nil
}

// clear empties the buffer after a flush; the outer map keeps its capacity (HashMap#clear).
func (b *sideBuffer) clear() {
	b.count = 0
	b.data, b.recs, b.jks, b.lists = b.data[:0], b.recs[:0], b.jks[:0], b.lists[:0]
	clear(b.jkIndex)
	clear(b.listIndex)
	b.outer.Clear()
	b.inners = b.inners[:0]
}
