package javahash

// HashMap replays the puts into a java.util.HashMap (as Java 8 to 21 implement it) to learn its
// iteration order: buckets by the spread hash code, each bucket's entries in list order, which
// resizes split preserving order and red-black tree bins (a bucket of 8 or more entries once the
// table has 64 buckets) reorder as their root moves to the front. A put of a key already there
// keeps the entry's place and takes the new value.
//
// Inside a tree bin, Java breaks a tie between two keys of equal hash code that are not
// comparable by System#identityHashCode (HashMap.TreeNode#tieBreakOrder). With a NULL key that
// is deterministic (null's identity hash code is 0, every object's is positive); between two
// strings it differs from run to run, and the replay takes the first of the two outcomes (as if
// the new key's identity hash code were the smaller).
//
// The entries are indexes into a Keys column; a HashMap is reused from map to map by Reset.
type HashMap struct {
	table     []int32 // bucket heads, -1 when empty
	spare     []int32
	nodes     []node
	size      int
	threshold int
	keys      Keys // of the current Put
}

// node is HashMap.Node, and HashMap.TreeNode when tree is set.
type node struct {
	hash  int32 // the spread hash code
	key   int32 // the entry whose key this is
	value int32 // the entry whose value was put last
	next  int32
	tree  bool
	red   bool
	// tree links
	parent, left, right, prev int32
}

const (
	defaultCapacity    = 16
	treeifyThreshold   = 8
	untreeifyThreshold = 6
	minTreeifyCapacity = 64
	none               = -1
)

// Reset empties the map.
func (m *HashMap) Reset() {
	m.table = m.table[:0]
	m.nodes = m.nodes[:0]
	m.size, m.threshold = 0, 0
}

// Clear is HashMap#clear: the entries go, the table keeps its capacity (so a map refilled
// after a clear iterates as one that grew to that capacity, not as a new map).
func (m *HashMap) Clear() {
	for i := range m.table {
		m.table[i] = none
	}
	m.nodes = m.nodes[:0]
	m.size = 0
}

// spread is HashMap#hash: the hash code's high half folded into the low half.
func spread(code int32) int32 { return code ^ int32(uint32(code)>>16) }

func (m *HashMap) newNode(hash, entry, next int32) int32 {
	m.nodes = append(m.nodes, node{hash: hash, key: entry, value: entry, next: next,
		parent: none, left: none, right: none, prev: none})
	return int32(len(m.nodes) - 1)
}

// Put is HashMap#put(keys[entry], value of entry), code being the key's hashCode().
func (m *HashMap) Put(code int32, entry int, keys Keys) {
	hash, e := spread(code), int32(entry)
	m.keys = keys
	if len(m.table) == 0 {
		m.resize()
	}
	i := (int32(len(m.table)) - 1) & hash
	p := m.table[i]
	found := int32(none)
	switch {
	case p == none:
		m.table[i] = m.newNode(hash, e, none)
	case m.nodes[p].hash == hash && keys.Equal(int(m.nodes[p].key), entry):
		found = p
	case m.nodes[p].tree:
		found = m.putTreeVal(p, hash, e)
	default:
		for binCount := 0; ; binCount++ {
			q := m.nodes[p].next
			if q == none {
				x := m.newNode(hash, e, none)
				m.nodes[p].next = x
				if binCount >= treeifyThreshold-1 {
					m.treeifyBin(hash)
				}
				break
			}
			if m.nodes[q].hash == hash && keys.Equal(int(m.nodes[q].key), entry) {
				found = q
				break
			}
			p = q
		}
	}
	if found != none {
		m.nodes[found].value = e
		return
	}
	m.size++
	if m.size > m.threshold {
		m.resize()
	}
}

// ComputeIfAbsent is HashMap#computeIfAbsent(keys[entry], k -> value of entry) with a function
// that never returns null: a key already there keeps its entry (returned, added false); a new
// key goes at the head of its bucket, unlike Put's tail (in a tree bin: after its tree parent,
// as Put). The table grows before the lookup when the map already holds more entries than its
// threshold, so a map filled by computeIfAbsent alone grows one key later than one filled by
// Put.
func (m *HashMap) ComputeIfAbsent(code int32, entry int, keys Keys) (int, bool) {
	hash, e := spread(code), int32(entry)
	m.keys = keys
	if m.size > m.threshold || len(m.table) == 0 {
		m.resize()
	}
	i := (int32(len(m.table)) - 1) & hash
	first := m.table[i]
	binCount := 0
	if first != none && m.nodes[first].tree {
		if q := m.find(m.root(first), hash, e); q != none {
			return int(m.nodes[q].key), false
		}
		m.putTreeVal(first, hash, e)
	} else {
		for p := first; p != none; p = m.nodes[p].next {
			if m.nodes[p].hash == hash && keys.Equal(int(m.nodes[p].key), entry) {
				return int(m.nodes[p].key), false
			}
			binCount++
		}
		m.table[i] = m.newNode(hash, e, first)
		if binCount >= treeifyThreshold-1 {
			m.treeifyBin(hash)
		}
	}
	m.size++
	return entry, true
}

// Remove is HashMap#remove(keys[entry]): a list bin's node is unlinked in place, the others
// keeping their order; a tree bin's node is removed as TreeNode#removeTreeNode removes it (a
// bin left too small becomes a list again, otherwise the tree is rebalanced and its root moves
// to the front). It reports whether the key was there.
func (m *HashMap) Remove(code int32, entry int, keys Keys) bool {
	if len(m.table) == 0 {
		return false
	}
	m.keys = keys
	hash := spread(code)
	i := (int32(len(m.table)) - 1) & hash
	first := m.table[i]
	if first != none && m.nodes[first].tree {
		q := m.find(m.root(first), hash, int32(entry))
		if q == none {
			return false
		}
		m.removeTreeNode(q)
		m.size--
		return true
	}
	prev := int32(none)
	for p := first; p != none; prev, p = p, m.nodes[p].next {
		if m.nodes[p].hash != hash || !keys.Equal(int(m.nodes[p].key), entry) {
			continue
		}
		if prev == none {
			m.table[i] = m.nodes[p].next
		} else {
			m.nodes[prev].next = m.nodes[p].next
		}
		m.size--
		return true
	}
	return false
}

// removeTreeNode is TreeNode#removeTreeNode(map, tab, movable = true) for node p.
func (m *HashMap) removeTreeNode(p int32) {
	n := &m.nodes
	index := (int32(len(m.table)) - 1) & (*n)[p].hash
	first := m.table[index]
	root := first
	succ, pred := (*n)[p].next, (*n)[p].prev
	if pred == none {
		m.table[index] = succ
		first = succ
	} else {
		(*n)[pred].next = succ
	}
	if succ != none {
		(*n)[succ].prev = pred
	}
	if first == none {
		return
	}
	if (*n)[root].parent != none {
		root = m.root(root)
	}
	if rr := (*n)[root].right; rr == none || (*n)[root].left == none || (*n)[(*n)[root].left].left == none {
		m.table[index] = m.untreeify(first) // too small
		return
	}
	pl, pr := (*n)[p].left, (*n)[p].right
	var replacement int32
	switch {
	case pl != none && pr != none:
		s := pr
		for sl := (*n)[s].left; sl != none; sl = (*n)[s].left {
			s = sl
		}
		(*n)[s].red, (*n)[p].red = (*n)[p].red, (*n)[s].red // swap colors
		sr := (*n)[s].right
		pp := (*n)[p].parent
		if s == pr { // p was s's direct parent
			(*n)[p].parent = s
			(*n)[s].right = p
		} else {
			sp := (*n)[s].parent
			if (*n)[p].parent = sp; sp != none {
				if s == (*n)[sp].left {
					(*n)[sp].left = p
				} else {
					(*n)[sp].right = p
				}
			}
			if (*n)[s].right = pr; pr != none {
				(*n)[pr].parent = s
			}
		}
		(*n)[p].left = none
		if (*n)[p].right = sr; sr != none {
			(*n)[sr].parent = p
		}
		if (*n)[s].left = pl; pl != none {
			(*n)[pl].parent = s
		}
		switch (*n)[s].parent = pp; {
		case pp == none:
			root = s
		case p == (*n)[pp].left:
			(*n)[pp].left = s
		default:
			(*n)[pp].right = s
		}
		if sr != none {
			replacement = sr
		} else {
			replacement = p
		}
	case pl != none:
		replacement = pl
	case pr != none:
		replacement = pr
	default:
		replacement = p
	}
	if replacement != p {
		pp := (*n)[p].parent
		(*n)[replacement].parent = pp
		switch {
		case pp == none:
			root = replacement
			(*n)[root].red = false
		case p == (*n)[pp].left:
			(*n)[pp].left = replacement
		default:
			(*n)[pp].right = replacement
		}
		(*n)[p].left, (*n)[p].right, (*n)[p].parent = none, none, none
	}
	r := root
	if !(*n)[p].red {
		r = m.balanceDeletion(root, replacement)
	}
	if replacement == p { // detach
		pp := (*n)[p].parent
		(*n)[p].parent = none
		if pp != none {
			if p == (*n)[pp].left {
				(*n)[pp].left = none
			} else if p == (*n)[pp].right {
				(*n)[pp].right = none
			}
		}
	}
	m.moveRootToFront(r)
}

// balanceDeletion is TreeNode#balanceDeletion (CLR's red-black deletion fix-up): the root after
// the removal that left x in the removed node's place.
func (m *HashMap) balanceDeletion(root, x int32) int32 {
	n := &m.nodes
	for {
		if x == none || x == root {
			return root
		}
		xp := (*n)[x].parent
		if xp == none {
			(*n)[x].red = false
			return x
		}
		if (*n)[x].red {
			(*n)[x].red = false
			return root
		}
		if xpl := (*n)[xp].left; xpl == x {
			xpr := (*n)[xp].right
			if xpr != none && (*n)[xpr].red {
				(*n)[xpr].red = false
				(*n)[xp].red = true
				root = m.rotateLeft(root, xp)
				if xp = (*n)[x].parent; xp == none {
					xpr = none
				} else {
					xpr = (*n)[xp].right
				}
			}
			if xpr == none {
				x = xp
				continue
			}
			sl, sr := (*n)[xpr].left, (*n)[xpr].right
			if (sr == none || !(*n)[sr].red) && (sl == none || !(*n)[sl].red) {
				(*n)[xpr].red = true
				x = xp
				continue
			}
			if sr == none || !(*n)[sr].red {
				if sl != none {
					(*n)[sl].red = false
				}
				(*n)[xpr].red = true
				root = m.rotateRight(root, xpr)
				if xp = (*n)[x].parent; xp == none {
					xpr = none
				} else {
					xpr = (*n)[xp].right
				}
			}
			if xpr != none {
				(*n)[xpr].red = xp != none && (*n)[xp].red
				if sr = (*n)[xpr].right; sr != none {
					(*n)[sr].red = false
				}
			}
			if xp != none {
				(*n)[xp].red = false
				root = m.rotateLeft(root, xp)
			}
			x = root
		} else {
			if xpl != none && (*n)[xpl].red {
				(*n)[xpl].red = false
				(*n)[xp].red = true
				root = m.rotateRight(root, xp)
				if xp = (*n)[x].parent; xp == none {
					xpl = none
				} else {
					xpl = (*n)[xp].left
				}
			}
			if xpl == none {
				x = xp
				continue
			}
			sl, sr := (*n)[xpl].left, (*n)[xpl].right
			if (sl == none || !(*n)[sl].red) && (sr == none || !(*n)[sr].red) {
				(*n)[xpl].red = true
				x = xp
				continue
			}
			if sl == none || !(*n)[sl].red {
				if sr != none {
					(*n)[sr].red = false
				}
				(*n)[xpl].red = true
				root = m.rotateLeft(root, xpl)
				if xp = (*n)[x].parent; xp == none {
					xpl = none
				} else {
					xpl = (*n)[xp].left
				}
			}
			if xpl != none {
				(*n)[xpl].red = xp != none && (*n)[xp].red
				if sl = (*n)[xpl].left; sl != none {
					(*n)[sl].red = false
				}
			}
			if xp != none {
				(*n)[xp].red = false
				root = m.rotateRight(root, xp)
			}
			x = root
		}
	}
}

// Len is the number of keys in the map.
func (m *HashMap) Len() int { return m.size }

// AppendEntries appends the map's entries in iteration order: the entry holding each key and
// the one whose value it maps to.
func (m *HashMap) AppendEntries(keys, values []int32) ([]int32, []int32) {
	for _, e := range m.table {
		for ; e != none; e = m.nodes[e].next {
			keys = append(keys, m.nodes[e].key)
			values = append(values, m.nodes[e].value)
		}
	}
	return keys, values
}

// resize is HashMap#resize: the table doubles (16 buckets first) and every bucket splits into
// the entries whose new hash bit is 0 (same index) and 1 (index + old capacity), in order.
func (m *HashMap) resize() {
	old := m.table
	oldCap := len(old)
	newCap := defaultCapacity
	if oldCap > 0 {
		newCap = oldCap << 1
	}
	m.threshold = newCap / 4 * 3
	tab := m.spare[:0]
	for range newCap {
		tab = append(tab, none)
	}
	m.table, m.spare = tab, old
	for j := 0; j < oldCap; j++ {
		e := old[j]
		switch {
		case e == none:
		case m.nodes[e].next == none:
			m.table[m.nodes[e].hash&int32(newCap-1)] = e
		case m.nodes[e].tree:
			m.split(e, int32(j), int32(oldCap))
		default:
			lo, hi := m.splitList(e, int32(oldCap), false)
			if lo.head != none {
				m.table[j] = lo.head
			}
			if hi.head != none {
				m.table[j+oldCap] = hi.head
			}
		}
	}
}

// half is one side of a bucket split: its list's ends and length.
type half struct {
	head, tail int32
	n          int
}

func (h *half) add(m *HashMap, e int32, linkPrev bool) {
	if linkPrev {
		m.nodes[e].prev = h.tail
	}
	if h.tail == none {
		h.head = e
	} else {
		m.nodes[h.tail].next = e
	}
	h.tail = e
	h.n++
}

// splitList relinks the list from e into the entries without and with bit in their hash,
// keeping their order (and the prev links of tree nodes when linkPrev).
func (m *HashMap) splitList(e, bit int32, linkPrev bool) (lo, hi half) {
	lo, hi = half{none, none, 0}, half{none, none, 0}
	for e != none {
		next := m.nodes[e].next
		m.nodes[e].next = none
		if m.nodes[e].hash&bit == 0 {
			lo.add(m, e, linkPrev)
		} else {
			hi.add(m, e, linkPrev)
		}
		e = next
	}
	return lo, hi
}

// split is TreeNode#split: each half of a tree bin becomes a plain list when it has at most 6
// entries, else a tree again (rebuilt only when the other half is not empty).
func (m *HashMap) split(b, index, bit int32) {
	lo, hi := m.splitList(b, bit, true)
	if lo.head != none {
		if lo.n <= untreeifyThreshold {
			m.table[index] = m.untreeify(lo.head)
		} else {
			m.table[index] = lo.head
			if hi.head != none {
				m.treeify(lo.head)
			}
		}
	}
	if hi.head != none {
		if hi.n <= untreeifyThreshold {
			m.table[index+bit] = m.untreeify(hi.head)
		} else {
			m.table[index+bit] = hi.head
			if lo.head != none {
				m.treeify(hi.head)
			}
		}
	}
}

func (m *HashMap) untreeify(head int32) int32 {
	for e := head; e != none; e = m.nodes[e].next {
		m.nodes[e].tree = false
	}
	return head
}

// treeifyBin is HashMap#treeifyBin: a table of fewer than 64 buckets grows instead.
func (m *HashMap) treeifyBin(hash int32) {
	n := int32(len(m.table))
	if n < minTreeifyCapacity {
		m.resize()
		return
	}
	head := m.table[(n-1)&hash]
	prev := int32(none)
	for e := head; e != none; e = m.nodes[e].next {
		m.nodes[e] = node{hash: m.nodes[e].hash, key: m.nodes[e].key, value: m.nodes[e].value,
			next: m.nodes[e].next, tree: true, parent: none, left: none, right: none, prev: prev}
		prev = e
	}
	m.treeify(head)
}

// tieDirection is where key x goes relative to key p of equal hash when the two are not
// equal: by their natural order if they have one, else by Java's identity tie-break (see
// HashMap).
func (m *HashMap) tieDirection(x, p int32) int {
	if c, ok := m.keys.Compare(int(x), int(p)); ok && c != 0 {
		return c
	}
	if m.keys.IsNull(int(p)) {
		return 1
	}
	return -1
}

// treeify is TreeNode#treeify: the list from head inserted into a red-black tree in order,
// whose root then moves to the front of the bucket.
func (m *HashMap) treeify(head int32) {
	root := int32(none)
	for x := head; x != none; {
		next := m.nodes[x].next
		m.nodes[x].left, m.nodes[x].right = none, none
		if root == none {
			m.nodes[x].parent = none
			m.nodes[x].red = false
			root = x
			x = next
			continue
		}
		h := m.nodes[x].hash
		for p := root; ; {
			dir := m.hashDirection(h, p)
			if dir == 0 {
				dir = m.tieDirection(m.nodes[x].key, m.nodes[p].key)
			}
			if child := m.child(p, dir); child != none {
				p = child
				continue
			}
			m.attach(x, p, dir)
			root = m.balanceInsertion(root, x)
			break
		}
		x = next
	}
	m.moveRootToFront(root)
}

// hashDirection orders hash h against tree node p's: -1 left, 1 right, 0 equal.
func (m *HashMap) hashDirection(h, p int32) int {
	switch ph := m.nodes[p].hash; {
	case ph > h:
		return -1
	case ph < h:
		return 1
	}
	return 0
}

// child is p's left child for dir <= 0, else its right.
func (m *HashMap) child(p int32, dir int) int32 {
	if dir <= 0 {
		return m.nodes[p].left
	}
	return m.nodes[p].right
}

// attach makes x the child of p on dir's side.
func (m *HashMap) attach(x, p int32, dir int) {
	m.nodes[x].parent = p
	if dir <= 0 {
		m.nodes[p].left = x
	} else {
		m.nodes[p].right = x
	}
}

// putTreeVal is TreeNode#putTreeVal: the tree node holding an equal key, or none after a new
// node was linked into the tree and, in the bucket's list, right after its tree parent.
func (m *HashMap) putTreeVal(first, h, e int32) int32 {
	root := m.root(first)
	searched := false
	for p := root; ; {
		dir := m.hashDirection(h, p)
		if dir == 0 {
			pk := m.nodes[p].key
			if m.keys.Equal(int(pk), int(e)) {
				return p
			}
			if c, ok := m.keys.Compare(int(e), int(pk)); ok && c != 0 {
				dir = c
			} else {
				if !searched {
					searched = true
					if l := m.nodes[p].left; l != none {
						if q := m.find(l, h, e); q != none {
							return q
						}
					}
					if r := m.nodes[p].right; r != none {
						if q := m.find(r, h, e); q != none {
							return q
						}
					}
				}
				dir = m.tieDirection(e, pk)
			}
		}
		if child := m.child(p, dir); child != none {
			p = child
			continue
		}
		xpn := m.nodes[p].next
		x := m.newNode(h, e, xpn)
		m.nodes[x].tree = true
		m.attach(x, p, dir)
		m.nodes[p].next = x
		m.nodes[x].prev = p
		if xpn != none {
			m.nodes[xpn].prev = x
		}
		m.moveRootToFront(m.balanceInsertion(root, x))
		return none
	}
}

// find is TreeNode#find: the node under p holding a key equal to entry e's, or none.
func (m *HashMap) find(p, h, e int32) int32 {
	for p != none {
		pl, pr := m.nodes[p].left, m.nodes[p].right
		switch dir := m.hashDirection(h, p); {
		case dir < 0:
			p = pl
		case dir > 0:
			p = pr
		case m.keys.Equal(int(m.nodes[p].key), int(e)):
			return p
		case pl == none:
			p = pr
		case pr == none:
			p = pl
		default:
			if c, ok := m.keys.Compare(int(e), int(m.nodes[p].key)); ok && c != 0 {
				if c < 0 {
					p = pl
				} else {
					p = pr
				}
			} else if q := m.find(pr, h, e); q != none {
				return q
			} else {
				p = pl
			}
		}
	}
	return none
}

func (m *HashMap) root(x int32) int32 {
	for m.nodes[x].parent != none {
		x = m.nodes[x].parent
	}
	return x
}

// moveRootToFront is TreeNode#moveRootToFront: the tree's root becomes the bucket's first
// node, the others keeping their order.
func (m *HashMap) moveRootToFront(root int32) {
	index := (int32(len(m.table)) - 1) & m.nodes[root].hash
	first := m.table[index]
	if root == first {
		return
	}
	m.table[index] = root
	rp, rn := m.nodes[root].prev, m.nodes[root].next
	if rn != none {
		m.nodes[rn].prev = rp
	}
	if rp != none {
		m.nodes[rp].next = rn
	}
	if first != none {
		m.nodes[first].prev = root
	}
	m.nodes[root].next = first
	m.nodes[root].prev = none
}

func (m *HashMap) rotateLeft(root, p int32) int32 {
	r := m.nodes[p].right
	if r == none {
		return root
	}
	rl := m.nodes[r].left
	m.nodes[p].right = rl
	if rl != none {
		m.nodes[rl].parent = p
	}
	pp := m.nodes[p].parent
	m.nodes[r].parent = pp
	switch {
	case pp == none:
		root = r
		m.nodes[r].red = false
	case m.nodes[pp].left == p:
		m.nodes[pp].left = r
	default:
		m.nodes[pp].right = r
	}
	m.nodes[r].left = p
	m.nodes[p].parent = r
	return root
}

func (m *HashMap) rotateRight(root, p int32) int32 {
	l := m.nodes[p].left
	if l == none {
		return root
	}
	lr := m.nodes[l].right
	m.nodes[p].left = lr
	if lr != none {
		m.nodes[lr].parent = p
	}
	pp := m.nodes[p].parent
	m.nodes[l].parent = pp
	switch {
	case pp == none:
		root = l
		m.nodes[l].red = false
	case m.nodes[pp].right == p:
		m.nodes[pp].right = l
	default:
		m.nodes[pp].left = l
	}
	m.nodes[l].right = p
	m.nodes[p].parent = l
	return root
}

// balanceInsertion is TreeNode#balanceInsertion (CLR's red-black insertion fix-up): the root
// after x was inserted.
func (m *HashMap) balanceInsertion(root, x int32) int32 {
	m.nodes[x].red = true
	for {
		xp := m.nodes[x].parent
		if xp == none {
			m.nodes[x].red = false
			return x
		}
		xpp := m.nodes[xp].parent
		if !m.nodes[xp].red || xpp == none {
			return root
		}
		if xppl := m.nodes[xpp].left; xp == xppl {
			if xppr := m.nodes[xpp].right; xppr != none && m.nodes[xppr].red {
				m.nodes[xppr].red = false
				m.nodes[xp].red = false
				m.nodes[xpp].red = true
				x = xpp
				continue
			}
			if x == m.nodes[xp].right {
				x = xp
				root = m.rotateLeft(root, x)
				xp = m.nodes[x].parent
				xpp = m.grandparentVia(xp)
			}
			if xp != none {
				m.nodes[xp].red = false
				if xpp != none {
					m.nodes[xpp].red = true
					root = m.rotateRight(root, xpp)
				}
			}
		} else {
			if xppl != none && m.nodes[xppl].red {
				m.nodes[xppl].red = false
				m.nodes[xp].red = false
				m.nodes[xpp].red = true
				x = xpp
				continue
			}
			if x == m.nodes[xp].left {
				x = xp
				root = m.rotateRight(root, x)
				xp = m.nodes[x].parent
				xpp = m.grandparentVia(xp)
			}
			if xp != none {
				m.nodes[xp].red = false
				if xpp != none {
					m.nodes[xpp].red = true
					root = m.rotateLeft(root, xpp)
				}
			}
		}
	}
}

// grandparentVia is xp's parent, none when xp is none.
func (m *HashMap) grandparentVia(xp int32) int32 {
	if xp == none {
		return none
	}
	return m.nodes[xp].parent
}
