package timelines

import "sort"

// jsSortOrder returns the order in which V8's Array.prototype.sort leaves n items under cmp. The
// engine sorts User Timing entries with a comparator that is not a total order (ties between
// tracks compare equal), so the result depends on the algorithm: for fewer than 64 items V8's
// TimSort is one run made ascending, then binary insertion, which is reproduced here exactly;
// longer lists fall back to a stable merge sort, which agrees whenever the comparator is consistent.
func jsSortOrder(n int, cmp func(a, b int) int) []int {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if n < 2 {
		return order
	}
	if n >= 64 {
		sort.SliceStable(order, func(a, b int) bool { return cmp(order[a], order[b]) < 0 })
		return order
	}
	// The leading run: strictly descending (then reversed) or non-descending.
	run := 2
	descending := cmp(order[1], order[0]) < 0
	for k := 2; k < n; k++ {
		c := cmp(order[k], order[k-1])
		if (descending && c >= 0) || (!descending && c < 0) {
			break
		}
		run++
	}
	if descending {
		for a, b := 0, run-1; a < b; a, b = a+1, b-1 {
			order[a], order[b] = order[b], order[a]
		}
	}
	for start := run; start < n; start++ {
		pivot := order[start]
		lo, hi := 0, start
		for lo < hi {
			mid := lo + (hi-lo)>>1
			if cmp(pivot, order[mid]) < 0 {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		copy(order[lo+1:start+1], order[lo:start])
		order[lo] = pivot
	}
	return order
}
