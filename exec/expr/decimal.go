package expr

import (
	"math/big"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

// bigOf returns the unscaled value of d.
func bigOf(d decimal128.Num) *big.Int { return d.BigInt() }

// Decimal arithmetic follows Flink's DecimalDataUtils, as package exec/decimal implements it.
