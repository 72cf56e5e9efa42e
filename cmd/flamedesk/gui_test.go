package main

import (
	"bytes"
	"strings"
	"testing"
)

// The window takes one file, or two to compare; what it cannot open is refused before any
// window appears.
func TestGUIArguments(t *testing.T) {
	a, b := diffFile("trace-a.json.gz"), diffFile("trace-slow.json.gz")
	for _, c := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{a, b, a}, exitUsage, "too many arguments"},
		{[]string{"--align", "sideways", a, b}, exitUsage, "--align"},
		{[]string{a, b + ".missing"}, exitInput, ".missing"},
	} {
		var stderr bytes.Buffer
		if code := runGUI(c.args, &stderr); code != c.code || !strings.Contains(stderr.String(), c.says) {
			t.Errorf("%q: exit %d, %q; want %d and %q", c.args, code, stderr.String(), c.code, c.says)
		}
	}
}
