package chain

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/exec/bundle"
	"github.com/sluice-project/sluice/exec/dedup"
	"github.com/sluice-project/sluice/exec/keygroup"
)

// A bundle of three rows on processing time: keep first emits each new key's first row of the
// bundle once, keep last each key's latest row (+I, then -U/+U in later bundles), keys in the
// order of Flink's HashMap, each bundle when the row that fills it arrives or when it is
// finished early (a watermark, a checkpoint barrier).
func TestDedupBundle(t *testing.T) {
	keyRow := func(k string) []byte { return []byte("key-" + k) }
	// hashOrder is the HashMap order of a bundle's keys, as Flink's finishBundle walks them.
	hashOrder := func(keys ...string) []string {
		b, err := bundle.New(100)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			b.Add(keyRow(k))
		}
		var out []string
		for _, i := range b.Order(nil) {
			out = append(out, string(b.Key(i))[len("key-"):])
		}
		return out
	}
	for _, c := range []struct {
		name     string
		keepLast bool
		rowTime  bool
		// steps: rows "k=v" (on event time "k=v@time"), or "finish"
		steps []string
		want  func() [][]string
	}{
		{"keep first", false, false, []string{"a=1", "b=2", "a=3", "c=4", "finish", "a=5", "d=6", "finish"}, func() [][]string {
			var first []string
			for _, k := range hashOrder("a", "b") {
				first = append(first, map[string]string{"a": "+I a=1", "b": "+I b=2"}[k])
			}
			return [][]string{nil, nil, first, nil, {"+I c=4"}, nil, nil, {"+I d=6"}}
		}},
		{"keep last", true, false, []string{"a=1", "b=2", "a=3", "a=4", "finish", "b=5", "finish"}, func() [][]string {
			var first []string
			for _, k := range hashOrder("a", "b") {
				first = append(first, map[string]string{"a": "+I a=3", "b": "+I b=2"}[k])
			}
			return [][]string{nil, nil, first, nil, {"-U a=3", "+U a=4"}, nil, {"-U b=2", "+U b=5"}}
		}},
		// RowTimeMiniBatchDeduplicateFunction: every row of a key in arrival order against the
		// kept one, a row as late or later replacing it.
		{"keep last on event time", true, true, []string{"a=1@5", "b=2@3", "a=3@4", "a=4@5", "finish", "a=6@9", "a=7@8", "finish"}, func() [][]string {
			var first []string
			for _, k := range hashOrder("a", "b") {
				first = append(first, map[string]string{"a": "+I a=1@5", "b": "+I b=2@3"}[k])
			}
			return [][]string{nil, nil, first, nil, {"-U a=1@5", "+U a=4@5"}, nil, nil, {"-U a=4@5", "+U a=6@9"}}
		}},
		{"keep first on event time", false, true, []string{"a=1@5", "a=2@4", "a=3@4", "finish"}, func() [][]string {
			return [][]string{nil, nil, {"+I a=1@5", "-U a=1@5", "+U a=2@4"}, nil}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			op, err := dedup.New(dedup.Config{KeepLast: c.keepLast, RowTime: c.rowTime, GenerateUpdateBefore: true, GenerateInsert: true,
				KeyGroups: keygroup.Range{Start: 0, End: 0}})
			if err != nil {
				t.Fatal(err)
			}
			b, err := newDedupBundle(3, c.keepLast, c.rowTime)
			if err != nil {
				t.Fatal(err)
			}
			var got [][]string
			for _, st := range c.steps {
				var out rowOutput
				out.reset()
				if st == "finish" {
					err = b.finish(op, &out)
				} else {
					k := st[:1]
					r := dedup.Row{Key: keyRow(k), Row: append([]byte{0}, st...)}
					if _, at, ok := strings.Cut(st, "@"); ok {
						if r.Rowtime, err = strconv.ParseInt(at, 10, 64); err != nil {
							t.Fatal(err)
						}
					}
					if b.add(r) {
						err = b.finish(op, &out)
					}
				}
				if err != nil {
					t.Fatal(err)
				}
				var rows []string
				for i := 0; i+1 < len(out.offsets); i++ {
					row := out.data[out.offsets[i]:out.offsets[i+1]]
					rows = append(rows, fmt.Sprint([...]string{"+I", "-U", "+U", "-D"}[row[0]], " ", string(row[1:])))
				}
				got = append(got, rows)
			}
			if want := c.want(); !reflect.DeepEqual(got, want) {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

// rowOutput gathers the rows of several steps with their offsets moved.
func TestRowOutput(t *testing.T) {
	var o rowOutput
	o.reset()
	o.append([]byte("abcde"), []int32{0, 2, 5})
	o.append(nil, []int32{0})
	o.append([]byte("xyz"), []int32{1, 3})
	if string(o.data) != "abcdeyz" || !slices.Equal(o.offsets, []int32{0, 2, 5, 7}) {
		t.Errorf("data %q offsets %v", o.data, o.offsets)
	}
}
