package render

import (
	"context"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"flamedesk/core"
	"flamedesk/core/calltree"
	"flamedesk/core/integrate"
	"flamedesk/core/load"
	"flamedesk/timeline"
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

func TestDiffLevels(t *testing.T) {
	const scale = 100 * time.Millisecond
	cases := map[time.Duration]int8{0: 0, scale: DiffLevels, -scale: -DiffLevels, 5 * scale: DiffLevels, scale / 4: 5, -scale / 100: -1}
	for d, want := range cases {
		if got := DiffLevel(d, scale); got != want {
			t.Errorf("DiffLevel(%v) = %d, want %d", d, got, want)
		}
	}
	th := Dark()
	if th.DiffLevelColor(DiffLevels) != diffSlower || th.DiffLevelColor(-DiffLevels) != diffFaster || th.DiffLevelColor(0) != th.DiffNeutral() {
		t.Error("the ends and the middle of the level scale are not red, green and neutral")
	}
	// A level is the continuous colour of a change that falls exactly on it.
	if got, want := th.DiffLevelColor(5), th.DiffColor(scale/4, scale); got != want {
		t.Errorf("level 5 is %v, a quarter of the scale %v", got, want)
	}
}

// The recorded slowdown in a flame chart in diff colours: B's hashStrings bars take the full
// red, other functions their own level, and switching back restores the colours by script.
func TestBuilderDiffColours(t *testing.T) {
	load := func(name string) *core.Trace {
		tr, err := load.File(context.Background(), filepath.Join("..", "testdata", "diff", name), nil)
		if err != nil {
			t.Fatal(err)
		}
		return tr
	}
	ta, tb := load("trace-a.json.gz"), load("trace-slow.json.gz")
	funcs := func(tr *core.Trace) *calltree.Functions {
		return calltree.NewFunctions(tr, &tr.Profiles[calltree.DefaultProfile(tr)])
	}
	srcA, err := funcs(ta).Source(calltree.AllTime)
	if err != nil {
		t.Fatal(err)
	}
	d, err := calltree.Compare(calltree.NewStack(srcA), funcs(tb), calltree.AllTime, calltree.AllTime, calltree.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	deltaOf := map[string]time.Duration{}
	for _, r := range d.Rows {
		deltaOf[fmt.Sprintf("%s@%s:%d:%d", r.Key.Name, r.Key.URL, r.Key.Line, r.Key.Column)] = r.SelfDelta()
	}
	th := Light()
	shades := NewDiffShades(d, th)
	integrate.Build(tb)
	m := timeline.New(tb)
	b := NewBuilder(m)
	b.SetDiffLevels(shades.FrameLevels(tb))
	seen := map[string]bool{}
	for ti := range m.Tracks {
		ct := m.Tracks[ti].Core
		for e := range int32(ct.Len()) {
			if ct.KindAt(int(e)) != core.EntryProfileCall {
				continue
			}
			f := &tb.Frames[ct.FrameAt(int(e))]
			key := fmt.Sprintf("%s@%s:%d:%d", tb.Strings.Get(f.FunctionName), tb.Strings.Get(f.URL), f.Line, f.Column)
			if seen[key] {
				continue
			}
			seen[key] = true
			want := th.DiffLevelColor(DiffLevel(deltaOf[key], shades.Scale()))
			if got := b.EntryColor(timeline.EntryRef{Track: timeline.TrackID(ti), Entry: e}, th); got != want {
				t.Errorf("%s: %v, want %v", key, got, want)
			}
			if strings.HasPrefix(key, "hashStrings@") && want != diffSlower {
				t.Errorf("hashStrings is %v, not the full red", want)
			}
		}
	}
	if !seen["hashStrings@http://flamedesk.test/page.html:16:20"] || len(seen) < 5 {
		t.Fatalf("only %d functions drawn: %v", len(seen), seen)
	}
	b.SetDiffLevels(nil)
	for ti := range m.Tracks {
		ct := m.Tracks[ti].Core
		for e := range int32(ct.Len()) {
			if f := ct.FrameAt(int(e)); ct.KindAt(int(e)) == core.EntryProfileCall && tb.Strings.Get(tb.Frames[f].FunctionName) == "hashStrings" {
				if got, want := b.EntryColor(timeline.EntryRef{Track: timeline.TrackID(ti), Entry: e}, th), th.URLColor("http://flamedesk.test/page.html"); got != want {
					t.Errorf("back to script colours: %v, want %v", got, want)
				}
				return
			}
		}
	}
}
