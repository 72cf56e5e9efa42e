package app

import "testing"

func TestMesaSoftware(t *testing.T) {
	gpu := func() []string { return []string{"/dev/dri/renderD128"} }
	none := func() []string { return nil }
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	for _, c := range []struct {
		name  string
		goos  string
		vars  map[string]string
		nodes func() []string
		want  bool
	}{
		{"linux with a GPU", "linux", nil, gpu, false},
		{"linux without a render node", "linux", nil, none, true},
		{"freebsd without a render node", "freebsd", nil, none, true},
		{"software forced", "linux", map[string]string{"LIBGL_ALWAYS_SOFTWARE": "1"}, gpu, true},
		{"software forced, spelled true", "linux", map[string]string{"LIBGL_ALWAYS_SOFTWARE": "TRUE"}, gpu, true},
		{"software not forced", "linux", map[string]string{"LIBGL_ALWAYS_SOFTWARE": "0"}, gpu, false},
		{"llvmpipe chosen", "linux", map[string]string{"GALLIUM_DRIVER": "llvmpipe"}, gpu, true},
		{"softpipe chosen", "linux", map[string]string{"GALLIUM_DRIVER": "softpipe"}, gpu, true},
		{"a GPU driver chosen", "linux", map[string]string{"GALLIUM_DRIVER": "radeonsi"}, gpu, false},
		{"windows", "windows", map[string]string{"LIBGL_ALWAYS_SOFTWARE": "1"}, none, false},
		{"macos", "darwin", nil, none, false},
	} {
		if got := mesaSoftware(c.goos, env(c.vars), c.nodes); got != c.want {
			t.Errorf("%s: mesaSoftware = %v, want %v", c.name, got, c.want)
		}
	}
}
