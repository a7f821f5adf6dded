package javahash

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// integerColumn is a column of Integer keys (Integer#hashCode is the value; Integers compare).
type integerColumn []int32

func (k integerColumn) Codes(codes []int32) { copy(codes, k) }

func (k integerColumn) Equal(i, j int) bool { return k[i] == k[j] }

func (k integerColumn) Compare(i, j int) (int, bool) {
	switch {
	case k[i] < k[j]:
		return -1, true
	case k[i] > k[j]:
		return 1, true
	}
	return 0, true
}

func (k integerColumn) IsNull(int) bool { return false }

// TestHashMapChurnMatchesJava replays the computeIfAbsent, remove and clear calls (removals from
// red-black tree bins among them) of testdata/hashmap_churn.txt, which Java 17 printed
// (io.sluice.tools.HashMapChurnGolden), and compares the iteration order.
func TestHashMapChurnMatchesJava(t *testing.T) {
	f, err := os.Open("testdata/hashmap_churn.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	lines, removed, trees, treeRemovals := 0, 0, 0, 0
	for sc.Scan() {
		lines++
		opsText, want, _ := strings.Cut(sc.Text(), "|")
		var m HashMap
		var keys integerColumn
		var ops []string
		if opsText != "" {
			ops = strings.Split(opsText, ",")
		}
		for _, op := range ops {
			if op == "x" {
				m.Clear()
				continue
			}
			v, err := strconv.Atoi(op[1:])
			if err != nil {
				t.Fatalf("line %d: op %q", lines, op)
			}
			keys = append(keys, int32(v))
			e := len(keys) - 1
			switch op[0] {
			case 'c':
				m.ComputeIfAbsent(keys[e], e, keys)
			case 'r':
				if len(m.table) > 0 {
					if b := m.table[(int32(len(m.table))-1)&spread(keys[e])]; b != none && m.nodes[b].tree {
						treeRemovals++
					}
				}
				if m.Remove(keys[e], e, keys) {
					removed++
				}
			}
		}
		for _, e := range m.table {
			if e != none && m.nodes[e].tree {
				trees++
			}
		}
		entries, _ := m.AppendEntries(nil, nil)
		got := make([]string, len(entries))
		for i, e := range entries {
			got[i] = strconv.Itoa(int(keys[e]))
		}
		if g := strings.Join(got, ","); g != want {
			t.Errorf("line %d (%d ops):\n got  %s\n want %s", lines, len(ops), g, want)
		}
		if m.Len() != len(entries) {
			t.Errorf("line %d: Len %d, %d entries", lines, m.Len(), len(entries))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if lines < 300 || removed < 400 || trees < 10 || treeRemovals < 50 {
		t.Fatalf("only %d cases read, %d keys removed (%d from tree bins), %d tree buckets left in them", lines, removed, treeRemovals, trees)
	}
}
