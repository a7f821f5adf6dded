package javatime

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestUtilWallOffsetAsJava checks wall times read in zones with transitions against the instants
// java.util's SimpleDateFormat gives them (testdata/util_wall_offsets.txt, printed by
// io.sluice.tools.WallGolden): in and around every gap and overlap from 1890 to 2050, around
// 1900-01-01 and at random.
func TestUtilWallOffsetAsJava(t *testing.T) {
	f, err := os.Open("testdata/util_wall_offsets.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Transitions where Go's embedded tz database and JDK 17's differ (a data difference, see
	// docs/divergences.md "Time zone rules"): São Paulo's ends of summer time in 1965 and 1966,
	// Dublin's in 1925.
	dataDiffers := map[string]string{"America/Sao_Paulo": "1965-03-31 1966-02-28", "Europe/Dublin": "1925-09-20"}
	zones := map[string]*Offsets{}
	checked, mismatches := 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		if len(parts) != 3 {
			t.Fatalf("bad line %q", line)
		}
		o, ok := zones[parts[0]]
		if !ok {
			z, err := LoadZone(parts[0])
			if err != nil {
				t.Fatal(err)
			}
			offsets := z.Offsets()
			o = &offsets
			zones[parts[0]] = o
		}
		if d, ok := dataDiffers[parts[0]]; ok && strings.Contains(d, parts[1][:10]) {
			continue
		}
		var f [7]int32
		for i, s := range strings.FieldsFunc(parts[1], func(r rune) bool { return r == '-' || r == ' ' || r == ':' || r == '.' }) {
			v, err := strconv.Atoi(s)
			if err != nil {
				t.Fatalf("bad wall time %q", parts[1])
			}
			f[i] = int32(v)
		}
		wall := LenientCalendarMillis(f[0], f[1]-1, f[2], f[3], f[4], f[5], f[6])
		want, _ := strconv.ParseInt(parts[2], 10, 64)
		checked++
		if got := wall - o.UtilWallOffset(wall); got != want {
			mismatches++
			if mismatches <= 20 {
				t.Errorf("%s %s: instant %d, java.util %d (offset %d, java.util's %d)", parts[0], parts[1], got, want, wall-got, wall-want)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if checked < 5000 || mismatches > 0 {
		t.Fatalf("%d wall times checked, %d differ from java.util", checked, mismatches)
	}
}
