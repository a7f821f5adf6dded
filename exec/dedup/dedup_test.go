package dedup

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/exec/keygroup"
	"github.com/sluice-project/sluice/exec/statettl"
)

// step is one call: rows "key@time" (each row's bytes are a kind byte then "key@time"), or a
// watermark "wm N".
type step string

// run feeds steps to a deduplication and lists its output as "+I a@3" per row, per step.
func run(t *testing.T, d *Deduplicate, steps []step) [][]string {
	t.Helper()
	var out [][]string
	for _, s := range steps {
		var err error
		if w, ok := strings.CutPrefix(string(s), "wm "); ok {
			var at int64
			fmt.Sscan(w, &at)
			err = d.AdvanceWatermark(at)
		} else {
			var rows []Row
			for _, r := range strings.Fields(string(s)) {
				key, at, _ := strings.Cut(r, "@")
				var ts int64
				fmt.Sscan(at, &ts)
				rows = append(rows, Row{KeyGroup: 0, Key: []byte(key), Row: append([]byte{insert}, r...), Rowtime: ts})
			}
			err = d.Process(rows)
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, rendered(d))
	}
	return out
}

// rendered lists the output rows of the last call as "+I a@3".
func rendered(d *Deduplicate) []string {
	data, offsets := d.Output()
	var got []string
	for i := 0; i+1 < len(offsets); i++ {
		row := data[offsets[i]:offsets[i+1]]
		got = append(got, [...]string{"+I", "-U", "+U", "-D"}[row[0]]+" "+string(row[1:]))
	}
	return got
}

// Each variant as Flink's deduplicate functions emit: the last row by event time (ties go to
// the later arrival), the first row with updates, the insert-only first row that waits for the
// watermark (late rows dropped, a key never emitted twice) and the first row on processing time.
func TestDeduplicate(t *testing.T) {
	kg := keygroup.Range{Start: 0, End: 0}
	for _, c := range []struct {
		name  string
		cfg   Config
		steps []step
		want  [][]string
	}{
		{"event-time last row", Config{KeepLast: true, RowTime: true, GenerateUpdateBefore: true, GenerateInsert: true},
			[]step{"a@5 b@1 a@3 a@5", "a@9"},
			[][]string{{"+I a@5", "+I b@1", "-U a@5", "+U a@5"}, {"-U a@5", "+U a@9"}}},
		{"event-time last row without update-before or insert", Config{KeepLast: true, RowTime: true},
			[]step{"a@5 a@6"}, [][]string{{"+U a@5", "+U a@6"}}},
		{"event-time first row with updates", Config{RowTime: true, GenerateUpdateBefore: true, GenerateInsert: true},
			[]step{"a@5 a@5 a@2"}, [][]string{{"+I a@5", "-U a@5", "+U a@2"}}},
		{"event-time first row, insert-only", Config{RowTime: true, InsertOnly: true},
			[]step{"a@5 b@7 a@3", "wm 4", "a@1 b@6 a@4", "wm 10", "b@8"},
			[][]string{nil, {"+I a@3"}, nil, {"+I b@6"}, nil}},
		// With heap state the kept row was emitted as +U, so an equal row no longer equals it
		// (Flink's equaliser compares RowKinds); a copying backend kept an insert.
		{"processing-time last row, heap state", Config{KeepLast: true, GenerateUpdateBefore: true, GenerateInsert: true, HeapState: true},
			[]step{"a@0 a@0 a@1 a@1 a@1"}, [][]string{{"+I a@0", "-U a@0", "+U a@1", "-U a@1", "+U a@1", "-U a@1", "+U a@1"}}},
		{"processing-time last row, copied state", Config{KeepLast: true, GenerateUpdateBefore: true, GenerateInsert: true},
			[]step{"a@0 a@0 a@1 a@1 a@1"}, [][]string{{"+I a@0", "-U a@0", "+U a@1"}}},
		{"processing-time first row", Config{},
			[]step{"a@0 b@0 a@1", "b@2 c@3"}, [][]string{{"+I a@0", "+I b@0"}, {"+I c@3"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.cfg.KeyGroups = kg
			d, err := New(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := run(t, d, c.steps); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// A snapshot restores into a deduplication that goes on as the original, waiting rows' timers
// included; corrupt state is refused with the key group named.
func TestDeduplicateSnapshotRestore(t *testing.T) {
	cfg := Config{RowTime: true, InsertOnly: true, KeyGroups: keygroup.Range{Start: 0, End: 0}}
	d, _ := New(cfg)
	run(t, d, []step{"a@5 b@7", "wm 6"})
	blob, err := d.Snapshot(0)
	if err != nil || blob == nil {
		t.Fatalf("snapshot: %v", err)
	}
	restored, _ := New(cfg)
	if err := restored.Restore(0, blob); err != nil {
		t.Fatal(err)
	}
	restored.InitializeWatermark(6)
	for _, op := range []*Deduplicate{d, restored} {
		if got, want := run(t, op, []step{"a@8 b@6", "wm 9"}), [][]string{nil, {"+I b@6"}}; !reflect.DeepEqual(got, want) {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	blob[len(blob)-1] ^= 1
	fresh, _ := New(cfg)
	if err := fresh.Restore(0, blob); err == nil || !strings.Contains(err.Error(), "key group 0") {
		t.Errorf("corrupt state: %v", err)
	}
}

// BenchmarkDeduplicateLastRow keeps the last row of 10,000 keys over 1,024-row batches.
func BenchmarkDeduplicateLastRow(b *testing.B) {
	d, _ := New(Config{KeepLast: true, RowTime: true, GenerateUpdateBefore: true, GenerateInsert: true, KeyGroups: keygroup.Range{Start: 0, End: 0}})
	rows := make([]Row, 1024)
	for i := range rows {
		rows[i] = Row{Key: []byte(fmt.Sprint("key", i*7919%10000)), Row: make([]byte, 48), Rowtime: int64(i)}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := d.Process(rows); err != nil {
			b.Fatal(err)
		}
	}
}

// With a state TTL (100 ms here) a key's state is gone 100 ms after its last write: its next row
// is a first row again (+I); the last row on processing time is written by every row and emits
// equal rows all the same; the first row's state is written once; an event-time row kept or
// not writes only when it replaces the kept one. Snapshots leave expired keys out.
func TestDeduplicateStateTTL(t *testing.T) {
	kg := keygroup.Range{Start: 0, End: 0}
	for _, c := range []struct {
		name  string
		cfg   Config
		at    []int64
		steps []step
		want  [][]string
	}{
		{"processing-time last row", Config{KeepLast: true, GenerateUpdateBefore: true, GenerateInsert: true},
			[]int64{1000, 1099, 1198, 1298}, []step{"a@0", "a@0", "a@1", "a@2"},
			[][]string{{"+I a@0"}, {"-U a@0", "+U a@0"}, {"-U a@0", "+U a@1"}, {"+I a@2"}}},
		{"processing-time first row", Config{},
			[]int64{1000, 1099, 1100}, []step{"a@0", "a@1", "a@2"},
			[][]string{{"+I a@0"}, nil, {"+I a@2"}}},
		{"event-time last row", Config{KeepLast: true, RowTime: true, GenerateUpdateBefore: true, GenerateInsert: true},
			[]int64{1000, 1050, 1099, 1100}, []step{"a@5", "a@3", "a@5", "a@4"},
			[][]string{{"+I a@5"}, nil, {"-U a@5", "+U a@5"}, nil}},
		{"event-time last row, expired", Config{KeepLast: true, RowTime: true, GenerateUpdateBefore: true, GenerateInsert: true},
			[]int64{1000, 1050, 1100}, []step{"a@5", "a@3", "a@4"},
			[][]string{{"+I a@5"}, nil, {"+I a@4"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var clock int64
			c.cfg.KeyGroups, c.cfg.StateTTL = kg, statettl.TTL{Millis: 100, Clock: func() int64 { return clock }}
			d, err := New(c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			var got [][]string
			for i, s := range c.steps {
				clock = c.at[i]
				got = append(got, run(t, d, []step{s})...)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
			// Everything expires 100 ms after the last step: the snapshot is empty.
			clock = c.at[len(c.at)-1] + 100
			if blob, err := d.Snapshot(0); err != nil || blob != nil || d.StateKeys() != 0 {
				t.Errorf("snapshot after expiry: %d bytes, %d keys, %v", len(blob), d.StateKeys(), err)
			}
		})
	}
	if _, err := New(Config{RowTime: true, InsertOnly: true, StateTTL: statettl.TTL{Millis: 100}, KeyGroups: kg}); err == nil {
		t.Error("the insert-only variant took a state TTL")
	}
}

// Write times restore with the state: a restored key expires when the original would.
func TestDeduplicateStateTTLRestore(t *testing.T) {
	var clock int64 = 1000
	cfg := Config{KeepLast: true, GenerateUpdateBefore: true, GenerateInsert: true,
		StateTTL: statettl.TTL{Millis: 100, Clock: func() int64 { return clock }}, KeyGroups: keygroup.Range{Start: 0, End: 0}}
	d, _ := New(cfg)
	run(t, d, []step{"a@0"})
	clock = 1050
	run(t, d, []step{"b@0"})
	blob, err := d.Snapshot(0)
	if err != nil {
		t.Fatal(err)
	}
	restored, _ := New(cfg)
	if err := restored.Restore(0, blob); err != nil {
		t.Fatal(err)
	}
	clock = 1100 // a expired, b not
	for _, op := range []*Deduplicate{d, restored} {
		if got, want := run(t, op, []step{"a@1 b@1"}), [][]string{{"+I a@1", "-U b@0", "+U b@1"}}; !reflect.DeepEqual(got, want) {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

// changes feeds a changelog normalization rows "I:a@1" (kind I, B, U or D: +I, -U, +U, -D; the
// key is what comes before '@', the row all of it) and lists its output per step.
func changes(t *testing.T, d *Deduplicate, steps []step) [][]string {
	t.Helper()
	var out [][]string
	for _, s := range steps {
		var rows []Row
		for _, r := range strings.Fields(string(s)) {
			kind := map[byte]byte{'I': insert, 'B': updateBefore, 'U': updateAfter, 'D': deleteRow}[r[0]]
			body := r[2:]
			key, _, _ := strings.Cut(body, "@")
			rows = append(rows, Row{Key: []byte(key), Row: append([]byte{kind}, body...)})
		}
		if err := d.Process(rows); err != nil {
			t.Fatal(err)
		}
		out = append(out, rendered(d))
	}
	return out
}

// ChangelogNormalize as Flink's processLastRowOnChangelog: the first row of a key an insert,
// then -U/+U; an insert equal to the kept row dropped, but not an equal +U (the equaliser
// compares RowKinds); a delete emits the kept row, whatever the incoming one holds, and a
// delete of a key without state nothing; with a state TTL equal rows are emitted too.
func TestChangelogNormalize(t *testing.T) {
	kg := keygroup.Range{Start: 0, End: 0}
	for _, c := range []struct {
		name  string
		cfg   Config
		steps []step
		want  [][]string
	}{
		{"upserts", Config{GenerateUpdateBefore: true},
			[]step{"I:a@1 I:b@1 I:a@2", "I:a@2 U:a@2", "D:a D:c B:b", "I:a@3"},
			[][]string{{"+I a@1", "+I b@1", "-U a@1", "+U a@2"}, {"-U a@2", "+U a@2"}, {"-D a@2", "-D b@1"}, {"+I a@3"}}},
		{"without update-before", Config{},
			[]step{"I:a@1 U:a@2 D:a@x"}, [][]string{{"+I a@1", "+U a@2", "-D a@2"}}},
		{"state TTL", Config{GenerateUpdateBefore: true, StateTTL: statettl.TTL{Millis: 1000, Clock: func() int64 { return 0 }}},
			[]step{"I:a@1 I:a@1"}, [][]string{{"+I a@1", "-U a@1", "+U a@1"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg
			cfg.Changelog, cfg.KeepLast, cfg.GenerateInsert, cfg.KeyGroups = true, true, true, kg
			d, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := changes(t, d, c.steps); !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
	if _, err := New(Config{Changelog: true, RowTime: true, KeepLast: true, KeyGroups: kg}); err == nil {
		t.Fatal("a changelog normalization on event time: no error")
	}
}
