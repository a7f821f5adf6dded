package join

// maxPairs bounds the candidate pairs matched at once: a batch whose rows have more candidates
// (a hot key) is matched and replayed in runs of whole rows.
const maxPairs = 1 << 16

// pairList is the candidate pairs of a run of arriving rows (each against rows the other input
// keeps), whose join condition is evaluated in one call.
type pairList struct {
	lefts, rights [][]byte
	matches       []bool
}

// reset forgets the pairs. Their slices are cleared, not only cut: they point into the join's
// state, whose old arenas (after a compaction) a stale slice would keep alive.
func (p *pairList) reset() {
	clear(p.lefts)
	clear(p.rights)
	p.lefts, p.rights = p.lefts[:0], p.rights[:0]
}

// full reports whether the run has as many pairs as are matched at once.
func (p *pairList) full() bool { return len(p.lefts) >= maxPairs }

// add lists the pair of a row arriving on side and a row the other side keeps, and returns its
// index.
func (p *pairList) add(side Side, row, kept []byte) int32 {
	l, r := row, kept
	if side == RightSide {
		l, r = r, l
	}
	p.lefts, p.rights = append(p.lefts, l), append(p.rights, r)
	return int32(len(p.lefts) - 1)
}

// match evaluates the condition on every pair listed.
func (p *pairList) match(m PairMatcher) error {
	n := len(p.lefts)
	if cap(p.matches) < n {
		p.matches = make([]bool, n)
	}
	p.matches = p.matches[:n]
	if n == 0 {
		return nil
	}
	return m(p.lefts, p.rights, p.matches)
}
