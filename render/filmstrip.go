package render

import (
	"image"
	"math"
	"sort"

	"golang.org/x/image/draw"

	"flamedesk/timeline"
)

// The filmstrip row: the screenshots drawn in the Screenshots lane, each at its time and as tall
// as the lane, skipping those that would cover the one before, as DevTools draws its filmstrip.
// The draw list holds no pictures: the window draws them over the chart from its own cache of
// decoded screenshots, and `flamedesk render` into its image with DrawFilmstrip.

// FilmstripPlace is where one screenshot of the filmstrip goes, in chart pixels (ruler included):
// top-left X, Y and height H; its width follows from its aspect.
type FilmstripPlace struct {
	Shot    int // index in the trace's screenshots (timelines.Screenshots)
	X, Y, H float64
}

// Filmstrip lists the screenshots the filmstrip row shows in the view, left to right. aspect(i)
// is screenshot i's width over its height, a guess while it is not decoded: it decides what the
// next screenshot would cover, so only what can be shown is asked for.
func (b *Builder) Filmstrip(vp *timeline.Viewport, aspect func(shot int) float64) []FilmstripPlace {
	m := b.Model
	li := -1
	for i := range m.Lanes {
		if m.Lanes[i].Kind == timeline.LaneScreenshots {
			li = i
		}
	}
	if li < 0 || m.Panel == nil || !m.Lanes[li].Shown || m.Lanes[li].Collapsed {
		return nil
	}
	l := &m.Lanes[li]
	top := float64(b.rowY(vp, m.LaneRowTop(li, 0))) + 1
	h := float64(l.Rows)*m.Style.RowHeight - 3
	if top+h < float64(b.Style.RulerHeight) || top > vp.Height()+float64(b.Style.RulerHeight) || h < 4 {
		return nil
	}
	shots := m.Panel.Screenshots
	first := max(sort.Search(len(shots), func(i int) bool { return shots[i].Ts > vp.Start() })-1, 0)
	var out []FilmstripPlace
	lastEnd := math.Inf(-1)
	for i := first; i < len(shots); i++ {
		x := math.Round(vp.TimeToPx(shots[i].Ts))
		if x > vp.Width() {
			break
		}
		if x < lastEnd {
			continue
		}
		w := h * aspect(i)
		lastEnd = x + w + 2
		if x+w >= 0 {
			out = append(out, FilmstripPlace{Shot: i, X: x + 1, Y: top, H: h})
		}
	}
	return out
}

// DrawFilmstrip draws the places' screenshots (decode returns each, nil when it cannot) into img,
// below the ruler of height rulerH.
func DrawFilmstrip(img *image.RGBA, places []FilmstripPlace, rulerH int, decode func(shot int) image.Image) {
	clipTo := image.Rect(0, rulerH, img.Bounds().Dx(), img.Bounds().Dy())
	for _, p := range places {
		shot := decode(p.Shot)
		if shot == nil || shot.Bounds().Dy() <= 0 {
			continue
		}
		sb := shot.Bounds()
		w := p.H * float64(sb.Dx()) / float64(sb.Dy())
		r := image.Rect(int(p.X), int(p.Y), int(p.X+w), int(p.Y+p.H))
		dst, ok := img.SubImage(clipTo).(*image.RGBA)
		if !ok {
			continue
		}
		draw.ApproxBiLinear.Scale(dst, r, shot, sb, draw.Over, nil)
	}
}
