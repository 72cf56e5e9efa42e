package app

import (
	"math"
	"time"

	"gioui.org/io/event"
	"gioui.org/io/key"
	"gioui.org/layout"
	"gioui.org/op"

	"flamedesk/timeline"
)

// Keyboard navigation follows DevTools and Perfetto: W/S zoom and A/D pan, smoothly and faster the
// longer a key is held. Gio reports keys by the symbol of the current layout, not by position, so
// on AZERTY the keys in the W and A positions arrive as Z and Q: those letters do the same, and the
// arrow keys work on every layout.

const (
	zoomPerSecond    = 2.5  // factor per second at the start of a hold
	panPxPerSecond   = 900  // pixels per second at the start of a hold
	holdAcceleration = 2.0  // speed multiplier gained per second of holding
	maxHoldSpeedup   = 6.0  // the speed-up stops growing here
	stepZoom         = 1.25 // + and − zoom by this factor
)

// keyNav is the state of held navigation keys.
type keyNav struct {
	zoomIn, zoomOut, left, right bool
	heldSince                    time.Time
}

func (n *keyNav) active() bool { return n.zoomIn || n.zoomOut || n.left || n.right }

// step moves the view for one frame of dt while keys are held; it reports whether it moved, so
// that the caller asks for another frame.
func (n *keyNav) step(d *document, dt time.Duration) bool {
	if !n.active() {
		return false
	}
	held := time.Since(n.heldSince).Seconds()
	speed := math.Min(1+holdAcceleration*held, maxHoldSpeedup)
	s := dt.Seconds() * speed
	vp := d.view
	anchor := vp.Width() / 2
	if d.hover.Kind != timeline.HitNone || d.hoverX > 0 {
		anchor = d.hoverX
	}
	switch {
	case n.zoomIn && !n.zoomOut:
		vp.ZoomAt(anchor, math.Pow(zoomPerSecond, -s))
	case n.zoomOut && !n.zoomIn:
		vp.ZoomAt(anchor, math.Pow(zoomPerSecond, s))
	}
	switch {
	case n.left && !n.right:
		vp.Pan(-panPxPerSecond * s)
	case n.right && !n.left:
		vp.Pan(panPxPerSecond * s)
	}
	return true
}

// set records a navigation key going down or up.
func (n *keyNav) set(name key.Name, down bool) bool {
	was := n.active()
	switch name {
	case "W", "Z", key.NameUpArrow:
		n.zoomIn = down
	case "S", key.NameDownArrow:
		n.zoomOut = down
	case "A", "Q", key.NameLeftArrow:
		n.left = down
	case "D", key.NameRightArrow:
		n.right = down
	default:
		return false
	}
	if !was && n.active() {
		n.heldSince = time.Now()
	}
	return true
}

// keyFilters are every key the window reacts to while the chart has focus.
var keyFilters = []key.Filter{
	{Name: "W"}, {Name: "S"}, {Name: "A"}, {Name: "D"}, {Name: "Z"}, {Name: "Q"},
	{Name: key.NameUpArrow}, {Name: key.NameDownArrow},
	{Name: key.NameLeftArrow, Optional: key.ModAlt}, {Name: key.NameRightArrow, Optional: key.ModAlt},
	{Name: "+", Optional: key.ModShift}, {Name: "="}, {Name: "-"}, {Name: "0"},
	{Name: key.NameHome}, {Name: key.NameEscape},
	{Name: "F", Required: key.ModShortcut}, {Name: "O", Required: key.ModShortcut},
	{Name: "?", Optional: key.ModShift}, {Name: "/", Optional: key.ModShift}, {Name: key.NameF1},
}

// handleKeys reacts to the window-wide keys.
func (u *ui) handleKeys(gtx layout.Context) {
	for {
		ev, ok := gtx.Event(u.keyFiltersFor()...)
		if !ok {
			break
		}
		e, isKey := ev.(key.Event)
		if !isKey {
			continue
		}
		u.onKey(gtx, e)
	}
}

// keyFiltersFor returns keyFilters aimed at the window's focus tag, reusing one slice.
func (u *ui) keyFiltersFor() []event.Filter {
	if len(u.keyFilters) == 0 {
		for _, f := range keyFilters {
			f.Focus = u
			u.keyFilters = append(u.keyFilters, f)
		}
		u.keyFilters = append(u.keyFilters, key.FocusFilter{Target: u})
	}
	return u.keyFilters
}

func (u *ui) onKey(gtx layout.Context, e key.Event) {
	d := u.doc
	if e.Modifiers.Contain(key.ModShortcut) {
		if e.State != key.Press {
			return
		}
		switch e.Name {
		case "F":
			u.search.focus(gtx)
		case "O":
			u.dialog.open(u)
		}
		return
	}
	if e.Modifiers.Contain(key.ModAlt) && d != nil {
		if e.State == key.Press {
			switch e.Name {
			case key.NameLeftArrow:
				d.view.Back()
			case key.NameRightArrow:
				d.view.Forward()
			}
		}
		return
	}
	if u.nav.set(e.Name, e.State == key.Press) {
		gtx.Execute(op.InvalidateCmd{})
		return
	}
	if e.State != key.Press {
		return
	}
	switch e.Name {
	case key.NameEscape:
		if u.help.shown {
			u.help.shown = false
		} else if d != nil {
			d.clearSelection()
		}
	case "?", "/", key.NameF1:
		u.help.shown = !u.help.shown
	}
	if d == nil {
		return
	}
	switch e.Name {
	case "+", "=":
		d.view.ZoomAt(d.view.Width()/2, 1/stepZoom)
	case "-":
		d.view.ZoomAt(d.view.Width()/2, stepZoom)
	case "0", key.NameHome:
		d.view.Fit()
	}
}
