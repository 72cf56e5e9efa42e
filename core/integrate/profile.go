package integrate

import (
	"maps"
	"slices"

	"flamedesk/core"
	"flamedesk/internal/background"
)

// nativeRuntimeURL marks V8 runtime frames, which DevTools removes from every stack before use.
const nativeRuntimeURL = "native V8Runtime"

// frameKeys gives every interned CallFrame the id of its (scriptId, functionName, lineNumber)
// triple: DevTools treats two frames as the same call when these three agree, whatever their url
// or column.
func frameKeys(tr *core.Trace) []int32 {
	type triple struct {
		script, name core.StrID
		line         int32
	}
	ids := make(map[triple]int32, len(tr.Frames))
	keys := make([]int32, len(tr.Frames))
	for i, f := range tr.Frames {
		k := triple{f.ScriptID, f.FunctionName, f.Line}
		id, ok := ids[k]
		if !ok {
			id = int32(len(ids))
			ids[k] = id
		}
		keys[i] = id
	}
	return keys
}

// profileIndex is what the integrator needs to know about one profile's nodes: each node's stack
// as a trie path, its frame key, and whether DevTools filters or skips it.
type profileIndex struct {
	p    *core.ProfileModel
	trie *pathTrie
	// stack[n] is the trie node of node n's stack: its ancestors without the root and without
	// native V8Runtime frames, n included unless it is itself native.
	stack []int32
	key   []int32 // frame key of node n; -1 when its frame is unknown
	// native marks nodes DevTools removes from stacks (url "native V8Runtime").
	native []bool
	// pos[n] is where node n's frame sits in its stack: the depth of stack[n] less one. The
	// walk reads it for every frame it pushes.
	pos []int32
	// meta marks the root, (program), (idle) and (garbage collector): they take part in stack
	// comparisons but are never pushed as calls.
	meta []bool
}

func newProfileIndex(tr *core.Trace, p *core.ProfileModel, keys []int32) *profileIndex {
	n := len(p.NodeID)
	px := &profileIndex{
		p:      p,
		trie:   newPathTrie(n),
		stack:  make([]int32, n),
		key:    make([]int32, n),
		native: make([]bool, n),
		meta:   make([]bool, n),
	}
	nativeURL, hasNative := tr.Strings.Lookup(nativeRuntimeURL)
	for i := 0; i < n; i++ {
		px.key[i] = -1
		if f := p.NodeFrame[i]; int(f) < len(tr.Frames) {
			px.key[i] = keys[f]
			px.native[i] = hasNative && tr.Frames[f].URL == nativeURL
		}
	}
	for _, m := range []int32{p.RootNode, p.ProgramNode, p.IdleNode, p.GCNode} {
		if m >= 0 && int(m) < n {
			px.meta[m] = true
		}
	}
	px.resolveStacks()
	px.pos = make([]int32, n)
	for i, s := range px.stack {
		px.pos[i] = px.trie.depth[s] - 1
	}
	// From here on the walk only asks for children with the GC node's key (a GC sample on top
	// of the previous sample's stack): the map keeps only those, as it is most of the index.
	gcKey := int32(-1)
	if gc := p.GCNode; gc >= 0 && int(gc) < n {
		gcKey = px.key[gc]
	}
	px.trie.keepChildren(gcKey)
	return px
}

// clone returns an index that shares the read-only columns and has a trie of its own: the walk
// adds the paths of GC samples to it.
func (px *profileIndex) clone() *profileIndex {
	own := *px
	t := *px.trie
	t.parent, t.jump = slices.Clone(t.parent), slices.Clone(t.jump)
	t.depth, t.key = slices.Clone(t.depth), slices.Clone(t.key)
	t.kids = maps.Clone(t.kids)
	own.trie = &t
	return &own
}

// resolveStacks fills stack[] for every node, parents first. Node order in the model is not
// promised to be parent-first, so each node walks up to its nearest resolved ancestor; every node
// is resolved once, and a broken parent chain (a cycle or an index out of range) ends at the root.
func (px *profileIndex) resolveStacks() {
	p := px.p
	n := len(p.NodeID)
	const unresolved, walking, done = 0, 1, 2
	state := make([]uint8, n)
	if r := p.RootNode; r >= 0 && int(r) < n {
		px.stack[r] = 0
		state[r] = done
	}
	var chain []int32
	for i := 0; i < n; i++ {
		background.YieldEvery(i)
		if state[i] == done {
			continue
		}
		chain = chain[:0]
		base := int32(0) // trie node of the first resolved ancestor
		for v := int32(i); ; {
			if v < 0 || int(v) >= n || state[v] == walking {
				break // orphan or cycle: treat the chain as hanging off the root
			}
			if state[v] == done {
				base = px.stack[v]
				break
			}
			state[v] = walking
			chain = append(chain, v)
			v = p.NodeParent[v]
		}
		for j := len(chain) - 1; j >= 0; j-- {
			v := chain[j]
			if !px.native[v] {
				base = px.trie.child(base, px.key[v])
			}
			px.stack[v] = base
			state[v] = done
		}
	}
}
