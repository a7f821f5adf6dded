package over

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/agg"
	"github.com/sluice-project/sluice/exec/changelog"
	"github.com/sluice-project/sluice/exec/keygroup"
)

// Rows in these tests are a kind byte then "key@time=value"; decode reads the values into one
// BIGINT column, which SUM aggregates.
func decode(rows [][]byte) (arrow.RecordBatch, error) {
	b := array.NewInt64Builder(memory.DefaultAllocator)
	defer b.Release()
	for _, r := range rows {
		_, v, _ := strings.Cut(string(r[1:]), "=")
		var n int64
		if _, err := fmt.Sscan(v, &n); err != nil {
			return nil, err
		}
		b.Append(n)
	}
	col := b.NewArray()
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{col}, int64(len(rows))), nil
}

func sumConfig(cfg Config) Config {
	bigint := catalog.BigIntType(true)
	cfg.Calls = []agg.Call{{Func: agg.Sum, Arg: bigint, Result: bigint, DistinctGroup: -1, Retract: cfg.Bounded}}
	cfg.ArgCols = []int{0}
	cfg.KeyGroups = keygroup.Range{Start: 0, End: 0}
	return cfg
}

// run feeds steps to an OVER aggregation: rows "a@3=5 b@3=1" or a watermark "wm N"; it lists
// what each watermark emits, as "5:8 1:1" (each row's value, then its SUM) in order.
func run(t *testing.T, o *Over, steps []string) []string {
	t.Helper()
	var out []string
	for _, s := range steps {
		if w, ok := strings.CutPrefix(s, "wm "); ok {
			var at int64
			fmt.Sscan(w, &at)
			f, err := o.AdvanceWatermark(memory.DefaultAllocator, at, decode)
			if err != nil {
				t.Fatal(err)
			}
			var fired []string
			if f != nil {
				sums := f.Values[0].(*array.Int64)
				vals := f.Batch.Column(0).(*array.Int64)
				for i, r := range f.Rows {
					fired = append(fired, fmt.Sprintf("%d:%d", vals.Value(int(r)), sums.Value(i)))
				}
				f.Release()
			}
			out = append(out, strings.Join(fired, " "))
			continue
		}
		var rows []Row
		for _, r := range strings.Fields(s) {
			key, rest, _ := strings.Cut(r, "@")
			at, _, _ := strings.Cut(rest, "=")
			var ts int64
			fmt.Sscan(at, &ts)
			rows = append(rows, Row{Key: []byte(key), Row: append([]byte{byte(changelog.Insert)}, r...), Rowtime: ts})
		}
		if err := o.Process(rows); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// Each frame as Flink's RowTime*PrecedingFunctions compute it: rows come out when the watermark
// passes their time, in time order per key (arrival order within a time), ROWS frames give each
// row its own result and RANGE frames one result per time; late rows are dropped (by the
// watermark unbounded, by the key's last fired time bounded, which starts at 0).
func TestFrames(t *testing.T) {
	for _, c := range []struct {
		name  string
		cfg   Config
		steps []string
		want  []string
	}{
		{"unbounded rows", Config{Rows: true, TimerPerTimestamp: true},
			[]string{"a@1=1 a@3=4 a@1=2 b@2=10", "wm 2", "a@2=9 a@3=8", "wm 5"},
			[]string{"1:1 2:3 10:10", "4:7 8:15"}},
		{"unbounded range", Config{TimerPerTimestamp: true},
			[]string{"a@1=1 a@3=4 a@1=2", "wm 1", "a@3=8", "wm 5"},
			[]string{"1:3 2:3", "4:15 8:15"}},
		// Version 1: no timer fires below watermark 0; then every row the watermark passed.
		{"unbounded rows version 1", Config{Rows: true},
			[]string{"a@-5=1 a@-3=2", "wm -4", "a@-2=3", "wm 0"},
			[]string{"", "1:1 2:3 3:6"}},
		{"unbounded rows version 2", Config{Rows: true, TimerPerTimestamp: true},
			[]string{"a@-5=1 a@-3=2", "wm -4", "a@-2=3", "wm 0"},
			[]string{"1:1", "2:3 3:6"}},
		{"rows 1 preceding", Config{Rows: true, Bounded: true, Preceding: 2},
			[]string{"a@1=1 a@2=2 a@2=4 a@3=8", "wm 3"},
			[]string{"1:1 2:3 4:6 8:12"}},
		// A row before the key's last fired time is late even ahead of the watermark; a new
		// key's row at time 0 too.
		{"bounded late rows", Config{Rows: true, Bounded: true, Preceding: 5},
			[]string{"a@0=100 a@4=1", "wm 4", "a@3=100 a@6=2 b@0=100", "wm 6"},
			[]string{"1:1", "2:3"}},
		{"range 1 ms preceding", Config{Bounded: true, Preceding: 1},
			[]string{"a@1=1 a@2=2 a@2=4 a@3=8", "wm 3"},
			[]string{"1:1 2:7 4:7 8:14"}},
		// The cleanup timer at 1 + 1.5 * 10 + 1 = 17 clears the key, its last fired time (4)
		// with it, so that a row at 2 is taken again, into an empty frame.
		{"range cleanup", Config{Bounded: true, Preceding: 10},
			[]string{"a@1=1 a@4=3", "wm 20", "a@2=2", "wm 21"},
			[]string{"1:1 3:4", "2:2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, err := New(sumConfig(c.cfg))
			if err != nil {
				t.Fatal(err)
			}
			if got := run(t, o, c.steps); !reflect.DeepEqual(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
}

// A snapshot taken between two watermarks and restored into a new operator continues exactly
// as the uninterrupted operator does; a damaged blob is refused.
func TestSnapshotRestore(t *testing.T) {
	before := []string{"a@1=1 a@2=2 b@2=5 a@4=3", "wm 2", "a@5=7 b@3=1"}
	after := []string{"wm 4", "a@6=1 b@6=2", "wm 9"}
	for _, cfg := range []Config{
		{Rows: true, TimerPerTimestamp: true}, {Rows: true}, {TimerPerTimestamp: true},
		{Rows: true, Bounded: true, Preceding: 2}, {Bounded: true, Preceding: 2},
	} {
		whole, _ := New(sumConfig(cfg))
		want := run(t, whole, append(append([]string(nil), before...), after...))[1:]
		first, _ := New(sumConfig(cfg))
		run(t, first, before)
		blob, err := first.Snapshot(0)
		if err != nil {
			t.Fatal(err)
		}
		second, _ := New(sumConfig(cfg))
		if err := second.Restore(0, blob); err != nil {
			t.Fatal(err)
		}
		second.InitializeWatermark(2)
		if got := run(t, second, after); !reflect.DeepEqual(got, want) {
			t.Errorf("%+v: restored %v, uninterrupted %v", cfg, got, want)
		}
		if second.StateKeys() != whole.StateKeys() || second.StateBytes() != whole.StateBytes() {
			t.Errorf("%+v: restored state %d keys, %d bytes; uninterrupted %d, %d", cfg,
				second.StateKeys(), second.StateBytes(), whole.StateKeys(), whole.StateBytes())
		}
		damaged := append([]byte(nil), blob...)
		damaged[len(damaged)/2] ^= 1
		third, _ := New(sumConfig(cfg))
		if err := third.Restore(0, damaged); err == nil || !strings.Contains(err.Error(), "key group 0") {
			t.Errorf("%+v: a damaged blob gave %v", cfg, err)
		}
	}
}

// BenchmarkRowsFrame runs batches of 1,024 rows of 1,000 keys through a ROWS 9 PRECEDING frame,
// the watermark firing them after every batch.
func BenchmarkRowsFrame(b *testing.B) {
	o, err := New(sumConfig(Config{Rows: true, Bounded: true, Preceding: 10}))
	if err != nil {
		b.Fatal(err)
	}
	const n = 1024
	rows := make([]Row, n)
	bytes := make([][]byte, n)
	for r := range bytes {
		bytes[r] = append([]byte{byte(changelog.Insert)}, fmt.Sprintf("k@0=%d", r)...)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for r := range rows {
			at := int64(i*n + r)
			rows[r] = Row{Key: []byte{byte(r % 250), byte(r % 4)}, Row: bytes[r], Rowtime: at + 1}
		}
		if err := o.Process(rows); err != nil {
			b.Fatal(err)
		}
		f, err := o.AdvanceWatermark(memory.DefaultAllocator, int64((i+1)*n), decode)
		if err != nil {
			b.Fatal(err)
		}
		f.Release()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/row")
}

// On processing time every row is aggregated and emitted as it arrives, in order: an unbounded
// frame accumulates, a ROWS frame of N rows (Preceding N) retracts its oldest row first once
// full; its rows restore from a snapshot with the frame.
func TestOverProcTime(t *testing.T) {
	emit := func(o *Over, rows string) string {
		t.Helper()
		var in []Row
		for _, r := range strings.Fields(rows) {
			key, _, _ := strings.Cut(r, "@")
			in = append(in, Row{Key: []byte(key), Row: append([]byte{byte(changelog.Insert)}, r...)})
		}
		f, err := o.EmitProcTime(memory.DefaultAllocator, in, decode)
		if err != nil {
			t.Fatal(err)
		}
		if f == nil {
			return ""
		}
		defer f.Release()
		var out []string
		sums, vals := f.Values[0].(*array.Int64), f.Batch.Column(0).(*array.Int64)
		for i, r := range f.Rows {
			out = append(out, fmt.Sprintf("%d:%d", vals.Value(int(r)), sums.Value(i)))
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		name  string
		cfg   Config
		calls []string
		want  []string
	}{
		{"unbounded", Config{ProcTime: true}, []string{"a@0=5 b@0=1 a@0=2", "a@0=4"}, []string{"5:5 1:1 2:7", "4:11"}},
		{"rows 2", Config{ProcTime: true, Rows: true, Bounded: true, Preceding: 2},
			[]string{"a@0=5 a@0=2 b@0=1 a@0=4", "a@0=10 a@0=1"}, []string{"5:5 2:7 1:1 4:6", "10:14 1:11"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, err := New(sumConfig(c.cfg))
			if err != nil {
				t.Fatal(err)
			}
			for i, call := range c.calls[:1] {
				if got := emit(o, call); got != c.want[i] {
					t.Errorf("call %d: got %q, want %q", i, got, c.want[i])
				}
			}
			blob, err := o.Snapshot(0)
			if err != nil {
				t.Fatal(err)
			}
			restored, _ := New(sumConfig(c.cfg))
			if err := restored.Restore(0, blob); err != nil {
				t.Fatal(err)
			}
			for _, op := range []*Over{o, restored} {
				if got := emit(op, c.calls[1]); got != c.want[1] {
					t.Errorf("after the snapshot: got %q, want %q", got, c.want[1])
				}
			}
		})
	}
	if _, err := (&Over{}).EmitProcTime(memory.DefaultAllocator, nil, decode); err == nil {
		t.Error("an event-time aggregation took rows on processing time")
	}
}
