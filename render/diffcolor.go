package render

// Diff colours: the flame chart of a comparison colours each function by how much its self time
// changed from A to B, red for more time in B, green for less, fading into a neutral grey as the
// change approaches zero.

import (
	"image/color"
	"math"
	"time"

	"flamedesk/core"
	"flamedesk/core/calltree"
)

// Endpoints of the diff scale; the same in both themes, and each keeps a label colour of
// MinContrast with TextOn.
var (
	diffSlower = rgb(0xd93025) // B spends more time
	diffFaster = rgb(0x1e8e3e) // B spends less time
)

// DiffNeutral is the colour of a function whose self time did not change: a grey halfway between
// the theme's background and mid grey, so it recedes in both themes.
func (t *Theme) DiffNeutral() color.NRGBA { return mix(t.Background, rgb(0x808080), 0.5) }

// DiffColor colours a self-time change delta (B − A) against scale, the change that gets the
// full colour (usually the largest change of the comparison; larger ones are clamped). The
// intensity grows with the square root of |delta|/scale, so that changes a tenth of the largest
// are still plainly tinted. A zero delta, or a zero scale, is DiffNeutral.
func (t *Theme) DiffColor(delta, scale time.Duration) color.NRGBA {
	neutral := t.DiffNeutral()
	if delta == 0 || scale <= 0 {
		return neutral
	}
	f := math.Sqrt(min(math.Abs(float64(delta))/float64(scale), 1))
	if delta > 0 {
		return mix(neutral, diffSlower, f)
	}
	return mix(neutral, diffFaster, f)
}

// DiffShades colours the functions of one comparison.
type DiffShades struct {
	theme *Theme
	scale time.Duration
	delta map[calltree.FuncKey]time.Duration
}

// NewDiffShades prepares the colours of comparison d in theme t, scaled to its largest self-time
// change.
func NewDiffShades(d *calltree.Diff, t *Theme) *DiffShades {
	s := &DiffShades{theme: t, delta: make(map[calltree.FuncKey]time.Duration, len(d.Rows))}
	for i := range d.Rows {
		r := &d.Rows[i]
		dl := r.SelfDelta()
		s.delta[r.Key] = dl
		s.scale = max(s.scale, dl, -dl)
	}
	return s
}

// Scale is the change that gets the full colour.
func (s *DiffShades) Scale() time.Duration { return s.scale }

// Of is the colour of function k; a function the comparison does not know (outside the compared
// range, or cut away by a transform) is neutral.
func (s *DiffShades) Of(k calltree.FuncKey) color.NRGBA {
	return s.theme.DiffColor(s.delta[k], s.scale)
}

// DiffLevels is how many shades each side of the diff scale has in the flame chart, where
// colours are cached per style: a level is -DiffLevels (the largest speedup) to +DiffLevels
// (the largest slowdown), 0 unchanged.
const DiffLevels = 10

// DiffLevel quantises a change on the same square-root scale as DiffColor.
func DiffLevel(delta, scale time.Duration) int8 {
	if delta == 0 || scale <= 0 {
		return 0
	}
	l := int8(math.Round(math.Sqrt(min(math.Abs(float64(delta))/float64(scale), 1)) * DiffLevels))
	if delta < 0 {
		return -l
	}
	return l
}

// DiffLevelColor is the colour of a level (clamped to ±DiffLevels).
func (t *Theme) DiffLevelColor(level int8) color.NRGBA {
	f := min(math.Abs(float64(level))/DiffLevels, 1)
	switch {
	case level > 0:
		return mix(t.DiffNeutral(), diffSlower, f)
	case level < 0:
		return mix(t.DiffNeutral(), diffFaster, f)
	}
	return t.DiffNeutral()
}

// FrameLevels is the diff level of every call frame of tr, for Builder.SetDiffLevels: a frame
// is its function's identity (name, URL, line, column), so frames of either trace of the
// comparison, and of any thread, find their function's change. Functions outside the comparison
// are level 0.
func (s *DiffShades) FrameLevels(tr *core.Trace) []int8 {
	out := make([]int8, len(tr.Frames))
	for i := range tr.Frames {
		f := &tr.Frames[i]
		k := calltree.FuncKey{Name: tr.Strings.Get(f.FunctionName), URL: tr.Strings.Get(f.URL), Line: f.Line, Column: f.Column}
		out[i] = DiffLevel(s.delta[k], s.scale)
	}
	return out
}
