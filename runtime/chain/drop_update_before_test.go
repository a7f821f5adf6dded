package chain

import (
	"fmt"
	"testing"
)

// The -U rows of a changelog are dropped, the others kept in order with their input rows.
func TestDropUpdateBefore(t *testing.T) {
	for _, c := range []struct {
		kinds []byte
		want  string
	}{
		{[]byte{0, 1, 2, 3, 1, 0}, "[0 2 3 0] [0 2 3 5]"},
		{[]byte{1, 1}, "[] []"},
		{nil, "[] []"},
	} {
		var data []byte
		offsets := []int32{0}
		for i, k := range c.kinds {
			data = append(data, k, byte(i), 0xAA) // a row: its kind, then its body
			offsets = append(offsets, int32(len(data)))
		}
		s := &dropUpdateBeforeStage{}
		if err := s.Process(data, offsets); err != nil {
			t.Fatal(err)
		}
		out, outOffsets, sel := s.Output()
		var kinds []byte
		for r := 0; r+1 < len(outOffsets); r++ {
			row := out[outOffsets[r]:outOffsets[r+1]]
			if len(row) != 3 || int(row[1]) != int(sel[r]) {
				t.Fatalf("row %d: %v from input row %d", r, row, sel[r])
			}
			kinds = append(kinds, row[0])
		}
		if got := fmt.Sprint(kinds, sel); got != c.want {
			t.Fatalf("kinds %v", got)
		}
	}
}
