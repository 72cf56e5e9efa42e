package sourcemap

import "strings"

// nameInSource reads the name of a function declared at a 0-based line and column of an original
// source (the map's sourcesContent, else the file on disk): "function NAME", "async function
// NAME" or "function* NAME". It returns "" for anything else, or when the text is not at hand.
func (s *Set) nameInSource(m *Map, source string, line, col int) string {
	if line < 0 || col < 0 {
		return ""
	}
	text := s.originalText(m, source)
	if text == "" {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if m.lineStarts == nil {
		m.lineStarts = map[string][]int{}
	}
	starts, ok := m.lineStarts[source]
	if !ok {
		starts = []int{0}
		for i := 0; i < len(text); i++ {
			if text[i] == '\n' {
				starts = append(starts, i+1)
			}
		}
		m.lineStarts[source] = starts
	}
	if line >= len(starts) {
		return ""
	}
	at := starts[line] + col
	if at >= len(text) {
		return ""
	}
	return declaredName(text[at:])
}

// originalText is the text of one of a map's sources, "" when it is not at hand; it is read once.
func (s *Set) originalText(m *Map, raw string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t, ok := m.texts[raw]; ok {
		return t
	}
	text := sourceContent(m, raw)
	if text == "" {
		if p, ok := s.sourcePath(m, raw, cleanSource(raw)); ok {
			if b, err := readSmall(p); err == nil {
				text = string(b)
			}
		}
	}
	if m.texts == nil {
		m.texts = map[string]string{}
	}
	m.texts[raw] = text
	return text
}

// declaredName returns NAME when s starts with a function declaration's head.
func declaredName(s string) string {
	s = strings.TrimPrefix(s, "async ")
	s = strings.TrimLeft(s, " \t")
	if !strings.HasPrefix(s, "function") || len(s) == len("function") || isIdentByte(s[len("function")], false) {
		return ""
	}
	s = strings.TrimLeft(s[len("function"):], " \t")
	s = strings.TrimLeft(strings.TrimPrefix(s, "*"), " \t")
	n := 0
	for n < len(s) && isIdentByte(s[n], n == 0) {
		n++
	}
	return s[:n]
}

func isIdentByte(c byte, first bool) bool {
	switch {
	case c == '_' || c == '$' || c >= 0x80:
		return true
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		return true
	case c >= '0' && c <= '9':
		return !first
	}
	return false
}
