package iceberg

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

func TestParseNameMapping(t *testing.T) {
	m, err := ParseNameMapping(`[
		{"field-id": 1, "names": ["id", "ident"]},
		{"field-id": 2, "names": ["r"], "fields": [
			{"field-id": 5, "names": ["a", "alpha"]},
			{"field-id": 6, "names": ["l"], "fields": [{"field-id": 7, "names": ["element"]}]}]},
		{"field-id": 3, "names": ["m"], "fields": [{"field-id": 8, "names": ["key"]}, {"field-id": 9, "names": ["value"]}]},
		{"names": ["unmapped"]}]`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for k, v := range m {
		got = append(got, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(got)
	want := "id=1 ident=1 m.key=8 m.value=9 m=3 r.a=5 r.alpha=5 r.l.element=7 r.l=6 r=2"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	for _, bad := range []string{`{`, `[{"field-id": 1, "names": ["a"]}, {"field-id": 2, "names": ["a"]}]`} {
		if _, err := ParseNameMapping(bad); err == nil || !strings.Contains(err.Error(), "iceberg name mapping") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
