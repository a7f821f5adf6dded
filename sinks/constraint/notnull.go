// Package constraint enforces a sink table's NOT NULL columns on the batches written into it,
// as Flink's ConstraintEnforcer does in front of every sink (NotNullConstraint,
// 'table.exec.sink.not-null-enforcer'): ERROR fails the job with Flink's message, naming the
// first NOT NULL column holding a NULL in the first such row; DROP drops those rows.
package constraint

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
)

// NotNullOption is the Flink option that chooses what happens to a NULL in a NOT NULL column.
const NotNullOption = "table.exec.sink.not-null-enforcer"

// Mode is a value of 'table.exec.sink.not-null-enforcer'.
type Mode int

// The modes of Flink's NotNullEnforcer.
const (
	Error Mode = iota // Flink's default
	Drop
)

// ParseMode reads a value of 'table.exec.sink.not-null-enforcer' as Flink's configuration does
// (the enum's name, any case); an empty value is Flink's default, ERROR.
func ParseMode(s string) (Mode, error) {
	switch strings.ToUpper(s) {
	case "", "ERROR":
		return Error, nil
	case "DROP":
		return Drop, nil
	}
	return Error, fmt.Errorf("'%s' = '%s' is not ERROR or DROP", NotNullOption, s)
}

// NotNull checks the NOT NULL columns of a sink's rows.
type NotNull struct {
	cols  []int
	names []string
	mode  Mode
}

// NewNotNull returns the check of the columns whose types are NOT NULL, or nil when there is
// none (Flink adds no NotNullConstraint then).
func NewNotNull(names []string, types []catalog.Type, mode Mode) *NotNull {
	e := &NotNull{mode: mode}
	for i, t := range types {
		if !t.Nullable {
			e.cols, e.names = append(e.cols, i), append(e.names, names[i])
		}
	}
	if len(e.cols) == 0 {
		return nil
	}
	return e
}

// Enforce returns the rows of b to write (b itself, retained, when no NOT NULL column holds
// a NULL; nil when DROP leaves no row) or, in ERROR mode, Flink's error. The caller releases
// the returned batch.
func (e *NotNull) Enforce(b arrow.RecordBatch, mem memory.Allocator) (arrow.RecordBatch, error) {
	n := int(b.NumRows())
	var drop []bool // rows with a NULL in a NOT NULL column; nil while there is none
	for _, c := range e.cols {
		col := b.Column(c)
		if col.NullN() == 0 {
			continue
		}
		if drop == nil {
			drop = make([]bool, n)
		}
		bits, off := column.ValidBits(col)
		for i := range drop {
			drop[i] = drop[i] || !column.Valid(bits, off, i)
		}
	}
	if drop == nil {
		b.Retain()
		return b, nil
	}
	sel := make([]int32, 0, n)
	for i, d := range drop {
		if !d {
			sel = append(sel, int32(i))
			continue
		}
		if e.mode == Error {
			return nil, e.failure(b, i)
		}
	}
	if len(sel) == 0 {
		return nil, nil
	}
	out, err := column.TakeBatch(b, sel, mem)
	if err != nil {
		return nil, fmt.Errorf("NOT NULL check: %w", err)
	}
	return out, nil
}

// failure is Flink's EnforcerException for row i: the first NOT NULL column NULL in it.
func (e *NotNull) failure(b arrow.RecordBatch, i int) error {
	name := e.names[0]
	for k, c := range e.cols {
		if b.Column(c).IsNull(i) {
			name = e.names[k]
			break
		}
	}
	return fmt.Errorf("Column '%s' is NOT NULL, however, a null value is being written into it. "+
		"You can set job configuration '%s'='DROP' to suppress this exception and drop such records silently.",
		name, NotNullOption)
}

// The other options of Flink's ConstraintEnforcer; their default, IGNORE, checks nothing.
const (
	TypeLengthOption = "table.exec.sink.type-length-enforcer"
	NestedOption     = "table.exec.sink.nested-constraint-enforcer"
)

// ForSink returns the NOT NULL check of a sink table's physical columns under the job's options
// (nil when it has no NOT NULL column), and why the constraints Flink would enforce on these
// columns are not reproduced: a length enforcer ('table.exec.sink.type-length-enforcer' other
// than IGNORE) on CHAR, VARCHAR(n), BINARY or VARBINARY(n) columns, nested constraints
// ('table.exec.sink.nested-constraint-enforcer') on ROW, ARRAY or MAP columns.
func ForSink(names []string, types []catalog.Type, options map[string]string) (*NotNull, []string) {
	var reasons []string
	mode, err := ParseMode(options[NotNullOption])
	if err != nil {
		reasons = append(reasons, err.Error())
	}
	if v := options[TypeLengthOption]; v != "" && !strings.EqualFold(v, "IGNORE") {
		for i, t := range types {
			if t.Kind == catalog.Char || t.Kind == catalog.Binary ||
				((t.Kind == catalog.VarChar || t.Kind == catalog.VarBinary) && t.Length < catalog.MaxVarLength) {
				reasons = append(reasons, fmt.Sprintf("column %s: '%s' = '%s' (trimming or padding to %s) is not reproduced natively", names[i], TypeLengthOption, v, t))
			}
		}
	}
	if v := options[NestedOption]; v != "" && !strings.EqualFold(v, "IGNORE") {
		for i, t := range types {
			if t.IsNested() {
				reasons = append(reasons, fmt.Sprintf("column %s: '%s' = '%s' is not reproduced natively", names[i], NestedOption, v))
			}
		}
	}
	return NewNotNull(names, types, mode), reasons
}
