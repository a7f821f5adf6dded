// Package dedup is Flink's deduplication (ROW_NUMBER() OVER (PARTITION BY ... ORDER BY a time
// attribute) = 1) without mini-batches, on one subtask: the first or last row of each key, kept
// in state per key group as BinaryRowData bytes and emitted with Flink's RowKinds.
package dedup

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/exec/keytimer"
	"github.com/sluice-project/sluice/exec/stateblob"
	"github.com/sluice-project/sluice/exec/statettl"
)

// The RowKinds as a row's first byte holds them (exec/changelog's).
const (
	insert       = byte(changelog.Insert)
	updateBefore = byte(changelog.UpdateBefore)
	updateAfter  = byte(changelog.UpdateAfter)
	deleteRow    = byte(changelog.Delete)
)

// Config configures a deduplication.
type Config struct {
	// KeepLast keeps each key's last row (by time); otherwise its first.
	KeepLast bool
	// RowTime orders rows by their event-time attribute (Row.Rowtime); otherwise by arrival
	// (processing time).
	RowTime bool
	// InsertOnly is the event-time keep-first variant whose output only inserts
	// (RowTimeDeduplicateKeepFirstRowFunction): a key's row waits for the watermark to pass
	// its time and is emitted once.
	InsertOnly bool
	// GenerateUpdateBefore and GenerateInsert are Flink's flags for the updating variants
	// (generateInsert is table.exec.deduplicate.insert-update-after-sensitive-enabled).
	GenerateUpdateBefore, GenerateInsert bool
	// HeapState says Flink's keyed state holds the kept row object itself (the heap state
	// backend), whose RowKind changes when Flink emits it; other backends hold a copy taken
	// while it was still an insert. Flink's last-row deduplication on processing time compares
	// the new row with the kept one RowKind included, so the two differ.
	HeapState bool
	// KeyGroups is the subtask's key-group range, whose state it keeps.
	KeyGroups keygroup.Range
	// Changelog keeps each key's last row of a changelog on processing time, as Flink's
	// ChangelogNormalize (ProcTimeDeduplicateKeepLastRowFunction over a changelog,
	// DeduplicateFunctionHelper#processLastRowOnChangelog): +I and +U rows are kept and emitted
	// as +I, then -U/+U (a row equal to the kept one, RowKind included, is dropped), -U and -D
	// rows delete the kept row (-D of it, the full row, not the incoming one, which may hold
	// only the key) and are dropped for a key without one. KeepLast, not RowTime.
	Changelog bool
	// StateTTL is the state's time to live, as the StateTtlConfig of Flink's deduplication
	// functions (not the insert-only variant): a key's state is gone a TTL after its last
	// write, and a last row equal to the kept one is emitted all the same. Its clock is read
	// once per call.
	StateTTL statettl.TTL
}

// Row is one input row: its key group, key row bytes, BinaryRowData bytes and event time (epoch
// milliseconds; unused on processing time). The slices are only read during the call.
type Row struct {
	KeyGroup int
	Key      []byte
	Row      []byte
	Rowtime  int64
}

// keyState is the state of one key: the row kept (nil for none) with its time, and whether the
// key's row was emitted (the keep-first variants, which never emit a key twice).
type keyState struct {
	row     []byte
	rowtime int64
	emitted bool
	// kind is the kept row's RowKind as Flink's state holds it (last row on processing time).
	kind byte
	// written is the processing time of the state's last write (with a state TTL).
	written int64
}

// Deduplicate is one subtask's deduplication, replaying Flink's functions: RowTimeDeduplicateFunction
// (event time, keep last, or keep first with updates), RowTimeDeduplicateKeepFirstRowFunction
// (event time, keep first, insert-only: timers and late rows dropped) and
// ProcTimeDeduplicateKeepFirstRowFunction and ProcTimeDeduplicateKeepLastRowFunction (processing
// time).
type Deduplicate struct {
	cfg    Config
	groups []map[string]*keyState
	timers keytimer.Heap
	// watermark is the operator's current event time.
	watermark   int64
	lateDropped int64
	keys, bytes int64
	// stamp is the processing time of the current call (with a state TTL).
	stamp   int64
	out     []byte
	offsets []int32
}

// New returns an empty deduplication.
func New(cfg Config) (*Deduplicate, error) {
	if cfg.KeyGroups.End < cfg.KeyGroups.Start {
		return nil, fmt.Errorf("deduplicate: key groups %v", cfg.KeyGroups)
	}
	if cfg.InsertOnly && (cfg.KeepLast || !cfg.RowTime) {
		return nil, errors.New("deduplicate: only event-time keep-first deduplication has an insert-only variant")
	}
	if cfg.InsertOnly && cfg.StateTTL.Enabled() {
		return nil, errors.New("deduplicate: the insert-only variant takes no state TTL")
	}
	if cfg.Changelog && (!cfg.KeepLast || cfg.RowTime) {
		return nil, errors.New("deduplicate: only the last row on processing time is kept of a changelog")
	}
	return &Deduplicate{cfg: cfg, groups: make([]map[string]*keyState, cfg.KeyGroups.Len()), watermark: math.MinInt64}, nil
}

func (d *Deduplicate) group(kg int) (map[string]*keyState, error) {
	if !d.cfg.KeyGroups.Contains(kg) {
		return nil, fmt.Errorf("deduplicate: key group %d outside %v", kg, d.cfg.KeyGroups)
	}
	i := kg - d.cfg.KeyGroups.Start
	if d.groups[i] == nil {
		d.groups[i] = map[string]*keyState{}
	}
	return d.groups[i], nil
}

// Output returns the rows emitted by the last call, with their RowKinds in their headers.
func (d *Deduplicate) Output() ([]byte, []int32) { return d.out, d.offsets }

func (d *Deduplicate) reset() {
	d.out, d.offsets = d.out[:0], append(d.offsets[:0], 0)
}

// emit appends a row with its RowKind.
func (d *Deduplicate) emit(kind byte, row []byte) {
	start := len(d.out)
	d.out = append(d.out, row...)
	d.out[start] = kind
	d.offsets = append(d.offsets, int32(len(d.out)))
}

// drop takes a key's state away.
func (d *Deduplicate) drop(m map[string]*keyState, key string, k *keyState) {
	delete(m, key)
	d.keys--
	d.bytes -= int64(len(key) + len(k.row))
}

// Process runs rows through the deduplication, in order.
func (d *Deduplicate) Process(rows []Row) error {
	d.reset()
	if d.cfg.StateTTL.Enabled() {
		d.stamp = d.cfg.StateTTL.Now()
	}
	for _, r := range rows {
		m, err := d.group(r.KeyGroup)
		if err != nil {
			return err
		}
		if len(r.Row) == 0 || r.Row[0] != insert && !d.cfg.Changelog {
			return fmt.Errorf("deduplicate: a row that is not an insert (Flink's deduplication takes inserts only)")
		}
		k := m[string(r.Key)]
		if k != nil && d.cfg.StateTTL.Expired(k.written, d.stamp) {
			d.drop(m, string(r.Key), k)
			k = nil
		}
		switch {
		case d.cfg.Changelog:
			d.lastOnChangelog(m, k, r)
		case !d.cfg.RowTime && d.cfg.KeepLast:
			d.lastOnProcTime(m, k, r)
		case !d.cfg.RowTime:
			// ProcTimeDeduplicateKeepFirstRowFunction: a key's first row, once.
			if k != nil {
				continue
			}
			d.store(m, r, false)
			d.emit(insert, r.Row)
		case d.cfg.InsertOnly:
			d.waitForWatermark(m, k, r)
		default:
			d.deduplicateOnRowTime(m, k, r)
		}
	}
	return nil
}

// lastOnProcTime is DeduplicateFunctionHelper#processLastRowOnProcTime: each row replaces the
// kept one (+I first, then -U/+U), except a row equal to the kept one, RowKind included, which
// replaces it silently.
func (d *Deduplicate) lastOnProcTime(m map[string]*keyState, k *keyState, r Row) {
	if !d.cfg.GenerateUpdateBefore && !d.cfg.GenerateInsert {
		d.emit(updateAfter, r.Row)
		return
	}
	if k == nil {
		k = d.store(m, r, true)
		k.kind = insert
		d.emit(insert, r.Row)
		return
	}
	if !d.cfg.StateTTL.Enabled() && k.kind == insert && string(k.row[1:]) == string(r.Row[1:]) {
		d.replace(k, r) // the kept row is the new one, still an insert
		k.kind = insert
		return
	}
	if d.cfg.GenerateUpdateBefore {
		d.emit(updateBefore, k.row)
	}
	d.replace(k, r)
	d.emit(updateAfter, k.row)
	k.kind = insert
	if d.cfg.HeapState {
		k.kind = updateAfter // the object in Flink's heap state, emitted as +U
	}
}

// lastOnChangelog is DeduplicateFunctionHelper#processLastRowOnChangelog (see
// Config.Changelog). The kept row is held as an insert, as Flink normalizes it before keeping
// it in both state backends, and Flink's equaliser compares BinaryRowData bytes, RowKind
// included: only an insert equal to the kept row is dropped.
func (d *Deduplicate) lastOnChangelog(m map[string]*keyState, k *keyState, r Row) {
	switch r.Row[0] {
	case insert, updateAfter:
		if k == nil {
			k = d.store(m, r, true)
			k.row[0], k.kind = insert, insert
			d.emit(insert, r.Row)
			return
		}
		if !d.cfg.StateTTL.Enabled() && string(k.row) == string(r.Row) {
			return // the same row again: nothing emitted, the state untouched
		}
		if d.cfg.GenerateUpdateBefore {
			d.emit(updateBefore, k.row)
		}
		d.replace(k, r)
		d.emit(updateAfter, k.row)
		k.row[0] = insert
	default: // -U, -D
		if k != nil {
			d.emit(deleteRow, k.row)
			d.drop(m, string(r.Key), k)
		}
	}
}

// store keeps a new key (with its row when keep is set).
func (d *Deduplicate) store(m map[string]*keyState, r Row, keep bool) *keyState {
	k := &keyState{emitted: !keep, written: d.stamp}
	if keep {
		k.row, k.rowtime = append([]byte(nil), r.Row...), r.Rowtime
		d.bytes += int64(len(r.Row))
	}
	m[string(r.Key)] = k
	d.keys++
	d.bytes += int64(len(r.Key))
	return k
}

// replace keeps a key's new row (in the old one's bytes when they fit: the old row was
// emitted, or copied out, before).
func (d *Deduplicate) replace(k *keyState, r Row) {
	d.bytes += int64(len(r.Row) - len(k.row))
	k.row, k.rowtime, k.written = append(k.row[:0], r.Row...), r.Rowtime, d.stamp
}

// deduplicateOnRowTime is RowTimeDeduplicateFunctionHelper#deduplicateOnRowTime: a row replaces
// the kept one when it is as late or later (keep last) or strictly earlier (keep first), and
// then updateDeduplicateResult emits the change.
func (d *Deduplicate) deduplicateOnRowTime(m map[string]*keyState, k *keyState, r Row) {
	if k == nil {
		d.store(m, r, true)
		d.emitResult(nil, r.Row)
		return
	}
	keep := r.Rowtime < k.rowtime
	if d.cfg.KeepLast {
		keep = k.rowtime <= r.Rowtime
	}
	if !keep {
		return
	}
	d.emitResult(k.row, r.Row)
	d.replace(k, r)
}

// emitResult is DeduplicateFunctionHelper#updateDeduplicateResult.
func (d *Deduplicate) emitResult(prev, cur []byte) {
	if !d.cfg.GenerateUpdateBefore && !d.cfg.GenerateInsert {
		d.emit(updateAfter, cur)
		return
	}
	if prev == nil {
		d.emit(insert, cur)
		return
	}
	if d.cfg.GenerateUpdateBefore {
		d.emit(updateBefore, prev)
	}
	d.emit(updateAfter, cur)
}

// waitForWatermark is RowTimeDeduplicateKeepFirstRowFunction#processElement: late rows are
// dropped, a key emitted once takes nothing more, and an earlier row replaces the waiting one
// (moving its timer).
func (d *Deduplicate) waitForWatermark(m map[string]*keyState, k *keyState, r Row) {
	if r.Rowtime < d.watermark {
		d.lateDropped++
		return
	}
	if k != nil && k.emitted {
		return
	}
	if k == nil {
		d.store(m, r, true)
	} else if k.row == nil || r.Rowtime < k.rowtime {
		d.replace(k, r)
	} else {
		return
	}
	d.timers.Add(keytimer.Timer{At: r.Rowtime, KeyGroup: r.KeyGroup, Key: string(r.Key)})
}

// AdvanceWatermark moves event time to w and fires the timers due: each key whose waiting row's
// time is at most w emits it, in time order.
func (d *Deduplicate) AdvanceWatermark(w int64) error {
	d.reset()
	if w <= d.watermark {
		return nil
	}
	d.watermark = w
	for len(d.timers) > 0 && d.timers[0].At <= w {
		t := d.timers.Next()
		m, err := d.group(t.KeyGroup)
		if err != nil {
			return err
		}
		k := m[t.Key]
		if k == nil || k.emitted || k.row == nil || k.rowtime != t.At {
			continue // a timer deleted when an earlier row took its key's place
		}
		d.emit(insert, k.row)
		d.bytes -= int64(len(k.row))
		k.row, k.emitted = nil, true
	}
	return nil
}

// InitializeWatermark restores the operator's event time after a restore.
func (d *Deduplicate) InitializeWatermark(w int64) { d.watermark = w }

// LateDropped counts the late rows dropped (event-time keep-first, insert-only).
func (d *Deduplicate) LateDropped() int64 { return d.lateDropped }

// StateKeys is the number of keys in state.
func (d *Deduplicate) StateKeys() int64 { return d.keys }

// StateBytes is the size of the keys and rows in state.
func (d *Deduplicate) StateBytes() int64 { return d.bytes }

// State format of one key group (integers little-endian):
//
//	magic "SLDD" | version u16 | keys u32 |
//	per key: key length u32, key row bytes, emitted u8, the kept row's RowKind u8,
//	         row length u32 (0: none),
//	         BinaryRowData bytes, rowtime i64,
//	         last write in epoch ms i64 (version 2; kept for the state TTL) |
//	CRC-32C of everything before, u32.
//
// Waiting rows have their timers, so timers are not stored: a restore registers them. Keys of
// version 1 restore as written at the restore.
const (
	stateMagic   = "SLDD"
	stateVersion = 2
)

// Snapshot serializes key group kg's state (nil when it holds no keys), keys in sorted order.
func (d *Deduplicate) Snapshot(kg int) ([]byte, error) {
	m, err := d.group(kg)
	if err != nil {
		return nil, err
	}
	if d.cfg.StateTTL.Enabled() {
		// Keys whose time to live has passed are dropped (Flink's cleanup of expired state).
		now := d.cfg.StateTTL.Now()
		for key, k := range m {
			if d.cfg.StateTTL.Expired(k.written, now) {
				d.drop(m, key, k)
			}
		}
	}
	if len(m) == 0 {
		return nil, nil
	}
	keys := stateblob.SortedKeys(m)
	b := binary.LittleEndian.AppendUint32(stateblob.Header(stateMagic, stateVersion), uint32(len(keys)))
	for _, key := range keys {
		k := m[key]
		b = stateblob.AppendBytes(b, []byte(key))
		emitted := byte(0)
		if k.emitted {
			emitted = 1
		}
		b = stateblob.AppendBytes(append(b, emitted, k.kind), k.row)
		b = binary.LittleEndian.AppendUint64(b, uint64(k.rowtime))
		b = binary.LittleEndian.AppendUint64(b, uint64(k.written))
	}
	return stateblob.Seal(b), nil
}

// Restore reads a key group's state written by Snapshot and registers its waiting rows' timers.
func (d *Deduplicate) Restore(kg int, blob []byte) error {
	if err := d.restore(kg, blob); err != nil {
		return fmt.Errorf("deduplicate state of key group %d: %w", kg, err)
	}
	return nil
}

func (d *Deduplicate) restore(kg int, blob []byte) error {
	m, err := d.group(kg)
	if err != nil {
		return err
	}
	r, version, err := stateblob.Open(blob, stateMagic, "deduplication", 1, stateVersion)
	if err != nil {
		return err
	}
	for n := r.U32(); n > 0 && r.OK(); n-- {
		key := string(r.Bytes())
		k := &keyState{emitted: r.U8() == 1, kind: r.U8()}
		row := r.Bytes()
		k.rowtime = int64(r.U64())
		k.written = d.cfg.StateTTL.Now()
		if version >= 2 {
			k.written = int64(r.U64())
		}
		if !r.OK() {
			break
		}
		if _, dup := m[key]; dup {
			return fmt.Errorf("key %q twice", key)
		}
		if len(row) > 0 {
			k.row = row
			d.bytes += int64(len(row))
			if d.cfg.InsertOnly && !k.emitted {
				d.timers.Add(keytimer.Timer{At: k.rowtime, KeyGroup: kg, Key: key})
			}
		}
		m[key] = k
		d.keys++
		d.bytes += int64(len(key))
	}
	return r.End()
}
