package timelines

import "math"

// nearestIndex is the engine's binary search for the last (fromEnd) or first item of n that
// satisfies pred, on a list it assumes ordered; -1 when the probe it ends on does not satisfy it.
// The search is copied step for step, so an unordered list gives the engine's answer too.
func nearestIndex(n int, pred func(int) bool, fromEnd bool) int {
	if n == 0 {
		return -1
	}
	left, right := 0, n-1
	for {
		middle := float64(left) + float64(right-left)/2
		var pivot int
		if fromEnd {
			pivot = int(math.Ceil(middle))
		} else {
			pivot = int(math.Floor(middle))
		}
		if pred(pivot) == fromEnd {
			step := 0
			if left == pivot {
				step = 1
			}
			left = min(right, pivot+step)
		} else {
			step := 0
			if right == pivot {
				step = -1
			}
			right = max(left, pivot+step)
		}
		if right == left {
			break
		}
	}
	if !pred(left) {
		return -1
	}
	return left
}
