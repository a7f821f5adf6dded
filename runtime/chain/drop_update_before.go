package chain

import "github.com/sluice-project/sluice/exec/changelog"

// dropUpdateBeforeStage drops the -U rows of a changelog (plan.DropUpdateBefore): the rest pass
// unchanged, each mapped to its input row.
type dropUpdateBeforeStage struct {
	data    []byte
	offsets []int32
	sel     []int32
}

// Process keeps the rows whose RowKind (a BinaryRowData's first byte) is not UPDATE_BEFORE.
func (s *dropUpdateBeforeStage) Process(data []byte, offsets []int32) error {
	s.data, s.offsets, s.sel = s.data[:0], append(s.offsets[:0], 0), s.sel[:0]
	for r := 0; r+1 < len(offsets); r++ {
		row := data[offsets[r]:offsets[r+1]]
		if len(row) > 0 && int8(row[0]) == changelog.UpdateBefore {
			continue
		}
		s.data = append(s.data, row...)
		s.offsets = append(s.offsets, int32(len(s.data)))
		s.sel = append(s.sel, int32(r))
	}
	return nil
}

// Output returns the rows kept by the last Process and the input row of each.
func (s *dropUpdateBeforeStage) Output() ([]byte, []int32, []int32) { return s.data, s.offsets, s.sel }
