// Tests of nameSet, the table the lists look each event's name up in.

package timelines

import (
	"testing"

	"flamedesk/core"
)

// A nameSet finds, for every StrID of a trace, what a map from each name's StrID to its position
// (written in order, so the later of two equal names counts) finds: names the trace has, names it
// never used, a repeated name, and StrIDs past the largest name's.
func TestNameSetFindsWhatAMapFinds(t *testing.T) {
	tr := &core.Trace{Strings: core.NewStrings()}
	for _, s := range []string{"a", "ResourceSendRequest", "b", "navigationStart", "c", "CommitLoad", "d", "e"} {
		tr.Strings.Intern(s)
	}
	for _, names := range [][]string{
		{"navigationStart", "never", "CommitLoad", "navigationStart"},
		{"never", "also never"},
		{"e"},
		{},
	} {
		want := map[core.StrID]int{}
		for i, n := range names {
			if id, ok := tr.Strings.Lookup(n); ok {
				want[id] = i
			}
		}
		s := lookupNames(tr, names...)
		if s.empty() != (len(want) == 0) {
			t.Errorf("%q: empty %v with %d names found", names, s.empty(), len(want))
		}
		for id := range core.StrID(tr.Strings.Len() + 3) {
			pos, ok := s.find(id)
			wantPos, wantOK := want[id]
			if pos != wantPos || ok != wantOK {
				t.Errorf("%q: StrID %d found at %d (%v), want %d (%v)", names, id, pos, ok, wantPos, wantOK)
			}
		}
	}
}
