package app

// The Source tab: the text of the selected function's file with the self time the function spent
// on each line beside it, from the lines V8 records with each sample (core/sourcemap.Lines), and
// "Open in editor". The function is the one last selected, in the chart or the call tree; the
// lines are counted and the text read (from the trace, a map's sourcesContent or the disk) off
// the UI goroutine.

import (
	"context"
	"errors"
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf8"

	"gioui.org/io/pointer"
	"gioui.org/layout"
	"gioui.org/op"
	"gioui.org/op/clip"
	"gioui.org/op/paint"
	"gioui.org/unit"
	"gioui.org/widget"

	"flamedesk/app/task"
	"flamedesk/app/theme"
	"flamedesk/core"
	"flamedesk/core/calltree"
	"flamedesk/core/sourcemap"
	"flamedesk/internal/editor"
	"flamedesk/timeline"
)

type (
	// showSource opens the Source tab on the function of frame in profile.
	showSource struct {
		profile int
		frame   core.FrameID
	}
	// openInEditor opens the file of frame at a 1-based line (0: the function's own line) in the
	// user's editor.
	openInEditor struct {
		frame core.FrameID
		line  int
	}
)

func (showSource) isAction()   {}
func (openInEditor) isAction() {}

// sourceTarget is the function the Source tab shows: a frame of it (from the chart), or a
// function of a call tree's table.
type sourceTarget struct {
	profile int
	frame   core.FrameID
	funcs   *calltree.Functions // nil: the function of frame, by the names shown
	fn      calltree.FuncID
}

// sourceShown is what a build hands back: the function's lines and the text they are in.
type sourceShown struct {
	title string
	lt    sourcemap.LineTimes
	// lines is the file's text with each line's time; nil when the text is not at hand, and
	// reason says why.
	lines  []sourcemap.SourceLine
	reason string
	// onDisk is the file the editor opens; "" when the text came from the trace or a map.
	onDisk string
	// frame is a frame of the function, for the editor and for a change of names.
	frame core.FrameID
	// funcLine is the line where the function starts, hottest the line with the most self time
	// (1-based; 0 when unknown), maxSelf that line's time.
	funcLine, hottest int
	maxSelf           float64
	// offFile is the self time on no line of the file (inlined code, lines past its end).
	offFile float64
}

// sourceView is the Source tab's state.
type sourceView struct {
	doc      *document
	target   sourceTarget
	original bool
	has      bool
	// stale says target is not what shown shows: it is built when the tab is on screen, so that
	// selecting in the chart costs nothing while the tab is closed.
	stale bool
	build task.Future[*sourceShown]
	shown *sourceShown
	// line is the line chosen with a click, which "Open in editor" opens (0: the hottest).
	line int

	list       widget.List
	rowClick   []widget.Clickable
	openEditor widget.Clickable
	// run opens the editor; its result is a note for the header.
	run     task.Future[string]
	message string
	// failure is why the editor did not start, until the window shows it in its banner.
	failure string
	// top is where the view starts below the tree panel's top, and editorAt the middle of its
	// "Open in editor" within the view, as laid out in the last frame (for tests).
	top      int
	editorAt image.Point
	// headerH is the height of the view's header, above the lines.
	headerH int
}

func (v *sourceView) init(invalidate func()) {
	v.build.Invalidate = invalidate
	v.run.Invalidate = invalidate
}

func (v *sourceView) reset(d *document) {
	v.build.Cancel()
	v.doc, v.target, v.has, v.stale, v.shown, v.line, v.message = d, sourceTarget{}, false, false, nil, 0, ""
	v.list.Position = layout.Position{}
}

// pending reports whether a build or an editor start has not been shown yet.
func (v *sourceView) pending() bool { return v.build.Pending() || v.run.Pending() }

// show points the view at t; it is built when the tab is next laid out.
func (v *sourceView) show(d *document, t sourceTarget, original bool) {
	if d == nil || t.profile < 0 || t.profile >= len(d.trace.Profiles) {
		return
	}
	v.doc, v.target, v.original, v.has, v.stale, v.line = d, t, original, true, true, 0
}

// start builds the view of the target in the background.
func (v *sourceView) start() {
	v.stale = false
	t, original := v.target, v.original
	tr, set, prof := v.doc.trace, v.doc.maps, &v.doc.trace.Profiles[t.profile]
	v.build.Start(func(ctx context.Context) (*sourceShown, error) {
		return buildSource(tr, set, prof, t, original), ctx.Err()
	})
}

// renamed shows the same function again after the names switch changed.
func (v *sourceView) renamed(original bool) {
	if !v.has || v.doc == nil {
		return
	}
	t := v.target
	if t.funcs != nil {
		// The table's functions were named the other way: go by a frame of the function.
		if v.shown == nil || v.shown.frame == core.NoFrame {
			v.has = false
			return
		}
		t = sourceTarget{profile: t.profile, frame: v.shown.frame}
	}
	v.show(v.doc, t, original)
}

// poll installs a finished build and the editor's note.
func (v *sourceView) poll() {
	if s, err, ok := v.build.Poll(); ok && err == nil {
		v.shown = s
		v.list.Position = layout.Position{}
		if at := s.hottest; at == 0 {
			v.list.Position.First = max(s.funcLine-4, 0)
		} else {
			v.list.Position.First = max(at-6, 0)
		}
		if len(v.rowClick) < len(s.lines) {
			v.rowClick = make([]widget.Clickable, len(s.lines))
		}
	}
	if msg, err, ok := v.run.Poll(); ok {
		v.message = msg
		if err != nil {
			v.message, v.failure = err.Error(), err.Error()
		}
	}
}

// takeFailure returns why the editor last failed to start, once.
func (v *sourceView) takeFailure() string {
	f := v.failure
	v.failure = ""
	return f
}

// buildSource counts the function's self time per line and reads its file.
func buildSource(tr *core.Trace, set *sourcemap.Set, prof *core.ProfileModel, t sourceTarget, original bool) *sourceShown {
	funcs, fn := t.funcs, t.fn
	if funcs == nil {
		funcs = calltree.NewFunctionsNamed(tr, prof, original)
		fn = funcs.OfFrame(t.frame)
	}
	s := &sourceShown{frame: core.NoFrame}
	switch {
	case fn == calltree.NoFunc:
		s.reason = "The function has no samples in this thread's profile."
		return s
	case funcs.IsResource(fn):
		s.title = shortURL(funcs.Name(fn))
		s.reason = "A collapsed script: select one of its functions to see its lines."
		return s
	}
	s.title = funcs.Name(fn)
	if s.title == "" {
		s.title = "(anonymous)"
	}
	s.funcLine = int(funcs.Line(fn)) + 1
	isFunc := func(f core.FrameID) bool { return funcs.OfFrame(f) == fn }
	for _, f := range prof.NodeFrame {
		if f != core.NoFrame && isFunc(f) {
			s.frame = f
			break
		}
	}
	if s.frame == core.NoFrame {
		s.reason = "The function has no samples in this thread's profile."
		return s
	}
	s.lt = sourcemap.Lines(tr, set, prof, isFunc, original)
	if s.lt.File == "" {
		s.lt.File = funcs.URL(fn)
	}
	for _, l := range s.lt.Lines {
		if l.Self > s.maxSelf {
			s.hottest, s.maxSelf = int(l.Line), l.Self
		}
	}
	s.offFile = s.lt.Elsewhere
	src, ok := set.SourceOf(s.frame, original)
	if !ok {
		s.reason = set.WhyNoSource(s.frame, original)
		if set.Dir() == "" {
			s.reason += " (Source maps… in the toolbar names one)"
		}
		return s
	}
	s.onDisk = src.Path
	var missing float64
	s.lines, missing = sourcemap.Annotate(src.Text, s.lt)
	s.offFile += missing
	for i := range s.lines {
		s.lines[i].Text = displayLine(s.lines[i].Text)
	}
	return s
}

// maxLineBytes cuts the lines of a minified bundle, which can be megabytes long: a row shows a
// few hundred characters at most.
const maxLineBytes = 1000

// displayLine is a line as a row shows it: tabs as spaces, cut when very long.
func displayLine(s string) string {
	if len(s) > maxLineBytes {
		cut := maxLineBytes
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strings.ReplaceAll(s, "\t", "    ")
}

// editorLine is the line "Open in editor" opens: the one clicked, else the hottest, else the
// function's own.
func (v *sourceView) editorLine() int {
	s := v.shown
	switch {
	case v.line > 0:
		return v.line
	case s != nil && s.hottest > 0:
		return s.hottest
	case s != nil:
		return s.funcLine
	}
	return 0
}

// heatColour is the colour of the hottest line; cooler lines are mixed from the panel towards it.
var heatColour = theme.RGB(0xf4511e)

func (v *sourceView) layout(gtx layout.Context, e env) layout.Dimensions {
	if v.stale && v.doc == e.doc {
		v.start()
	}
	s := v.shown
	if s != nil && v.openEditor.Clicked(gtx) && s.frame != core.NoFrame {
		e.emit(openInEditor{frame: s.frame, line: v.editorLine()})
	}
	if !v.has || s == nil {
		msg := "Select a JavaScript function in the chart or the call tree: its file shows here with the self time of each line."
		if v.has {
			msg = "Counting the function's time per line…"
		}
		return layout.UniformInset(unit.Dp(8)).Layout(gtx, func(gtx layout.Context) layout.Dimensions {
			return e.th.MutedLabel(gtx, msg)
		})
	}
	for i := range s.lines {
		if i < len(v.rowClick) && v.rowClick[i].Clicked(gtx) {
			v.line = i + 1
		}
	}
	return layout.Flex{Axis: layout.Vertical}.Layout(gtx,
		layout.Rigid(func(gtx layout.Context) layout.Dimensions {
			dims := v.layoutHeader(gtx, e, s)
			v.headerH = dims.Size.Y
			return dims
		}),
		layout.Flexed(1, func(gtx layout.Context) layout.Dimensions { return v.layoutLines(gtx, e, s) }),
	)
}

func (v *sourceView) layoutHeader(gtx layout.Context, e env, s *sourceShown) layout.Dimensions {
	how := "lines of each sample"
	if s.lt.FromTicks {
		how = "positionTicks"
	}
	what := s.title
	if s.lt.File != "" {
		what += " — " + s.lt.File
	}
	what += fmt.Sprintf(" · self %s (%s)", formatDuration(s.lt.Total), how)
	var notes []string
	if s.reason != "" {
		notes = append(notes, s.reason)
	}
	if s.offFile > 0 && s.lt.Total > 0 {
		notes = append(notes, fmt.Sprintf("%s on no line of this file", formatDuration(s.offFile)))
	}
	if s.lt.Total == 0 && s.reason == "" {
		notes = append(notes, "No self time: the function's time is in the functions it calls.")
	}
	if v.message != "" {
		notes = append(notes, v.message)
	}
	return layout.Inset{Left: unit.Dp(4), Top: unit.Dp(2), Bottom: unit.Dp(2)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{Axis: layout.Vertical}.Layout(gtx,
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				return layout.Flex{Alignment: layout.Middle}.Layout(gtx,
					layout.Rigid(func(gtx layout.Context) layout.Dimensions {
						if s.frame == core.NoFrame {
							return layout.Dimensions{}
						}
						dims := layout.Inset{Right: unit.Dp(8)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
							return e.th.Button(gtx, &v.openEditor, "Open in editor")
						})
						v.editorAt = image.Pt(gtx.Dp(4)+dims.Size.X/2, gtx.Dp(2)+dims.Size.Y/2)
						return dims
					}),
					layout.Flexed(1, func(gtx layout.Context) layout.Dimensions { return e.th.Label(gtx, what) }),
				)
			}),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions {
				if len(notes) == 0 {
					return layout.Dimensions{}
				}
				return e.th.DrawText(gtx, strings.Join(notes, "\n"), e.th.Warn)
			}),
		)
	})
}

// sourceColumnsDp are the widths of the self time and line number columns.
const (
	sourceSelfDp = 76
	sourceLineDp = 44
)

func (v *sourceView) layoutLines(gtx layout.Context, e env, s *sourceShown) layout.Dimensions {
	rowH := gtx.Dp(18)
	selfW, lineW := gtx.Dp(sourceSelfDp), gtx.Dp(sourceLineDp)
	textX := selfW + lineW + gtx.Dp(12)
	chosen := v.editorLine()
	cell := func(gtx layout.Context, x, w int, s string, muted bool) {
		off := op.Offset(image.Pt(x, 0)).Push(gtx.Ops)
		g := gtx
		g.Constraints = layout.Exact(image.Pt(w, rowH))
		layout.E.Layout(g, func(gtx layout.Context) layout.Dimensions {
			if muted {
				return e.th.MutedLabel(gtx, s)
			}
			return e.th.Label(gtx, s)
		})
		off.Pop()
	}
	v.list.Axis = layout.Vertical
	if s.lines == nil {
		// No text: the lines with time alone.
		return e.th.List(gtx, &v.list, len(s.lt.Lines), func(gtx layout.Context, i int) layout.Dimensions {
			l := s.lt.Lines[i]
			size := image.Pt(gtx.Constraints.Max.X, rowH)
			v.paintHeat(gtx, e, size, l.Self, s.maxSelf)
			cell(gtx, 0, selfW-gtx.Dp(6), msText(l.Self), false)
			cell(gtx, selfW, lineW, fmt.Sprint(l.Line), true)
			return layout.Dimensions{Size: size}
		})
	}
	return e.th.List(gtx, &v.list, len(s.lines), func(gtx layout.Context, i int) layout.Dimensions {
		l := s.lines[i]
		size := image.Pt(gtx.Constraints.Max.X, rowH)
		return v.rowClick[i].Layout(gtx, func(gtx layout.Context) layout.Dimensions {
			v.paintHeat(gtx, e, size, l.Self, s.maxSelf)
			if i+1 == chosen {
				paint.FillShape(gtx.Ops, e.th.Accent, clip.Rect{Max: image.Pt(gtx.Dp(3), rowH)}.Op())
			}
			pointer.CursorPointer.Add(gtx.Ops)
			if l.Self > 0 {
				cell(gtx, 0, selfW-gtx.Dp(6), msText(l.Self), false)
			}
			cell(gtx, selfW, lineW, fmt.Sprint(i+1), true)
			off := op.Offset(image.Pt(textX, 0)).Push(gtx.Ops)
			g := gtx
			g.Constraints = layout.Exact(image.Pt(max(0, size.X-textX), rowH))
			e.th.Label(g, l.Text)
			off.Pop()
			return layout.Dimensions{Size: size}
		})
	})
}

// paintHeat fills a row by its share of the hottest line's time.
func (v *sourceView) paintHeat(gtx layout.Context, e env, size image.Point, self, hottest float64) {
	if self <= 0 || hottest <= 0 {
		return
	}
	c := theme.Mix(e.th.Panel, heatColour, 0.12+0.58*min(self/hottest, 1))
	paint.FillShape(gtx.Ops, c, clip.Rect{Max: size}.Op())
}

// msText is a self time in ms with one decimal, "<0.1 ms" for less.
func msText(us float64) string {
	if us > 0 && us < 50 {
		return "<0.1 ms"
	}
	return fmt.Sprintf("%.1f ms", us/1000)
}

// sourceKey is what the Source tab shows, for the chrome's cache: builds and the editor's note
// arrive without an input event.
type sourceKey struct {
	shown   *sourceShown
	target  sourceTarget
	has     bool
	stale   bool
	message string
	line    int
	top     int
}

func (v *sourceView) key() sourceKey {
	return sourceKey{shown: v.shown, target: v.target, has: v.has, stale: v.stale, message: v.message, line: v.line,
		top: v.list.Position.First}
}

// showSourceOf points the Source tab at a chart entry's function, when it is a JS call.
func (u *ui) showSourceOf(ref timeline.EntryRef) {
	d := u.doc
	if d == nil || !ref.Valid() {
		return
	}
	ct := d.model.Tracks[ref.Track].Core
	if ct.KindAt(int(ref.Entry)) != core.EntryProfileCall || ct.Profile < 0 {
		return
	}
	u.panel.tree.source.show(d, sourceTarget{profile: int(ct.Profile), frame: ct.FrameAt(int(ref.Entry))}, !d.model.GeneratedNames)
}

// showSourceOfFunc points the Source tab at a function of the call tree's table.
func (u *ui) showSourceOfFunc(funcs *calltree.Functions, fn calltree.FuncID) {
	d, tp := u.doc, &u.panel.tree
	if d == nil || tp.profile < 0 || funcs == nil || fn == calltree.NoFunc {
		return
	}
	tp.source.show(d, sourceTarget{profile: tp.profile, funcs: funcs, fn: fn}, !d.model.GeneratedNames)
}

// startEditor opens the file of frame at line in the user's editor, off the UI goroutine: the
// file on disk, or a copy of the text the trace or the map carries.
func (u *ui) startEditor(a openInEditor) {
	d := u.doc
	if d == nil {
		return
	}
	set, original := d.maps, !d.model.GeneratedNames
	line := a.line
	if line <= 0 {
		line = int(d.trace.Shown(a.frame, original).Line) + 1
	}
	v := &u.panel.tree.source
	v.message = ""
	v.run.Start(func(ctx context.Context) (string, error) {
		return runEditor(set, a.frame, original, line, os.Getenv, runtime.GOOS)
	})
}

// runEditor finds the file and starts the editor; it returns a note for the user.
func runEditor(set *sourcemap.Set, frame core.FrameID, original bool, line int, getenv func(string) string, goos string) (string, error) {
	src, ok := set.SourceOf(frame, original)
	if !ok {
		return "", errors.New(set.WhyNoSource(frame, original))
	}
	file, note := src.Path, ""
	if file == "" {
		dir, err := os.MkdirTemp("", "flamedesk-source-")
		if err != nil {
			return "", err
		}
		name := filepath.Base(filepath.FromSlash(src.Name))
		if i := strings.IndexAny(name, "?#"); i > 0 {
			name = name[:i]
		}
		if name == "" || name == "." || name == string(filepath.Separator) {
			name = "source.js"
		}
		file = filepath.Join(dir, name)
		if err := os.WriteFile(file, []byte(src.Text), 0o600); err != nil {
			return "", err
		}
		note = fmt.Sprintf("Opened a copy, %s: %s is not on this disk", file, src.Name)
	}
	cmd := editor.For(file, line, getenv, goos)
	args := cmd.Args
	if cmd.Terminal {
		term := terminalFor(getenv)
		if term == nil {
			return "", fmt.Errorf("%s runs in a terminal and none was found: set $VISUAL to a graphical editor, or $TERMINAL", args[0])
		}
		args = append(term, args...)
	}
	c := exec.Command(args[0], args[1:]...)
	if err := c.Start(); err != nil {
		return "", fmt.Errorf("could not start %s: %v", args[0], err)
	}
	go c.Wait() // reaps the editor whenever it exits; the window does not wait for it
	if note == "" {
		note = "Opened " + file
		if cmd.Line {
			note += fmt.Sprintf(" at line %d", line)
		}
	}
	return note, nil
}

// terminalFor is the command that runs a terminal editor in a window: $TERMINAL, else Debian's
// x-terminal-emulator; nil when neither exists.
func terminalFor(getenv func(string) string) []string {
	for _, t := range []string{getenv("TERMINAL"), "x-terminal-emulator"} {
		if t == "" {
			continue
		}
		if p, err := exec.LookPath(t); err == nil {
			return []string{p, "-e"}
		}
	}
	return nil
}

// layoutSourceButtons draws "Show source" and "Open in editor" under a JS call's details.
func (p *detailsPanel) layoutSourceButtons(gtx layout.Context, e env) layout.Dimensions {
	d := e.doc
	if d != nil && d.selected.Valid() && !d.selectedIsMerge {
		ct := d.model.Tracks[d.selected.Track].Core
		frame := ct.FrameAt(int(d.selected.Entry))
		for p.showSource.Clicked(gtx) {
			e.emit(showSource{profile: int(ct.Profile), frame: frame})
		}
		for p.openEditor.Clicked(gtx) {
			e.emit(openInEditor{frame: frame})
		}
	}
	return layout.Inset{Top: unit.Dp(4)}.Layout(gtx, func(gtx layout.Context) layout.Dimensions {
		return layout.Flex{}.Layout(gtx,
			layout.Rigid(func(gtx layout.Context) layout.Dimensions { return e.th.Button(gtx, &p.showSource, "Show source") }),
			layout.Rigid(layout.Spacer{Width: unit.Dp(6)}.Layout),
			layout.Rigid(func(gtx layout.Context) layout.Dimensions { return e.th.Button(gtx, &p.openEditor, "Open in editor") }),
		)
	})
}
