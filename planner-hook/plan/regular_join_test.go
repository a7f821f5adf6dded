package plan

import (
	"reflect"
	"strings"
	"testing"

	"github.com/sluice-project/sluice/exec/join"
)

// An input's layout follows JoinUtil#analyzeJoinInput: no upsert key, distinct rows; an upsert
// key within the join key, one row per join key; otherwise one row per unique key, the first of
// the smallest.
func TestInputLayout(t *testing.T) {
	for _, c := range []struct {
		name       string
		upsertKeys [][]int
		joinKeys   []int
		layout     join.Layout
		uk         []int
	}{
		{"no upsert key", nil, []int{0}, join.NoUniqueKey, nil},
		{"upsert key is the join key", [][]int{{0}}, []int{0}, join.JoinKeyUnique, []int{0}},
		{"upsert key within the join key", [][]int{{2}}, []int{0, 2}, join.JoinKeyUnique, []int{2}},
		{"one of two upsert keys within the join key", [][]int{{1}, {0, 2}}, []int{0, 2}, join.JoinKeyUnique, []int{0, 2}},
		{"upsert key beyond the join key", [][]int{{0, 1}}, []int{0}, join.UniqueKey, []int{0, 1}},
		{"the first of the smallest", [][]int{{1, 2}, {3}, {2}}, []int{0}, join.UniqueKey, []int{3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			layout, uk, err := inputLayout(c.upsertKeys, c.joinKeys, 4)
			if err != nil || layout != c.layout || !reflect.DeepEqual(uk, c.uk) {
				t.Errorf("got %v %v %v, want %v %v", layout, uk, err, c.layout, c.uk)
			}
		})
	}
	for _, bad := range [][][]int{{{}}, {{4}}, {{-1}}} {
		if _, _, err := inputLayout(bad, []int{0}, 4); err == nil || !strings.Contains(err.Error(), "upsert key") {
			t.Errorf("upsert keys %v: %v", bad, err)
		}
	}
}
