// Package calltree owns the call tree of one profiled thread: samples aggregated by function (not
// by frame) into call nodes with running time, self time and sample counts; the bottom-up
// (inverted) view of the same data; and the Firefox Profiler transforms (focus, merge, prune, drop,
// collapse) applied as an undoable stack.
//
// The data flow is Functions (per profile, independent of any time range) → Source (the samples of
// one range, aggregated per call node) → Stack (transforms, each a linear pass over the call-node
// table) → Tree (a sorted, lazily expanded view for a tree table or a printer).
//
// Call nodes are kept Firefox-style as int32 columns whose prefix (parent) index is always smaller
// than the node's own index, so every pass is a single forward loop. A call node is named across
// transforms by its Path: the functions from the root down to it.
package calltree

import (
	"fmt"

	"flamedesk/core"
)

// FuncID indexes the functions of a Functions table.
type FuncID int32

// NoFunc stands for "no function".
const NoFunc FuncID = -1

// Path names a call node by the functions from a root down to it. In an inverted tree the first
// element is the function on top of the stack and each next one is its caller.
type Path []FuncID

// Equal reports whether p and q name the same call node.
func (p Path) Equal(q Path) bool {
	if len(p) != len(q) {
		return false
	}
	for i := range p {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

// funcKey is what makes two frames the same function: V8 creates a new frame (and a new profile
// node) when a function is re-optimised, but its name and source position stay the same.
type funcKey struct {
	name, url    core.StrID
	line, column int32
}

// Functions is the function table of one profile. The frames of the profile's nodes are merged
// into functions by (name, url, line, column); after them come the collapsed-resource functions,
// one per distinct non-empty URL, which stand for a whole script once it is collapsed. FuncIDs
// depend only on the profile, so transforms stay valid when the time range changes.
type Functions struct {
	strings *core.Strings
	profile *core.ProfileModel

	name, url    []core.StrID
	line, column []int32
	// resourceOf is, for a plain function, the collapsed function of its URL (NoFunc when it has
	// no URL); for a collapsed function it is the function itself.
	resourceOf []FuncID
	numPlain   int

	// nodeFunc is the function of each profile node, NoFunc for a node without a frame.
	nodeFunc []FuncID
	// frameFunc maps a trace frame to its function, for frames used by this profile (NoFunc else).
	frameFunc map[core.FrameID]FuncID
	byURL     map[core.StrID]FuncID
	// unknown is the function of nodes whose frame is missing (NoFunc when there are none); it
	// has no name of its own because the trace's string table is shared and read-only here.
	unknown FuncID
}

// NewFunctions builds the function table of profile p of trace tr. Where a source map applied
// (tr.Original), functions are the original ones: frames that map to the same original function
// merge into one, named and placed as in the original source.
func NewFunctions(tr *core.Trace, p *core.ProfileModel) *Functions {
	return NewFunctionsNamed(tr, p, true)
}

// NewFunctionsNamed is NewFunctions with the choice of names: original false keeps the engine's
// own (generated) names and positions even where a source map applied.
func NewFunctionsNamed(tr *core.Trace, p *core.ProfileModel, original bool) *Functions {
	f := &Functions{
		strings:   tr.Strings,
		profile:   p,
		nodeFunc:  make([]FuncID, len(p.NodeFrame)),
		frameFunc: make(map[core.FrameID]FuncID),
		byURL:     make(map[core.StrID]FuncID),
	}
	keys := make(map[funcKey]FuncID)
	f.unknown = NoFunc
	for node, frame := range p.NodeFrame {
		if fn, ok := f.frameFunc[frame]; ok {
			f.nodeFunc[node] = fn
			continue
		}
		var key funcKey
		if frame == core.NoFrame || int(frame) >= len(tr.Frames) {
			// A node without a usable frame still carries samples; give all of them one
			// function so that their time is not lost.
			if f.unknown == NoFunc {
				f.unknown = f.add(funcKey{line: -1, column: -1})
			}
			f.nodeFunc[node] = f.unknown
			continue
		}
		cf := tr.Shown(frame, original)
		key = funcKey{name: cf.FunctionName, url: cf.URL, line: cf.Line, column: cf.Column}
		fn, ok := keys[key]
		if !ok {
			fn = f.add(key)
			keys[key] = fn
		}
		f.frameFunc[frame] = fn
		f.nodeFunc[node] = fn
	}
	f.numPlain = len(f.name)
	for fn := range f.numPlain {
		u := f.url[fn]
		if u == 0 {
			f.resourceOf[fn] = NoFunc
			continue
		}
		res, ok := f.byURL[u]
		if !ok {
			res = f.add(funcKey{name: u, url: u, line: -1, column: -1})
			f.resourceOf[res] = res
			f.byURL[u] = res
		}
		f.resourceOf[fn] = res
	}
	return f
}

func (f *Functions) add(k funcKey) FuncID {
	id := FuncID(len(f.name))
	f.name = append(f.name, k.name)
	f.url = append(f.url, k.url)
	f.line = append(f.line, k.line)
	f.column = append(f.column, k.column)
	f.resourceOf = append(f.resourceOf, NoFunc)
	return id
}

// Len is the number of functions, collapsed-resource functions included.
func (f *Functions) Len() int { return len(f.name) }

// Valid reports whether fn names a function of this table.
func (f *Functions) Valid(fn FuncID) bool { return fn >= 0 && int(fn) < len(f.name) }

// Name is the function's name; for a collapsed resource, its URL.
func (f *Functions) Name(fn FuncID) string {
	if !f.Valid(fn) {
		return ""
	}
	if fn == f.unknown {
		return "(unknown frame)"
	}
	return f.strings.Get(f.name[fn])
}

// URL is the script URL of the function, "" when it has none.
func (f *Functions) URL(fn FuncID) string {
	if !f.Valid(fn) {
		return ""
	}
	return f.strings.Get(f.url[fn])
}

// URLID is the interned script URL of the function, 0 when it has none.
func (f *Functions) URLID(fn FuncID) core.StrID {
	if !f.Valid(fn) {
		return 0
	}
	return f.url[fn]
}

// Line is the 0-based line of the function's start, -1 when unknown.
func (f *Functions) Line(fn FuncID) int32 {
	if !f.Valid(fn) {
		return -1
	}
	return f.line[fn]
}

// Column is the 0-based column of the function's start, -1 when unknown.
func (f *Functions) Column(fn FuncID) int32 {
	if !f.Valid(fn) {
		return -1
	}
	return f.column[fn]
}

// IsResource reports whether fn is the stand-in of a collapsed script.
func (f *Functions) IsResource(fn FuncID) bool { return f.Valid(fn) && int(fn) >= f.numPlain }

// ResourceOf returns the collapsed-resource function that fn belongs to, NoFunc when fn has no URL.
func (f *Functions) ResourceOf(fn FuncID) FuncID {
	if !f.Valid(fn) {
		return NoFunc
	}
	return f.resourceOf[fn]
}

// ResourceByURL returns the collapsed-resource function of a script URL.
func (f *Functions) ResourceByURL(url core.StrID) (FuncID, bool) {
	fn, ok := f.byURL[url]
	return fn, ok
}

// OfFrame returns the function of a trace frame used by this profile, so that a flame chart can
// highlight every call of the function selected in the call tree.
func (f *Functions) OfFrame(frame core.FrameID) FuncID {
	if fn, ok := f.frameFunc[frame]; ok {
		return fn
	}
	return NoFunc
}

// FrameIs reports whether a trace frame is a call of fn, or belongs to the script fn stands for
// when fn is a collapsed resource: the test for highlighting a call-tree selection elsewhere.
func (f *Functions) FrameIs(frame core.FrameID, fn FuncID) bool {
	own := f.OfFrame(frame)
	return own != NoFunc && (own == fn || f.ResourceOf(own) == fn)
}

// OfNode returns the function of a profile node.
func (f *Functions) OfNode(node int32) FuncID {
	if node < 0 || int(node) >= len(f.nodeFunc) {
		return NoFunc
	}
	return f.nodeFunc[node]
}

// Describe names a function for people: "name (url:line:column)" with 1-based positions, or the
// name alone when it has no URL.
func (f *Functions) Describe(fn FuncID) string {
	name := f.Name(fn)
	if name == "" {
		name = "(anonymous)"
	}
	if f.IsResource(fn) {
		return name
	}
	url := f.URL(fn)
	if url == "" {
		return name
	}
	if l := f.Line(fn); l >= 0 {
		if c := f.Column(fn); c >= 0 {
			return fmt.Sprintf("%s (%s:%d:%d)", name, url, l+1, c+1)
		}
		return fmt.Sprintf("%s (%s:%d)", name, url, l+1)
	}
	return fmt.Sprintf("%s (%s)", name, url)
}

// PathString joins the names of p with "/", the form the command line accepts.
func (f *Functions) PathString(p Path) string {
	var b []byte
	for i, fn := range p {
		if i > 0 {
			b = append(b, '/')
		}
		b = append(b, f.Name(fn)...)
	}
	return string(b)
}
