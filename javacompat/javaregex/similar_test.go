package javaregex

import (
	"testing"

	"github.com/sluice-project/sluice/testkit/golden"
)

// TestSimilarMatchesFlink replays testdata/similar.txt, printed by Flink's SqlLikeUtils
// (io.sluice.tools.SimilarGolden): the translated regex must be Flink's character for
// character, a pattern Flink rejects must be rejected, and every regex that Compile accepts
// must match the inputs as java.util.regex does; one that Java fails on must be refused.
func TestSimilarMatchesFlink(t *testing.T) {
	unhex := func(s string) string { return string(golden.Bytes(t, s)) }
	var (
		p                  *Pattern
		pattern            string
		patterns, compiled int
	)
	for _, fields := range golden.Lines(t, "testdata/similar.txt") {
		switch fields[0] {
		case "P":
			patterns++
			pattern = unhex(fields[1])
			escape, hasEscape := "", fields[2] != "~"
			if hasEscape {
				escape = unhex(fields[2])
			}
			p = nil
			got, err := FromSimilar(pattern, escape, hasEscape)
			if fields[3] == "!" {
				if err == nil {
					t.Errorf("pattern %q escape %q: Flink rejects it, Sluice made %q", pattern, escape, got)
				}
				continue
			}
			if want := unhex(fields[3]); err != nil || got != want {
				t.Errorf("pattern %q escape %q: got %q (%v), want %q", pattern, escape, got, err, want)
				continue
			}
			if p, err = Compile(got); err == nil {
				compiled++
			}
		case "I":
			if p == nil {
				continue
			}
			in := unhex(fields[1])
			if fields[2] == "!" {
				t.Errorf("pattern %q: java.util.regex fails on it, javaregex compiled it", pattern)
				p = nil
				continue
			}
			if got, want := p.Matches([]byte(in)), fields[2] == "1"; got != want {
				t.Errorf("%q SIMILAR TO %q: got %v, want %v", in, pattern, got, want)
			}
		}
	}
	if compiled < patterns/3 {
		t.Errorf("only %d of %d patterns run natively", compiled, patterns)
	}
	t.Logf("%d patterns, %d run natively", patterns, compiled)
}
