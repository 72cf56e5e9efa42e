package editor

import (
	"slices"
	"testing"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestFor(t *testing.T) {
	for _, c := range []struct {
		name     string
		env      map[string]string
		goos     string
		line     int
		want     []string
		terminal bool
	}{
		{"vim from EDITOR", map[string]string{"EDITOR": "vim"}, "linux", 12, []string{"vim", "+12", "/src/a.ts"}, true},
		{"VISUAL wins over EDITOR", map[string]string{"VISUAL": "gedit", "EDITOR": "vim"}, "linux", 3, []string{"gedit", "+3", "/src/a.ts"}, false},
		{"code with its flags kept", map[string]string{"VISUAL": "code --wait"}, "linux", 7, []string{"code", "--wait", "-g", "/src/a.ts:7"}, false},
		{"sublime", map[string]string{"EDITOR": "/opt/bin/subl"}, "darwin", 9, []string{"/opt/bin/subl", "/src/a.ts:9"}, false},
		{"emacs in a terminal", map[string]string{"EDITOR": "emacs -nw"}, "linux", 2, []string{"emacs", "-nw", "+2", "/src/a.ts"}, true},
		{"emacs with a window", map[string]string{"EDITOR": "emacs"}, "linux", 2, []string{"emacs", "+2", "/src/a.ts"}, false},
		{"no line", map[string]string{"EDITOR": "nano"}, "linux", 0, []string{"nano", "/src/a.ts"}, true},
		{"blank EDITOR falls through", map[string]string{"EDITOR": "  "}, "linux", 4, []string{"xdg-open", "/src/a.ts"}, false},
		{"desktop on linux", nil, "linux", 4, []string{"xdg-open", "/src/a.ts"}, false},
		{"desktop on macOS", nil, "darwin", 4, []string{"open", "/src/a.ts"}, false},
		{"desktop on Windows", nil, "windows", 4, []string{"rundll32", "url.dll,FileProtocolHandler", "/src/a.ts"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := For("/src/a.ts", c.line, env(c.env), c.goos)
			if !slices.Equal(got.Args, c.want) || got.Terminal != c.terminal {
				t.Errorf("got %q terminal=%v, want %q terminal=%v", got.Args, got.Terminal, c.want, c.terminal)
			}
			wantLine := c.line > 0 && (c.env["VISUAL"]+c.env["EDITOR"] != "" && got.Args[0] != "xdg-open")
			if got.Line != wantLine {
				t.Errorf("Line = %v, want %v", got.Line, wantLine)
			}
		})
	}
}
