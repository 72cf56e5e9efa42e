package calltree

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// invertedFocus is the command-line spelling of FocusSubtree with Inverted set.
const invertedFocus = "focus-subtree-inverted"

// ParseSpec reads a transform in its command-line form "KIND:ARG" and resolves the names in ARG
// against the current top of s, where the transform will be pushed:
//
//   - a PATH (focus-subtree, merge-call-node, prune) is function names joined by "/" from a root;
//     where siblings share a name, the heaviest one is taken; for focus-subtree-inverted it is a
//     path of the bottom-up tree, from the function on top of the stack down to a caller;
//   - a function (focus-function, merge-function, drop-function, collapse-recursion) is NAME,
//     NAME@URL or NAME@URL:LINE:COLUMN (1-based); when several functions of the tree match, merge,
//     drop and collapse apply to each of them, and focus-function asks for a narrower name;
//   - a URL (collapse-resource) is a script URL exactly as in the profile.
//
// "(anonymous)" matches functions without a name.
func ParseSpec(spec string, s *Stack) ([]Transform, error) {
	kindStr, arg, ok := strings.Cut(spec, ":")
	if !ok || arg == "" {
		return nil, fmt.Errorf("transform %q: want KIND:ARG", spec)
	}
	kind, ok := ParseKind(kindStr)
	inverted := kindStr == invertedFocus
	if inverted {
		kind, ok = FocusSubtree, true
	}
	if !ok {
		return nil, fmt.Errorf("transform %q: unknown kind %q (want one of %s, %s)", spec, kindStr, strings.Join(kindNames[:], ", "), invertedFocus)
	}
	tree := s.Tree(View{Inverted: inverted})
	f := tree.Functions()
	switch {
	case kind.takesPath():
		p, err := resolvePath(tree, arg)
		if err != nil {
			return nil, fmt.Errorf("transform %q: %w", spec, err)
		}
		return []Transform{{Kind: kind, Path: p, Inverted: inverted}}, nil
	case kind == CollapseResource:
		id, ok := f.strings.Lookup(arg)
		res, ok2 := f.ResourceByURL(id)
		if !ok || !ok2 || !slices.ContainsFunc(treeFuncs(tree), func(fn FuncID) bool { return f.url[fn] == id }) {
			return nil, fmt.Errorf("transform %q: no function of the tree has the URL %q", spec, arg)
		}
		return []Transform{{Kind: kind, Func: res}}, nil
	}
	fns, err := resolveFunc(tree, arg)
	if err != nil {
		return nil, fmt.Errorf("transform %q: %w", spec, err)
	}
	if kind == FocusFunction && len(fns) > 1 {
		var names []string
		for _, fn := range fns {
			names = append(names, qualifiedName(f, fn))
		}
		return nil, fmt.Errorf("transform %q: %d functions match, name one of: %s", spec, len(fns), strings.Join(names, ", "))
	}
	out := make([]Transform, len(fns))
	for i, fn := range fns {
		out[i] = Transform{Kind: kind, Func: fn}
	}
	return out, nil
}

// displayName is the name a user types for fn.
func displayName(f *Functions, fn FuncID) string {
	if n := f.Name(fn); n != "" {
		return n
	}
	return "(anonymous)"
}

// qualifiedName is NAME@URL:LINE:COLUMN, the most precise form resolveFunc accepts.
func qualifiedName(f *Functions, fn FuncID) string {
	s := displayName(f, fn)
	if u := f.URL(fn); u != "" {
		s += "@" + u
		if f.Line(fn) >= 0 && f.Column(fn) >= 0 {
			s += fmt.Sprintf(":%d:%d", f.Line(fn)+1, f.Column(fn)+1)
		}
	}
	return s
}

func resolvePath(tree *Tree, arg string) (Path, error) {
	f := tree.Functions()
	var p Path
	n := NoNode
	for seg := range strings.SplitSeq(arg, "/") {
		next := NoNode
		for _, c := range tree.Children(n) {
			if displayName(f, tree.Func(c)) == seg {
				next = c
				break
			}
		}
		if next == NoNode {
			where := "at the root"
			if n != NoNode {
				where = "below " + f.PathString(p)
			}
			return nil, fmt.Errorf("no function %q %s", seg, where)
		}
		n = next
		p = append(p, tree.Func(n))
	}
	return p, nil
}

// treeFuncs lists the distinct functions of the tree's nodes.
func treeFuncs(tree *Tree) []FuncID {
	seen := make([]bool, tree.Functions().Len())
	var out []FuncID
	for _, fn := range tree.calls.fn {
		if !seen[fn] {
			seen[fn] = true
			out = append(out, fn)
		}
	}
	slices.Sort(out)
	return out
}

func resolveFunc(tree *Tree, arg string) ([]FuncID, error) {
	f := tree.Functions()
	name, where, qualified := strings.Cut(arg, "@")
	url, line, col := where, int32(-1), int32(-1)
	// A URL may itself hold colons (a scheme, a port), so only a trailing ":LINE:COLUMN" of
	// numbers is taken as a position.
	if i := strings.LastIndexByte(where, ':'); i > 0 {
		if j := strings.LastIndexByte(where[:i], ':'); j > 0 {
			l, err1 := strconv.Atoi(where[j+1 : i])
			c, err2 := strconv.Atoi(where[i+1:])
			if err1 == nil && err2 == nil && l > 0 && c > 0 {
				url, line, col = where[:j], int32(l-1), int32(c-1)
			}
		}
	}
	var out []FuncID
	for _, fn := range treeFuncs(tree) {
		if displayName(f, fn) != name {
			continue
		}
		if qualified && (f.URL(fn) != url || (line >= 0 && (f.Line(fn) != line || f.Column(fn) != col))) {
			continue
		}
		out = append(out, fn)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no function %q in the tree", arg)
	}
	return out, nil
}
