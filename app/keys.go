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
// that the caller asks for another frame. A view held at the trace's ends or at the deepest zoom
// does not move: frames drawn then would repeat the last one (at 30-40 ms of CPU each under
// llvmpipe, a third of the frames of scripts/framebench.sh's held keys), so none are asked for
// until a key, the pointer or anything else changes.
func (n *keyNav) step(d *document, now time.Time, dt time.Duration) bool {
	if !n.active() {
		return false
	}
	before := d.view.View()
	held := now.Sub(n.heldSince).Seconds()
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
	// A frame with no time to move in is not the end of the motion.
	return dt <= 0 || vp.View() != before
}

// set records a navigation key going down or up; started reports that a hold began, so that the
// view before it goes into the history.
func (n *keyNav) set(name key.Name, down bool, now time.Time) (handled, started bool) {
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
		return false, false
	}
	if !was && n.active() {
		n.heldSince = now
		return true, true
	}
	return true, false
}

// globalKeys work whatever has the keyboard focus (the call tree, the search box): their filters
// name no focus, and they are read before any component reads its own.
var globalKeys = []key.Filter{
	{Name: "F", Required: key.ModShortcut}, {Name: "O", Required: key.ModShortcut, Optional: key.ModShift},
	{Name: "Q", Required: key.ModShortcut}, {Name: "W", Required: key.ModShortcut},
	{Name: key.NameLeftArrow, Required: key.ModAlt}, {Name: key.NameRightArrow, Required: key.ModAlt},
}

// windowKeys work while the window as a whole has the focus, that is unless a text field or the
// call tree has it, which give these keys meanings of their own.
var windowKeys = []key.Filter{
	{Name: "W"}, {Name: "S"}, {Name: "A"}, {Name: "D"}, {Name: "Z"}, {Name: "Q"},
	{Name: key.NameUpArrow}, {Name: key.NameDownArrow}, {Name: key.NameLeftArrow}, {Name: key.NameRightArrow},
	{Name: "+", Optional: key.ModShift}, {Name: "="}, {Name: "-"}, {Name: "0"},
	{Name: key.NameHome}, {Name: key.NameEscape},
	{Name: "?", Optional: key.ModShift}, {Name: "/", Optional: key.ModShift}, {Name: key.NameF1},
}

// handleKeys reacts to the window-wide keys.
func (u *ui) handleKeys(gtx layout.Context) {
	for {
		ev, ok := gtx.Event(u.keyFiltersFor()...)
		if !ok {
			break
		}
		if e, isKey := ev.(key.Event); isKey {
			u.onKey(gtx, e)
			// Applied at once, before the next key is read: after Ctrl+F the letters typed in
			// the same frame must already go to the search box.
			u.applyActions(gtx)
		}
	}
}

// keyFiltersFor returns the global keys and the window's keys aimed at its focus tag, reusing
// one slice.
func (u *ui) keyFiltersFor() []event.Filter {
	if len(u.keyFilters) == 0 {
		for _, f := range globalKeys {
			u.keyFilters = append(u.keyFilters, f)
		}
		for _, f := range windowKeys {
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
			u.emit(focus{tag: &u.searchBox.editor})
			u.searchBox.selectAll()
		case "O":
			if e.Modifiers.Contain(key.ModShift) {
				u.emit(compareDialog{})
			} else {
				u.emit(openDialog{})
			}
		case "Q", "W":
			u.emit(quit{})
		}
		return
	}
	if e.Modifiers.Contain(key.ModAlt) {
		if e.State == key.Press && d != nil {
			switch e.Name {
			case key.NameLeftArrow:
				d.view.Back()
			case key.NameRightArrow:
				d.view.Forward()
			}
		}
		return
	}
	if handled, started := u.nav.set(e.Name, e.State == key.Press, gtx.Now); handled {
		if started && d != nil {
			d.view.Mark()
		}
		gtx.Execute(op.InvalidateCmd{})
		return
	}
	if e.State != key.Press {
		return
	}
	switch e.Name {
	case key.NameEscape:
		if u.help.shown || u.toolbar.recentShown || u.status.warningsShown {
			u.emit(closeOverlays{})
		} else {
			u.emit(clearSelection{})
		}
	case "?", "/", key.NameF1:
		u.emit(toggleHelp{})
	}
	if d == nil {
		return
	}
	switch e.Name {
	case "+", "=":
		d.view.Mark()
		d.view.ZoomAt(d.view.Width()/2, 1/stepZoom)
	case "-":
		d.view.Mark()
		d.view.ZoomAt(d.view.Width()/2, stepZoom)
	case "0", key.NameHome:
		d.view.Fit()
	}
}
