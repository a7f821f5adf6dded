package expr

import (
	"strings"
	"testing"

	"github.com/sluice-project/sluice/catalog"
)

// TestToTimestampFormatOnlyProjected checks that TO_TIMESTAMP(s, format) inside another
// expression falls back: Flink's value there can keep sub-millisecond digits.
func TestToTimestampFormatOnlyProjected(t *testing.T) {
	str := catalog.StringType(true)
	ts := catalog.TimestampType(3, true)
	types := []catalog.Type{str}
	parse := call("TO_TIMESTAMP", ts, ref(0, str), lit("yyyy-MM-dd HH:mm:ss", str))
	if _, err := CompileIn(parse, types, Env{JVMZoneFixed: true}); err != nil {
		t.Fatalf("projected TO_TIMESTAMP(s, format): %v", err)
	}
	around := call("IS NULL", catalog.BooleanType(false), parse)
	if _, err := CompileIn(around, types, Env{JVMZoneFixed: true}); err == nil || !strings.Contains(err.Error(), "sub-millisecond") {
		t.Errorf("TO_TIMESTAMP(s, format) inside IS NULL: %v, want a fallback", err)
	}
}
