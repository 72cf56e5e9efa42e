// SamplePositions: a profile's per-sample script lines or columns, in 2 bytes each where they fit.

package core

import "math"

// SamplePositions is a column of line or column numbers, one per sample. Scripts nearly always
// have fewer than 65536 lines, and most of them columns as few, so the values sit in Narrow, 2
// bytes each, while every one is in 0..65535, and in Wide otherwise (a minified bundle's
// columns). The zero value is an absent column. Read it with Len and At.
type SamplePositions struct {
	Narrow []uint16
	Wide   []int32
}

// PositionsFit says whether vs can be kept narrow.
func PositionsFit(vs []int32) bool {
	for _, v := range vs {
		if uint32(v) > math.MaxUint16 {
			return false
		}
	}
	return true
}

// Len is the number of values; 0 for an absent column.
func (p *SamplePositions) Len() int {
	if p.Narrow != nil {
		return len(p.Narrow)
	}
	return len(p.Wide)
}

// At is value i.
func (p *SamplePositions) At(i int) int32 {
	if p.Narrow != nil {
		return int32(p.Narrow[i])
	}
	return p.Wide[i]
}

// Values returns the values as int32s, in a new slice (for tests and tools).
func (p *SamplePositions) Values() []int32 {
	if p.Len() == 0 {
		return nil
	}
	vs := make([]int32, p.Len())
	for i := range vs {
		vs[i] = p.At(i)
	}
	return vs
}
