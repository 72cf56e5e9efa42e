package timelines

// jsSortOrder returns the order in which V8's Array.prototype.sort leaves n items under cmp. The
// engine sorts User Timing entries with a comparator that is not a total order (ties between
// tracks compare equal), so the result depends on the algorithm, and this follows V8's TimSort step
// by step: runs found and extended by binary insertion to the minimum run length, the run-stack
// invariants, and merges with galloping (its minimum gallop adapting as V8's does).
func jsSortOrder(n int, cmp func(a, b int) int) []int {
	s := &timSort{a: make([]int, n), cmp: cmp, minGallop: minGallopWins}
	for i := range s.a {
		s.a[i] = i
	}
	if n < 2 {
		return s.a
	}
	minRun := minRunLength(n)
	for low, remaining := 0, n; remaining > 0; {
		run := s.countAndMakeRun(low, low+remaining)
		if run < minRun {
			forced := min(minRun, remaining)
			s.binaryInsertion(low, low+run, low+forced)
			run = forced
		}
		s.runBase = append(s.runBase, low)
		s.runLen = append(s.runLen, run)
		s.mergeCollapse()
		low += run
		remaining -= run
	}
	s.mergeForceCollapse()
	return s.a
}

const minGallopWins = 7

type timSort struct {
	a               []int
	cmp             func(a, b int) int
	minGallop       int
	runBase, runLen []int
}

func minRunLength(n int) int {
	r := 0
	for n >= 64 {
		r |= n & 1
		n >>= 1
	}
	return n + r
}

// countAndMakeRun returns the length of the run at low: non-descending, or strictly descending
// and then reversed in place.
func (s *timSort) countAndMakeRun(low, high int) int {
	if low+1 == high {
		return 1
	}
	a := s.a
	run := 2
	descending := s.cmp(a[low+1], a[low]) < 0
	prev := a[low+1]
	for i := low + 2; i < high; i++ {
		c := s.cmp(a[i], prev)
		if (descending && c >= 0) || (!descending && c < 0) {
			break
		}
		prev = a[i]
		run++
	}
	if descending {
		for x, y := low, low+run-1; x < y; x, y = x+1, y-1 {
			a[x], a[y] = a[y], a[x]
		}
	}
	return run
}

// binaryInsertion sorts a[low:high], of which a[low:start] is sorted already.
func (s *timSort) binaryInsertion(low, start, high int) {
	a := s.a
	if start == low {
		start++
	}
	for ; start < high; start++ {
		pivot := a[start]
		left, right := low, start
		for left < right {
			mid := left + (right-left)>>1
			if s.cmp(pivot, a[mid]) < 0 {
				right = mid
			} else {
				left = mid + 1
			}
		}
		copy(a[left+1:start+1], a[left:start])
		a[left] = pivot
	}
}

func (s *timSort) invariantHolds(n int) bool {
	if n < 2 {
		return true
	}
	l := s.runLen
	return l[n-2] > l[n-1]+l[n]
}

func (s *timSort) mergeCollapse() {
	for len(s.runLen) > 1 {
		n := len(s.runLen) - 2
		l := s.runLen
		switch {
		case !s.invariantHolds(n+1) || !s.invariantHolds(n):
			if l[n-1] < l[n+1] {
				n--
			}
			s.mergeAt(n)
		case l[n] <= l[n+1]:
			s.mergeAt(n)
		default:
			return
		}
	}
}

func (s *timSort) mergeForceCollapse() {
	for len(s.runLen) > 1 {
		n := len(s.runLen) - 2
		if n > 0 && s.runLen[n-1] < s.runLen[n+1] {
			n--
		}
		s.mergeAt(n)
	}
}

// mergeAt merges runs i and i+1 of the stack.
func (s *timSort) mergeAt(i int) {
	baseA, lenA := s.runBase[i], s.runLen[i]
	baseB, lenB := s.runBase[i+1], s.runLen[i+1]
	s.runLen[i] = lenA + lenB
	s.runBase = append(s.runBase[:i+1], s.runBase[i+2:]...)
	s.runLen = append(s.runLen[:i+1], s.runLen[i+2:]...)

	k := s.gallopRight(s.a, s.a[baseB], baseA, lenA, 0)
	baseA += k
	lenA -= k
	if lenA == 0 {
		return
	}
	lenB = s.gallopLeft(s.a, s.a[baseA+lenA-1], baseB, lenB, lenB-1)
	if lenB == 0 {
		return
	}
	if lenA <= lenB {
		s.mergeLow(baseA, lenA, baseB, lenB)
	} else {
		s.mergeHigh(baseA, lenA, baseB, lenB)
	}
}

// gallopLeft is the leftmost place for key in arr[base:base+length] (before equal items),
// searched outward from hint.
func (s *timSort) gallopLeft(arr []int, key, base, length, hint int) int {
	lastOfs, ofs := 0, 1
	if s.cmp(arr[base+hint], key) < 0 {
		maxOfs := length - hint
		for ofs < maxOfs && s.cmp(arr[base+hint+ofs], key) < 0 {
			lastOfs = ofs
			ofs = ofs<<1 + 1
		}
		ofs = min(ofs, maxOfs)
		lastOfs += hint
		ofs += hint
	} else {
		maxOfs := hint + 1
		for ofs < maxOfs && s.cmp(arr[base+hint-ofs], key) >= 0 {
			lastOfs = ofs
			ofs = ofs<<1 + 1
		}
		ofs = min(ofs, maxOfs)
		lastOfs, ofs = hint-ofs, hint-lastOfs
	}
	lastOfs++
	for lastOfs < ofs {
		m := lastOfs + (ofs-lastOfs)>>1
		if s.cmp(arr[base+m], key) < 0 {
			lastOfs = m + 1
		} else {
			ofs = m
		}
	}
	return ofs
}

// gallopRight is the rightmost place for key in arr[base:base+length] (after equal items).
func (s *timSort) gallopRight(arr []int, key, base, length, hint int) int {
	lastOfs, ofs := 0, 1
	if s.cmp(key, arr[base+hint]) < 0 {
		maxOfs := hint + 1
		for ofs < maxOfs && s.cmp(key, arr[base+hint-ofs]) < 0 {
			lastOfs = ofs
			ofs = ofs<<1 + 1
		}
		ofs = min(ofs, maxOfs)
		lastOfs, ofs = hint-ofs, hint-lastOfs
	} else {
		maxOfs := length - hint
		for ofs < maxOfs && s.cmp(key, arr[base+hint+ofs]) >= 0 {
			lastOfs = ofs
			ofs = ofs<<1 + 1
		}
		ofs = min(ofs, maxOfs)
		lastOfs += hint
		ofs += hint
	}
	lastOfs++
	for lastOfs < ofs {
		m := lastOfs + (ofs-lastOfs)>>1
		if s.cmp(key, arr[base+m]) < 0 {
			ofs = m
		} else {
			lastOfs = m + 1
		}
	}
	return ofs
}

// mergeLow merges two adjacent runs, A the shorter, working from the left with A copied aside.
func (s *timSort) mergeLow(baseA, lenA, baseB, lenB int) {
	a := s.a
	tmp := append([]int(nil), a[baseA:baseA+lenA]...)
	dest, ct, cb := baseA, 0, baseB
	a[dest] = a[cb]
	dest++
	cb++
	copyB := func() {
		copy(a[dest:dest+lenB], a[cb:cb+lenB])
		a[dest+lenB] = tmp[ct]
	}
	done := func() {
		if lenA > 0 {
			copy(a[dest:dest+lenA], tmp[ct:ct+lenA])
		}
	}
	lenB--
	if lenB == 0 {
		done()
		return
	}
	if lenA == 1 {
		copyB()
		return
	}
	minGallop := s.minGallop
	for {
		winsA, winsB := 0, 0
		for {
			if s.cmp(a[cb], tmp[ct]) < 0 {
				a[dest] = a[cb]
				dest++
				cb++
				winsB++
				lenB--
				winsA = 0
				if lenB == 0 {
					done()
					return
				}
				if winsB >= minGallop {
					break
				}
			} else {
				a[dest] = tmp[ct]
				dest++
				ct++
				winsA++
				lenA--
				winsB = 0
				if lenA == 1 {
					copyB()
					return
				}
				if winsA >= minGallop {
					break
				}
			}
		}
		minGallop++
		for first := true; first || winsA >= minGallopWins || winsB >= minGallopWins; first = false {
			minGallop = max(1, minGallop-1)
			s.minGallop = minGallop
			winsA = s.gallopRight(tmp, a[cb], ct, lenA, 0)
			if winsA > 0 {
				copy(a[dest:dest+winsA], tmp[ct:ct+winsA])
				dest += winsA
				ct += winsA
				lenA -= winsA
				if lenA == 1 {
					copyB()
					return
				}
				if lenA == 0 {
					done()
					return
				}
			}
			a[dest] = a[cb]
			dest++
			cb++
			lenB--
			if lenB == 0 {
				done()
				return
			}
			winsB = s.gallopLeft(a, tmp[ct], cb, lenB, 0)
			if winsB > 0 {
				copy(a[dest:dest+winsB], a[cb:cb+winsB])
				dest += winsB
				cb += winsB
				lenB -= winsB
				if lenB == 0 {
					done()
					return
				}
			}
			a[dest] = tmp[ct]
			dest++
			ct++
			lenA--
			if lenA == 1 {
				copyB()
				return
			}
		}
		minGallop++
		s.minGallop = minGallop
	}
}

// mergeHigh merges two adjacent runs, B the shorter, working from the right with B copied aside.
func (s *timSort) mergeHigh(baseA, lenA, baseB, lenB int) {
	a := s.a
	tmp := append([]int(nil), a[baseB:baseB+lenB]...)
	dest, ct, ca := baseB+lenB-1, lenB-1, baseA+lenA-1
	a[dest] = a[ca]
	dest--
	ca--
	copyA := func() {
		dest -= lenA
		ca -= lenA
		copy(a[dest+1:dest+1+lenA], a[ca+1:ca+1+lenA])
		a[dest] = tmp[ct]
	}
	done := func() {
		if lenB > 0 {
			copy(a[dest-(lenB-1):dest+1], tmp[:lenB])
		}
	}
	lenA--
	if lenA == 0 {
		done()
		return
	}
	if lenB == 1 {
		copyA()
		return
	}
	minGallop := s.minGallop
	for {
		winsA, winsB := 0, 0
		for {
			if s.cmp(tmp[ct], a[ca]) < 0 {
				a[dest] = a[ca]
				dest--
				ca--
				winsA++
				lenA--
				winsB = 0
				if lenA == 0 {
					done()
					return
				}
				if winsA >= minGallop {
					break
				}
			} else {
				a[dest] = tmp[ct]
				dest--
				ct--
				winsB++
				lenB--
				winsA = 0
				if lenB == 1 {
					copyA()
					return
				}
				if winsB >= minGallop {
					break
				}
			}
		}
		minGallop++
		for first := true; first || winsA >= minGallopWins || winsB >= minGallopWins; first = false {
			minGallop = max(1, minGallop-1)
			s.minGallop = minGallop
			k := s.gallopRight(a, tmp[ct], baseA, lenA, lenA-1)
			winsA = lenA - k
			if winsA > 0 {
				dest -= winsA
				ca -= winsA
				copy(a[dest+1:dest+1+winsA], a[ca+1:ca+1+winsA])
				lenA -= winsA
				if lenA == 0 {
					done()
					return
				}
			}
			a[dest] = tmp[ct]
			dest--
			ct--
			lenB--
			if lenB == 1 {
				copyA()
				return
			}
			k = s.gallopLeft(tmp, a[ca], 0, lenB, lenB-1)
			winsB = lenB - k
			if winsB > 0 {
				dest -= winsB
				ct -= winsB
				copy(a[dest+1:dest+1+winsB], tmp[ct+1:ct+1+winsB])
				lenB -= winsB
				if lenB == 1 {
					copyA()
					return
				}
				if lenB == 0 {
					done()
					return
				}
			}
			a[dest] = a[ca]
			dest--
			ca--
			lenA--
			if lenA == 0 {
				done()
				return
			}
		}
		minGallop++
		s.minGallop = minGallop
	}
}
