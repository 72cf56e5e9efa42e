package core

import (
	"slices"
	"testing"
)

func TestSamplePositionsNarrowOnlyWhereAllFit(t *testing.T) {
	fits := []int32{0, 1, 400, 65535}
	if !PositionsFit(fits) {
		t.Fatalf("%v should fit 16 bits", fits)
	}
	p := SamplePositions{Narrow: []uint16{0, 1, 400, 65535}}
	if p.Narrow == nil || p.Wide != nil || !slices.Equal(p.Values(), fits) || p.At(3) != 65535 {
		t.Errorf("narrow %v, wide %v, values %v", p.Narrow, p.Wide, p.Values())
	}
	for _, v := range []int32{65536, -1, 1 << 30} {
		if PositionsFit([]int32{3, v, 5}) {
			t.Errorf("%d fits 16 bits", v)
		}
	}
	var absent SamplePositions
	if absent.Len() != 0 || absent.Values() != nil {
		t.Errorf("the zero value has %d values", absent.Len())
	}
	wide := SamplePositions{Wide: []int32{7, 70000}}
	if wide.Len() != 2 || wide.At(1) != 70000 {
		t.Errorf("wide: %d values, At(1) %d", wide.Len(), wide.At(1))
	}
}
