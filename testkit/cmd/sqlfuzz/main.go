// Command sqlfuzz prints the cases of the differential expression fuzzer, one JSON object per
// line: `sqlfuzz -seed 1 -cases 100` prints the cases of seeds 1 to 100. The Flink side
// (io.sluice.fuzz.FuzzRunner) runs them on stock Flink and on Sluice.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/sluice-project/sluice/testkit/fuzz"
)

func main() {
	seed := flag.Uint64("seed", 1, "seed of the first case")
	cases := flag.Int("cases", 1, "number of cases (consecutive seeds)")
	rows := flag.Int("rows", 24, "rows per table")
	exprs := flag.Int("exprs", 40, "expressions per case")
	depth := flag.Int("depth", 3, "deepest nesting of calls")
	flag.Parse()
	if err := run(*seed, *cases, fuzz.Options{Rows: *rows, Exprs: *exprs, MaxDepth: *depth}); err != nil {
		fmt.Fprintln(os.Stderr, "sqlfuzz:", err)
		os.Exit(1)
	}
}

func run(seed uint64, cases int, o fuzz.Options) error {
	g, err := fuzz.RegistryGrammar()
	if err != nil {
		return err
	}
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	for k := 0; k < cases; k++ {
		if err := enc.Encode(fuzz.Generate(g, seed+uint64(k), o)); err != nil {
			return fmt.Errorf("case of seed %d: %w", seed+uint64(k), err)
		}
	}
	return w.Flush()
}
