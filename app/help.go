package app

import (
	"image"

	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/unit"
	"gioui.org/widget"
)

// helpOverlay lists every key and mouse gesture.
type helpOverlay struct {
	shown bool
	close widget.Clickable
}

// wheelRowsAt marks where helpRows takes the rows of the wheel scheme in use.
var wheelRowsAt = [2]string{"", "wheel"}

// wheelRows describe the two wheel schemes (the toolbar's Wheel button switches).
var wheelRows = map[bool][][2]string{
	false: {
		{"Ctrl + wheel", "zoom at the pointer"},
		{"Wheel", "scroll the tracks up and down"},
		{"Shift + wheel, horizontal swipe", "pan"},
		{"Wheel: scrolls (toolbar)", "switch to the classic scheme, where the wheel zooms"},
	},
	true: {
		{"Wheel, Ctrl + wheel", "zoom at the pointer"},
		{"Shift + wheel", "scroll the tracks up and down"},
		{"Horizontal swipe", "pan"},
		{"Wheel: zooms (toolbar)", "switch back to the modern scheme, where the wheel scrolls"},
	},
}

// helpRows is the help text: what to press, and what it does.
var helpRows = [][2]string{
	{"W / S (Z on AZERTY), ↑ / ↓", "zoom in / out at the pointer, faster while held"},
	{"A / D (Q on AZERTY), ← / →", "pan left / right, faster while held"},
	{"+ / − / 0, Home", "zoom in / zoom out / fit the whole trace"},
	wheelRowsAt,
	{"Drag", "pan (it keeps coasting when you let go while moving)"},
	{"Shift + drag", "select a time range (the call tree follows it)"},
	{"Click / double-click", "select a bar / zoom to it"},
	{"Click a header / right-click it", "collapse or expand a process or thread / hide it"},
	{"Alt + ← / Alt + →", "back / forward through zoom history"},
	{"Ctrl + F, Enter / Shift + Enter", "search, next / previous match"},
	{"Esc", "clear the selection (or close this help, the recent files, the warnings)"},
	{"Ctrl + O, Ctrl + Q / Ctrl + W", "open a file, quit"},
	{"Ctrl + Shift + O", "compare with another file (B, stacked under A on one time axis)"},
	{"Drag B's ruler", "move B in time against A"},
	{"Call tree: ↑ ↓ ← →", "move, expand, collapse"},
	{"Call tree: f F m M p d r c", "focus subtree / function, merge node / function, prune, drop, collapse recursion / script"},
	{"? or F1", "show or hide this help"},
}

func (h *helpOverlay) layout(gtx layout.Context, e env) {
	for h.close.Clicked(gtx) {
		h.shown = false
	}
	if !h.shown {
		return
	}
	size := gtx.Constraints.Max
	w, ht := min(size.X-gtx.Dp(40), gtx.Dp(900)), min(size.Y-gtx.Dp(40), gtx.Dp(22)*(len(helpRows)+len(wheelRows[false])+2))
	r := image.Rect((size.X-w)/2, (size.Y-ht)/2, (size.X+w)/2, (size.Y+ht)/2)
	defer op.Offset(r.Min).Push(gtx.Ops).Pop()
	e.th.Box(gtx.Ops, image.Rectangle{Max: r.Size()}, 2)
	g := gtx
	g.Constraints = layout.Exact(r.Size())
	layout.UniformInset(unit.Dp(12)).Layout(g, func(gtx layout.Context) layout.Dimensions {
		children := []layout.FlexChild{layout.Rigid(func(gtx layout.Context) layout.Dimensions {
			return layout.Flex{}.Layout(gtx,
				layout.Flexed(1, func(gtx layout.Context) layout.Dimensions { return e.th.Label(gtx, "Keys and mouse") }),
				layout.Rigid(func(gtx layout.Context) layout.Dimensions { return e.th.Button(gtx, &h.close, "Close") }),
			)
		})}
		var rows [][2]string
		for _, row := range helpRows {
			if row == wheelRowsAt {
				rows = append(rows, wheelRows[e.settings.WheelZooms]...)
			} else {
				rows = append(rows, row)
			}
		}
		for _, row := range rows {
			children = append(children, layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				return layout.Flex{}.Layout(gtx,
					layout.Rigid(func(gtx layout.Context) layout.Dimensions {
						gtx.Constraints.Min.X = gtx.Dp(250)
						return e.th.Label(gtx, row[0])
					}),
					layout.Flexed(1, func(gtx layout.Context) layout.Dimensions { return e.th.MutedLabel(gtx, row[1]) }),
				)
			}))
		}
		return layout.Flex{Axis: layout.Vertical}.Layout(gtx, children...)
	})
}
