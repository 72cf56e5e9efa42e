package app

import (
	"image"

	"gioui.org/layout"
	"gioui.org/op"

	"flamedesk/app/theme"
	"flamedesk/core/calltree"
	"flamedesk/timeline"
)

// The chrome around the chart (toolbar, panels, status bar) rarely changes while the user zooms
// and pans, but laying it out costs more than the chart itself: dozens of labels, buttons and
// rows. So its ops are recorded once and replayed while nothing it shows has changed and nothing
// can have reached it: the pointer is over the chart and the keyboard focus is the chart's. Gio
// also keeps the rasterised text of replayed ops, which makes the GPU side of a frame cheaper too.

// opCache is one recorded part of the window.
type opCache struct {
	ops   op.Ops
	call  op.CallOp
	key   chromeKey
	valid bool
}

// layout replays the recorded ops when key equals the recorded one and fresh is false, and
// otherwise records draw anew.
func (c *opCache) layout(gtx layout.Context, key chromeKey, fresh bool, draw func(gtx layout.Context)) {
	if c.valid && !fresh && key == c.key {
		c.call.Add(gtx.Ops)
		return
	}
	c.ops.Reset()
	g := gtx
	g.Ops = &c.ops
	m := op.Record(g.Ops)
	draw(g)
	c.call = m.Stop()
	c.key, c.valid = key, true
	c.call.Add(gtx.Ops)
}

// chromeKey is what the chrome shows, as far as it can change without an input event reaching it.
type chromeKey struct {
	size            image.Point
	colors          theme.Colors
	doc             *document
	model           *timeline.Model
	contentH        float64
	settings        settings
	busy            bool
	selected        timeline.EntryRef
	merged          bool
	span            timeline.Span
	rangeS, rangeE  float64
	search, marked  *timeline.SearchResult
	searchIndex     int
	banner          string
	tree            *calltree.Tree
	rows, treeSel   int
	crumbs          int
	treeMsg         string
	panelH          float32
	treeProfile     int
	listTop, detTop int
	warningsShown   bool
	dialogPending   bool
	copied          string
	compare         compareKey
	source          sourceKey
}

func (u *ui) chromeKey(size image.Point) chromeKey {
	k := chromeKey{size: size, colors: u.th.Colors, settings: u.settings,
		banner: u.banner, panelH: u.panel.heightDp, warningsShown: u.status.warningsShown,
		dialogPending: u.dialog.Busy()}
	if d := u.doc; d != nil {
		k.busy = d.timing.busy()
		k.doc, k.model, k.contentH = d, d.model, d.model.ContentHeight()
		k.selected, k.merged, k.span = d.selected, d.selectedIsMerge, d.selectedSpan
		k.rangeS, k.rangeE = d.rangeStart, d.rangeEnd
		k.search, k.marked, k.searchIndex = d.search, d.marked(), d.searchIndex
	}
	tp := &u.panel.tree
	k.tree, k.rows, k.treeSel, k.treeMsg, k.treeProfile = tp.tree, len(tp.rows), tp.selectedRow(), tp.message, tp.profile
	if tp.stack != nil {
		k.crumbs = tp.stack.Len()
	}
	k.listTop, k.detTop = tp.list.Position.First, u.panel.details.list.Position.First
	k.copied = u.panel.details.copied
	k.compare = u.panel.compareKey()
	k.source = tp.source.key()
	return k
}
