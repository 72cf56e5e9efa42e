package render

// HatchStripes calls yield with each stripe of hatching that falls inside r: the polygon (3 to 6
// points) where a diagonal band of h.Width pixels meets r. The bands go up to the right and are
// anchored to the frame's pixel grid (a band starts wherever x+y is a multiple of h.Period), so
// neighbouring merged spans line up. Both painters stripe with it, so they agree.
func HatchStripes(r Rect, h Hatch, yield func(pts [][2]float32)) {
	if h.Period <= 0 || h.Width <= 0 || r.Empty() {
		return
	}
	lo, hi := r.X0+r.Y0, r.X1+r.Y1
	c := float32(int(lo/h.Period)) * h.Period
	if c > lo {
		c -= h.Period
	}
	var a, b [8][2]float32
	for ; c < hi; c += h.Period {
		poly := append(a[:0], [2]float32{r.X0, r.Y0}, [2]float32{r.X1, r.Y0}, [2]float32{r.X1, r.Y1}, [2]float32{r.X0, r.Y1})
		poly = clipHalfPlane(poly, b[:0], c, true)
		poly = clipHalfPlane(poly, a[:0], c+h.Width, false)
		if len(poly) >= 3 {
			yield(poly)
		}
	}
}

// clipHalfPlane keeps the part of a convex polygon where x+y ≥ k (above) or x+y ≤ k (!above), one
// step of Sutherland–Hodgman clipping, writing into out.
func clipHalfPlane(poly, out [][2]float32, k float32, above bool) [][2]float32 {
	side := func(p [2]float32) float32 {
		d := p[0] + p[1] - k
		if !above {
			d = -d
		}
		return d
	}
	n := len(poly)
	for i := 0; i < n; i++ {
		p, q := poly[i], poly[(i+1)%n]
		dp, dq := side(p), side(q)
		if dp >= 0 {
			out = append(out, p)
		}
		if (dp >= 0) != (dq >= 0) {
			t := dp / (dp - dq)
			out = append(out, [2]float32{p[0] + (q[0]-p[0])*t, p[1] + (q[1]-p[1])*t})
		}
	}
	return out
}
