package filesystem

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
)

func TestPartitionSpec(t *testing.T) {
	for _, c := range []struct {
		path string
		want map[string]string
	}{
		{"/data/t/part-0", map[string]string{}},
		{"/data/t/s=a/part-0", map[string]string{"s": "a"}},
		{"/data/t/n=1/s=b%20c%2Fd/part-0", map[string]string{"n": "1", "s": "b c/d"}},
		// Above the table too, the nearest to the file winning; "a=b=c" splits at the last '='.
		{"/x=1/t/x=2/a=b=c/part-0", map[string]string{"x": "2", "a=b": "c"}},
		// %XX is one character of that code (not UTF-8 decoding); "%+F" parses as 15; "%zz" stays.
		{"/t/s=%C3%A9%zz%+F/part-0", map[string]string{"s": "\u00c3\u00a9%zz\u000f"}},
	} {
		got := PartitionSpec(c.path)
		if len(got) != len(c.want) {
			t.Errorf("%s: got %v, want %v", c.path, got, c.want)
			continue
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%s: %s = %q, want %q", c.path, k, got[k], v)
			}
		}
	}
}

func TestPartitionColumn(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	for _, c := range []struct {
		value string
		typ   catalog.Type
		want  string
		ok    bool
	}{
		{"abc", catalog.StringType(true), `["abc" "abc"]`, true},
		{DefaultPartitionName, catalog.IntType(true), "[(null) (null)]", true},
		{"-7", catalog.IntType(true), "[-7 -7]", true},
		{"TRUE", catalog.BooleanType(true), "[true true]", true},
		{"yes", catalog.BooleanType(true), "[false false]", true},
		{"1e3", catalog.DoubleType(true), "[1000 1000]", true},
		{"2024-01-02", catalog.Type{Kind: catalog.Date, Nullable: true}, "[2024-01-02 2024-01-02]", true},
		{"19723", catalog.Type{Kind: catalog.Date, Nullable: true}, "", false},
		{"2147483648", catalog.IntType(true), "", false},
		{"1.5", catalog.DecimalType(3, 1, true), "", false},
	} {
		got, err := PartitionColumn("k", c.value, DefaultPartitionName, c.typ, 2, mem)
		if (err == nil) != c.ok {
			t.Errorf("%q as %s: error %v, want ok %v", c.value, c.typ, err, c.ok)
			continue
		}
		if err == nil {
			if got.String() != c.want {
				t.Errorf("%q as %s: got %s, want %s", c.value, c.typ, got, c.want)
			}
			got.Release()
		}
	}
}
