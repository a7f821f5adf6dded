package javaregex

import (
	"bufio"
	"encoding/hex"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
)

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	if s == "-" {
		return []byte{}
	}
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// TestMatchesJava compares Compile, Find, Submatch and ReplaceAll with what java.util.regex
// printed (testdata/java.txt, written by io.sluice.tools.RegexGolden) for hand-picked and 600
// random patterns on 25 strings with line terminators, supplementary characters and \x0B. A
// pattern Java rejects must be refused; a pattern Compile accepts must behave as Java's on
// every string.
func TestMatchesJava(t *testing.T) {
	f, err := os.Open("testdata/java.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var p *Pattern
	var src string
	accepted, refused, checked := 0, 0, 0
	for sc.Scan() {
		fields := strings.Split(sc.Text(), " ")
		switch fields[0] {
		case "P":
			src = string(unhex(t, fields[1]))
			var err error
			p, err = Compile(src)
			if fields[2] == "invalid" {
				if err == nil {
					t.Errorf("%q: Java rejects it, Compile accepted it", src)
				}
				p = nil
				continue
			}
			if err != nil {
				var u *Unsupported
				if !errors.As(err, &u) {
					t.Errorf("%q: %v is not an Unsupported", src, err)
				}
				refused++
				continue
			}
			accepted++
			if g, _ := strconv.Atoi(fields[2]); g != p.Groups {
				t.Errorf("%q: %d groups, Java %d", src, p.Groups, g)
			}
		case "I":
			if p == nil {
				continue
			}
			in := unhex(t, fields[1])
			checked++
			if got := p.Find(in); got != (fields[2] == "1") {
				t.Errorf("%q find in %q: %v, Java %s", src, in, got, fields[2])
			}
			for g := 0; g <= p.Groups; g++ {
				want := fields[3+g]
				sub, ok := p.Submatch(in, g)
				got := "~"
				if ok {
					got = hex.EncodeToString(sub)
					if got == "" {
						got = "-"
					}
				}
				if got != want {
					t.Errorf("%q group %d of %q: %s, Java %s", src, g, in, got, want)
				}
			}
			if !p.Nullable {
				want := string(unhex(t, fields[len(fields)-1]))
				if got := string(p.ReplaceAll(nil, in, []byte("<>"))); got != want {
					t.Errorf("%q replaceAll in %q: %q, Java %q", src, in, got, want)
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if accepted < 150 || checked < 3000 {
		t.Fatalf("only %d patterns accepted (%d refused), %d strings checked", accepted, refused, checked)
	}
	t.Logf("%d patterns accepted, %d refused; %d pattern-string pairs checked", accepted, refused, checked)
}
