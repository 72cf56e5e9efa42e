package render

import (
	"image/color"
	"math"
	"testing"
	"time"

	"flamedesk/core/calltree"
)

// distance is the Euclidean distance between two colours in RGB.
func distance(a, b color.NRGBA) float64 {
	dr, dg, db := float64(a.R)-float64(b.R), float64(a.G)-float64(b.G), float64(a.B)-float64(b.B)
	return math.Sqrt(dr*dr + dg*dg + db*db)
}

func TestDiffColorScale(t *testing.T) {
	const scale = 100 * time.Millisecond
	for _, th := range []*Theme{Light(), Dark()} {
		neutral := th.DiffNeutral()
		if got := th.DiffColor(0, scale); got != neutral {
			t.Errorf("%s: no change is %v, want neutral %v", th.Name, got, neutral)
		}
		if got := th.DiffColor(scale, 0); got != neutral {
			t.Errorf("%s: a zero scale gives %v, want neutral", th.Name, got)
		}
		if got := th.DiffColor(scale, scale); got != diffSlower {
			t.Errorf("%s: the largest slowdown is %v, want %v", th.Name, got, diffSlower)
		}
		if got := th.DiffColor(-scale, scale); got != diffFaster {
			t.Errorf("%s: the largest speedup is %v, want %v", th.Name, got, diffFaster)
		}
		if th.DiffColor(3*scale, scale) != diffSlower || th.DiffColor(-3*scale, scale) != diffFaster {
			t.Errorf("%s: changes beyond the scale are not clamped", th.Name)
		}
		// Larger changes move further from neutral, and each side keeps its hue.
		prevUp, prevDown := 0.0, 0.0
		for _, ms := range []int{1, 5, 10, 25, 50, 100} {
			d := time.Duration(ms) * time.Millisecond
			up, down := th.DiffColor(d, scale), th.DiffColor(-d, scale)
			du, dd := distance(up, neutral), distance(down, neutral)
			if du <= prevUp || dd <= prevDown {
				t.Errorf("%s: %d ms is no further from neutral (%.1f, %.1f) than the step before (%.1f, %.1f)", th.Name, ms, du, dd, prevUp, prevDown)
			}
			prevUp, prevDown = du, dd
			if up.R <= up.G || down.G <= down.R {
				t.Errorf("%s: ±%d ms are %v and %v: want red for slower, green for faster", th.Name, ms, up, down)
			}
			for _, c := range []color.NRGBA{up, down} {
				if r := ContrastRatio(th.TextOn(c), c); r < MinContrast {
					t.Errorf("%s: label contrast %.2f on %v", th.Name, r, c)
				}
			}
		}
		// A change of a tenth of the scale is already a third of the way (the square root).
		if f := distance(th.DiffColor(scale/10, scale), neutral) / distance(diffSlower, neutral); f < 0.3 {
			t.Errorf("%s: a tenth of the scale is only %.2f of the way to red", th.Name, f)
		}
	}
}

func TestDiffShades(t *testing.T) {
	slow := calltree.FuncKey{Name: "slow", URL: "a.js", Line: 1, Column: 1}
	fast := calltree.FuncKey{Name: "fast", URL: "a.js", Line: 9, Column: 1}
	same := calltree.FuncKey{Name: "same", URL: "a.js", Line: 20, Column: 1}
	d := &calltree.Diff{Rows: []calltree.DiffRow{
		{Key: slow, SelfA: 10 * time.Millisecond, SelfB: 50 * time.Millisecond},
		{Key: fast, SelfA: 30 * time.Millisecond, SelfB: 10 * time.Millisecond},
		{Key: same, SelfA: 7 * time.Millisecond, SelfB: 7 * time.Millisecond},
	}}
	th := Light()
	s := NewDiffShades(d, th)
	if s.Scale() != 40*time.Millisecond {
		t.Errorf("scale %v, want the largest change, 40 ms", s.Scale())
	}
	if s.Of(slow) != diffSlower {
		t.Errorf("the largest slowdown is %v", s.Of(slow))
	}
	if want := th.DiffColor(-20*time.Millisecond, 40*time.Millisecond); s.Of(fast) != want {
		t.Errorf("fast is %v, want %v", s.Of(fast), want)
	}
	if s.Of(same) != th.DiffNeutral() || s.Of(calltree.FuncKey{Name: "elsewhere"}) != th.DiffNeutral() {
		t.Error("unchanged and unknown functions are not neutral")
	}
}
