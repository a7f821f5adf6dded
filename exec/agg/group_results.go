package agg

// resultBatcher is implemented by the accumulators whose results a group aggregation copies
// and compares for many groups in one call: typed loops over their slices instead of a call
// per group and an Arrow array per comparison.
type resultBatcher interface {
	// copyResults makes each group dst[i]'s result equal to group src[i]'s, as CopyResult (or
	// Copy, for accumulators whose whole state is their result) does one by one.
	copyResults(dst, src []int32)
	// resultsDiffer sets differs[u] when group a[u]'s result differs from group b[u]'s as
	// valuesEqual compares results (NULLs equal each other, values by ==, so NaN differs from
	// itself); it leaves the other flags as they are.
	resultsDiffer(a, b []int32, differs []bool)
}

func (a *countAcc) copyResults(dst, src []int32) {
	n := a.n
	for i, d := range dst {
		n[d] = n[src[i]]
	}
}

func (a *countAcc) resultsDiffer(x, y []int32, differs []bool) {
	n := a.n
	for u, g := range x {
		if n[g] != n[y[u]] {
			differs[u] = true
		}
	}
}

func (a *nullableValue[T]) copyResults(dst, src []int32) {
	val, has := a.val, a.has
	for i, d := range dst {
		s := src[i]
		val[d], has[d] = val[s], has[s]
	}
}

func (a *nullableValue[T]) resultsDiffer(x, y []int32, differs []bool) {
	val, has := a.val, a.has
	for u, g := range x {
		h := y[u]
		if has[g] != has[h] || (has[g] && val[g] != val[h]) {
			differs[u] = true
		}
	}
}

func (a *avgIntAcc[T]) copyResults(dst, src []int32) {
	sum, cnt := a.sum, a.cnt
	for i, d := range dst {
		s := src[i]
		sum[d], cnt[d] = sum[s], cnt[s]
	}
}

func (a *avgIntAcc[T]) resultsDiffer(x, y []int32, differs []bool) {
	sum, cnt := a.sum, a.cnt
	for u, g := range x {
		h := y[u]
		switch {
		case cnt[g] == 0 || cnt[h] == 0:
			if cnt[g] != cnt[h] {
				differs[u] = true
			}
		case T(sum[g]/cnt[g]) != T(sum[h]/cnt[h]):
			differs[u] = true
		}
	}
}

func (a *avgFloatAcc[T]) copyResults(dst, src []int32) {
	sum, cnt := a.sum, a.cnt
	for i, d := range dst {
		s := src[i]
		sum[d], cnt[d] = sum[s], cnt[s]
	}
}

func (a *avgFloatAcc[T]) resultsDiffer(x, y []int32, differs []bool) {
	sum, cnt := a.sum, a.cnt
	for u, g := range x {
		h := y[u]
		switch {
		case cnt[g] == 0 || cnt[h] == 0:
			if cnt[g] != cnt[h] {
				differs[u] = true
			}
		case T(sum[g]/float64(cnt[g])) != T(sum[h]/float64(cnt[h])):
			differs[u] = true
		}
	}
}

func (a *sumRetractAcc[T]) copyResults(dst, src []int32) {
	sum, has, cnt := a.sum, a.has, a.cnt
	for i, d := range dst {
		s := src[i]
		sum[d], has[d], cnt[d] = sum[s], has[s], cnt[s]
	}
}

func (a *sumRetractAcc[T]) resultsDiffer(x, y []int32, differs []bool) {
	sum, has, cnt := a.sum, a.has, a.cnt
	for u, g := range x {
		h := y[u]
		vg, vh := cnt[g] != 0 && has[g], cnt[h] != 0 && has[h]
		if vg != vh || (vg && sum[g] != sum[h]) {
			differs[u] = true
		}
	}
}

func (a *valueCounts[T, K]) copyResults(dst, src []int32) {
	for i, d := range dst {
		a.CopyResult(d, src[i])
	}
}

func (a *valueCounts[T, K]) resultsDiffer(x, y []int32, differs []bool) {
	for u, g := range x {
		h := y[u]
		vg, vh := a.size[g] > 0, a.size[h] > 0
		if vg != vh || (vg && a.value(a.extreme[g]) != a.value(a.extreme[h])) {
			differs[u] = true
		}
	}
}
