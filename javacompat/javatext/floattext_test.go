package javatext

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestAppendDoubleGolden compares with Java 17's Double.toString and Float.toString on the
// values of testdata/float_text.txt (io.sluice.tools.FloatTextGolden). SLUICE_FLOAT_TEXT names
// another file of the same form, such as the tool's random output of make test-long.
func TestAppendDoubleGolden(t *testing.T) {
	path := "testdata/float_text.txt"
	if p := os.Getenv("SLUICE_FLOAT_TEXT"); p != "" {
		path = p
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	var buf []byte
	var p FloatPrinter
	lines, failures := 0, 0
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 3 {
			t.Fatalf("%s: malformed line %q", path, sc.Text())
		}
		bits, err := strconv.ParseUint(fields[1], 16, 64)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if fields[0] == "D" {
			buf = p.AppendDouble(buf[:0], math.Float64frombits(bits))
		} else {
			buf = p.AppendFloat(buf[:0], math.Float32frombits(uint32(bits)))
		}
		lines++
		if string(buf) != fields[2] {
			failures++
			if failures <= 20 {
				t.Errorf("%s %s: got %s, Java prints %s", fields[0], fields[1], buf, fields[2])
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if lines < 1000 && path == "testdata/float_text.txt" {
		t.Fatalf("only %d lines in %s", lines, path)
	}
	if failures > 0 {
		t.Errorf("%d of %d values differ", failures, lines)
	}
}

func TestAppendDoubleForms(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0.001, "0.001"}, {1e7, "1.0E7"}, {9999999, "9999999.0"}, {-1.5, "-1.5"}, {100, "100.0"},
		{1e-4, "1.0E-4"}, {1.25e-3, "0.00125"}, {1e100, "1.0E100"}, {math.Copysign(0, -1), "-0.0"},
	} {
		if got := string(AppendDouble(nil, c.v)); got != c.want {
			t.Errorf("AppendDouble(%v) = %s, want %s", c.v, got, c.want)
		}
	}
}

func BenchmarkAppendDouble(b *testing.B) {
	values := []float64{123.456, 0.1, 1e-7, 98765.4321, 3.141592653589793, 1e300, 42}
	var buf []byte
	var p FloatPrinter
	for i := 0; b.Loop(); i++ {
		buf = p.AppendDouble(buf[:0], values[i%len(values)])
	}
}
