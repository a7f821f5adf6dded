package iceberg

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/sluice-project/sluice/catalog"
	"github.com/sluice-project/sluice/exec/column"
	"github.com/sluice-project/sluice/sources/parquet"
)

// convertColumn is FlinkParquetReaders' choice of reader for a file column and an expected
// Iceberg type, as parquet.ConvertFunc: the physical types Iceberg writes for each type, plus
// the promotions Iceberg's schema evolution allows.
func convertColumn(name string, f pqarrow.SchemaField, phys pq.Type, t catalog.Type) (parquet.Converter, error) {
	want := arrowTypeOf(t)
	have := f.Field.Type
	switch t.Kind {
	case catalog.Boolean:
		if phys == pq.Types.Boolean {
			return parquet.Retype(want), nil
		}
	case catalog.Int:
		if phys == pq.Types.Int32 && arrow.IsInteger(have.ID()) {
			return parquet.IntegerTo[int32](have, want), nil
		}
	case catalog.BigInt:
		// int -> long is a promotion Iceberg allows (IntAsLongReader).
		if (phys == pq.Types.Int64 || phys == pq.Types.Int32) && arrow.IsInteger(have.ID()) {
			return parquet.IntegerTo[int64](have, want), nil
		}
	case catalog.Float:
		if phys == pq.Types.Float {
			return parquet.Retype(want), nil
		}
	case catalog.Double:
		switch phys {
		case pq.Types.Double:
			return parquet.Retype(want), nil
		case pq.Types.Float: // float -> double promotion (FloatAsDoubleReader)
			return floatAsDouble(want), nil
		}
	case catalog.Date:
		if phys == pq.Types.Int32 && (have.ID() == arrow.DATE32 || arrow.IsInteger(have.ID())) {
			return parquet.IntegerTo[int32](have, want), nil
		}
	case catalog.Time:
		// Iceberg stores TIME in microseconds; Flink's TIME is the int of milliseconds
		// (TimeMillisReader: micros / 1000).
		if phys == pq.Types.Int64 {
			return microsToMillis(want), nil
		}
	case catalog.Decimal:
		// Promotion only widens the precision at the same scale: the unscaled values are kept.
		if d, ok := have.(*arrow.Decimal128Type); ok && d.Scale == int32(t.Scale) && d.Precision <= int32(t.Precision) {
			return parquet.Retype(want), nil
		}
	case catalog.VarChar:
		if phys == pq.Types.ByteArray && (have.ID() == arrow.STRING || have.ID() == arrow.BINARY) {
			return parquet.Retype(want), nil
		}
	case catalog.Timestamp, catalog.TimestampLTZ:
		// Microseconds since the epoch (UTC wall clock for timestamp, instant for timestamptz),
		// the value of Flink's TimestampData at precision 6.
		if ts, ok := have.(*arrow.TimestampType); ok && phys == pq.Types.Int64 && ts.Unit == arrow.Microsecond {
			return parquet.Retype(want), nil
		}
	case catalog.VarBinary, catalog.Binary:
		switch {
		case phys == pq.Types.ByteArray && (have.ID() == arrow.STRING || have.ID() == arrow.BINARY):
			return parquet.Retype(want), nil
		case phys == pq.Types.FixedLenByteArray && have.ID() == arrow.FIXED_SIZE_BINARY:
			return fixedAsBinary(want), nil
		case phys == pq.Types.FixedLenByteArray && have.ID() == arrow.EXTENSION &&
			have.(arrow.ExtensionType).StorageType().ID() == arrow.FIXED_SIZE_BINARY:
			// uuid: pqarrow reads the UUID annotation as the arrow.uuid extension type.
			return fixedAsBinary(want), nil
		}
	}
	return nil, fmt.Errorf("column %s: the file's %s column (read as %s) cannot be read as %s", name, phys, have, t)
}

// floatAsDouble widens FLOAT values exactly, as Java's (double) cast.
func floatAsDouble(want arrow.DataType) parquet.Converter {
	return func(in arrow.Array, mem memory.Allocator) (arrow.Array, error) {
		src := column.Values[float32](in)
		buf, dst := column.NewValues[float64](mem, len(src))
		for i, v := range src {
			dst[i] = float64(v)
		}
		return column.MakeArray(want, len(src), column.CopyValidity(in, mem), buf), nil
	}
}

// microsToMillis turns TIME microseconds of the day into Flink's int milliseconds.
func microsToMillis(want arrow.DataType) parquet.Converter {
	return func(in arrow.Array, mem memory.Allocator) (arrow.Array, error) {
		src := column.Values[int64](in)
		buf, dst := column.NewValues[int32](mem, len(src))
		for i, v := range src {
			dst[i] = int32(v / 1000)
		}
		return column.MakeArray(want, len(src), column.CopyValidity(in, mem), buf), nil
	}
}

// fixedAsBinary copies FIXED(L) (and UUID) values into the variable-width binary layout
// Sluice's batches use for BINARY(L).
func fixedAsBinary(want arrow.DataType) parquet.Converter {
	return func(in arrow.Array, mem memory.Allocator) (arrow.Array, error) {
		if ext, ok := in.(array.ExtensionArray); ok {
			in = ext.Storage()
		}
		fixed := in.(*array.FixedSizeBinary)
		b := array.NewBinaryBuilder(mem, want.(arrow.BinaryDataType))
		defer b.Release()
		b.Reserve(fixed.Len())
		for i := 0; i < fixed.Len(); i++ {
			if fixed.IsNull(i) {
				b.AppendNull()
				continue
			}
			b.Append(fixed.Value(i))
		}
		return b.NewArray(), nil
	}
}
