package expr

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// int64At is value i of an integer-backed column (DATE, TIME, TIMESTAMP, BIGINT) as an int64,
// for tests that compare such columns with expected values.
func int64At(a arrow.Array, i int) int64 {
	switch a := a.(type) {
	case *array.Date32:
		return int64(a.Value(i))
	case *array.Time32:
		return int64(a.Value(i))
	case *array.Timestamp:
		return int64(a.Value(i))
	case *array.Int64:
		return a.Value(i)
	case *array.Duration:
		return int64(a.Value(i))
	}
	panic(fmt.Sprintf("int64At: column of type %s", a.DataType()))
}
