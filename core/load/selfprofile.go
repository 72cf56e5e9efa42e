package load

import (
	"fmt"
	"math"

	"flamedesk/core"
)

// selfProfile collects a JS Self-Profiling API trace (the object Profiler.stop() resolves to):
// frames, resources (script URLs), stacks (a frame plus a parent stack) and samples (a timestamp
// in ms and, unless the thread was idle, a stack). Its members may come in any order, so they are
// gathered first and turned into a profile at the end.
type selfProfile struct {
	seen      bool
	frames    []selfFrame
	resources []core.StrID
	stacks    []selfStack
	samples   []selfSample
	bad       int // members of the wrong type
}

type selfFrame struct {
	name      core.StrID
	resource  int64 // -1 when absent
	line, col float64
	hasLine   bool
	hasCol    bool
	hasName   bool
}

type selfStack struct {
	frame, parent int64 // parent -1 when absent
}

type selfSample struct {
	ts    float64
	stack int64 // -1 when idle (no stackId)
	badTs bool
}

func (sp *selfProfile) readKey(l *loader, key string) error {
	sp.seen = true
	s := l.s
	kind, err := s.valueKind()
	if err != nil {
		return err
	}
	if kind != kindArray {
		sp.bad++
		return s.skip()
	}
	empty, err := s.arrayStart()
	if err != nil {
		return err
	}
	for more := !empty; more; {
		switch key {
		case "resources":
			var id core.StrID
			if kind, err := s.valueKind(); err != nil {
				return err
			} else if kind == kindString {
				v, err := s.str0()
				if err != nil {
					return err
				}
				id = l.internBytes(v)
			} else {
				sp.bad++
				if err := s.skip(); err != nil {
					return err
				}
			}
			sp.resources = push(l.mem, sp.resources, id)
		case "frames":
			f := selfFrame{resource: -1}
			err := l.eachMember(&sp.bad, func(k []byte) error {
				switch string(k) {
				case "name":
					if kind, err := s.valueKind(); err != nil {
						return err
					} else if kind == kindString {
						v, err := s.str0()
						if err != nil {
							return err
						}
						f.name, f.hasName = l.internBytes(v), true
						return nil
					}
					sp.bad++
					return s.skip()
				case "resourceId":
					v, ok, err := s.integer()
					if ok {
						f.resource = v
					}
					return err
				case "line", "column":
					isLine := k[0] == 'l'
					v, ok, err := s.number()
					if isLine {
						f.line, f.hasLine = v, ok
					} else {
						f.col, f.hasCol = v, ok
					}
					return err
				}
				return s.skip()
			})
			if err != nil {
				return err
			}
			sp.frames = push(l.mem, sp.frames, f)
		case "stacks":
			st := selfStack{frame: -1, parent: -1}
			err := l.eachMember(&sp.bad, func(k []byte) error {
				switch string(k) {
				case "frameId":
					v, ok, err := s.integer()
					if ok {
						st.frame = v
					}
					return err
				case "parentId":
					v, ok, err := s.integer()
					if ok {
						st.parent = v
					}
					return err
				}
				return s.skip()
			})
			if err != nil {
				return err
			}
			sp.stacks = push(l.mem, sp.stacks, st)
		}
		more, err = s.arrayNext()
		if err != nil {
			return err
		}
	}
	return nil
}

// readSamples reads the "samples" member: objects with a timestamp and, unless idle, a stackId.
func (sp *selfProfile) readSamples(l *loader) error {
	sp.seen = true
	s := l.s
	empty, err := s.arrayStart()
	if err != nil {
		return err
	}
	for more := !empty; more; {
		smp := selfSample{stack: -1, badTs: true}
		err := l.eachMember(&sp.bad, func(k []byte) error {
			switch string(k) {
			case "timestamp":
				v, ok, err := s.number()
				smp.ts, smp.badTs = v, !ok
				return err
			case "stackId":
				kind, err := s.valueKind()
				if err != nil {
					return err
				}
				if kind == kindLiteral { // null: idle
					return s.skip()
				}
				v, ok, err := s.integer()
				if ok {
					smp.stack = v
				} else {
					smp.stack = math.MinInt64
				}
				return err
			}
			return s.skip()
		})
		if err != nil {
			return err
		}
		sp.samples = push(l.mem, sp.samples, smp)
		l.mem.charge(selfSampleAhead)
		more, err = s.arrayNext()
		if err != nil {
			return err
		}
	}
	return nil
}

// selfSampleAhead is what a sample will cost once it is a profile (its node id and time in the
// chunk arenas, their copies in the assembled profile, its model index and timestamp), charged as
// it is read: a sample bomb then stops after a fraction of the parsing.
const selfSampleAhead = 8 + 8 + 8 + 8 + 4 + 8

// eachMember calls fn for each member of the object that comes next; a value that is not an
// object is skipped and counted in bad.
func (l *loader) eachMember(bad *int, fn func(k []byte) error) error {
	s := l.s
	kind, err := s.valueKind()
	if err != nil {
		return err
	}
	if kind != kindObject {
		*bad++
		return s.skip()
	}
	empty, err := s.objectStart()
	if err != nil {
		return err
	}
	for more := !empty; more; {
		k, err := s.key()
		if err != nil {
			return err
		}
		if err := fn(k); err != nil {
			return err
		}
		more, err = s.objectNext()
		if err != nil {
			return err
		}
	}
	return nil
}

// Node ids of the profile made from a self-profile: the root is 0, stack i is node i+1, and idle
// samples go to an "(idle)" node after the last stack, so that the model finds it like V8's.
const selfRootID = 0

// finish turns the self-profile into one CPU profile on pid 1, tid 1: a node per stack (its
// parent is the parent stack's node, or the root), samples in ms turned into µs.
func (sp *selfProfile) finish(l *loader) error {
	if len(sp.frames) == 0 && len(sp.stacks) == 0 && len(sp.samples) == 0 {
		return fmt.Errorf("%w: the self-profile has no frames, stacks or samples", errNotProfile)
	}
	l.tr.Kind = core.InputSelfProfile
	l.mem.release(int64(len(sp.samples)) * selfSampleAhead) // charged again as it happens
	c := l.ch
	l.beginPending()
	zero := l.strs.Intern("0")
	addNode := func(id, parent int64, cf core.CallFrame) {
		c.NodeID = push(l.mem, c.NodeID, id)
		c.NodeParent = push(l.mem, c.NodeParent, parent)
		flags := uint8(core.NodeHasCallFrame)
		if parent != core.NoNode {
			flags |= core.NodeHasParent
		}
		c.NodeFlags = push(l.mem, c.NodeFlags, flags)
		c.NodeFrame = push(l.mem, c.NodeFrame, l.internFrame(cf))
	}
	addNode(selfRootID, core.NoNode, core.CallFrame{FunctionName: l.strs.Intern("(root)"), ScriptID: zero, Line: -1, Column: -1})

	badStacks, badFrames := 0, 0
	n := int64(len(sp.stacks))
	for i, st := range sp.stacks {
		parent := int64(selfRootID)
		if st.parent >= 0 {
			if st.parent < n {
				parent = st.parent + 1
			} else {
				parent = -1 // no node has this id: dropped like a DevTools orphan
				badStacks++
			}
		}
		cf := core.CallFrame{FunctionName: l.strs.Intern("(unknown)"), ScriptID: zero, Line: -1, Column: -1}
		if st.frame >= 0 && st.frame < int64(len(sp.frames)) {
			f := sp.frames[st.frame]
			cf.FunctionName = f.name
			if f.resource >= 0 && f.resource < int64(len(sp.resources)) {
				cf.URL = sp.resources[f.resource]
			}
			// The API counts lines and columns from 1; call frames count from 0.
			if f.hasLine {
				cf.Line = clampInt32(f.line - 1)
			}
			if f.hasCol {
				cf.Column = clampInt32(f.col - 1)
			}
		} else {
			badFrames++
		}
		addNode(int64(i)+1, parent, cf)
	}
	idleID := n + 1
	hasIdle := false
	badSamples, badTs := 0, 0
	var ids []int64 // the samples' node ids, narrowed into c.SampleIDs once all are read
	for _, smp := range sp.samples {
		if smp.badTs {
			badTs++
			continue
		}
		id := smp.stack + 1
		switch {
		case smp.stack == -1:
			id, hasIdle = idleID, true
		case smp.stack < 0 || smp.stack >= n:
			id = core.NoNode
			badSamples++
		}
		ids = push(l.mem, ids, id)
		c.Stamps = push(l.mem, c.Stamps, smp.ts*1000)
	}
	if hasIdle {
		addNode(idleID, selfRootID, core.CallFrame{FunctionName: l.strs.Intern("(idle)"), ScriptID: zero, Line: -1, Column: -1})
	}
	p := &l.pend
	var err error
	if p.samples, err = narrowInto(l, &c.SampleIDs, ids, core.NarrowInt); err != nil {
		return err
	}
	l.mem.release(int64(cap(ids)) * 8)
	p.ts = core.Span{Off: uint32(p.mark.stamps), Len: uint32(len(c.Stamps) - p.mark.stamps)}
	p.hasSamples, p.hasTS = true, true
	if p.samples.Len > 0 {
		p.profStart = c.Stamps[p.ts.Off]
	}
	l.nEvents = 1
	l.thread(1, 1)
	l.commitChunk(core.ChunkWhole, 'X', 1, 1, l.strs.Intern("0x1"), true, p.profStart)

	w := &l.tr.Warnings
	w.Add("self-profile stacks whose parentId is unknown (dropped)", badStacks)
	w.Add("self-profile stacks whose frameId is unknown (shown as \"(unknown)\")", badFrames)
	w.Add("self-profile samples whose stackId is unknown (shown as gaps)", badSamples)
	w.Add("self-profile samples without a numeric timestamp (skipped)", badTs)
	w.Add("self-profile members of the wrong type (ignored)", sp.bad)
	return nil
}

// frameOverhead is what a call frame costs in Frames and the frame map.
const frameOverhead = 96

// internFrame interns a ready call frame.
func (l *loader) internFrame(cf core.CallFrame) core.FrameID {
	if id, ok := l.frames[cf]; ok {
		return id
	}
	id := core.FrameID(len(l.tr.Frames))
	l.mem.charge(frameOverhead)
	l.tr.Frames = append(l.tr.Frames, cf)
	l.frames[cf] = id
	return id
}
