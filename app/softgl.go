// Whether the window is likely drawn by a software GL (Mesa's llvmpipe), where background work
// waits while a frame renders (background.Pause).

package app

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// softwareGL guesses once whether frames are rendered on the CPU. Only there does a frame's
// rendering compete with background work for the cores' caches; with a GPU, rendering a frame is
// mostly waiting for the display's refresh (Gio turns vsync on), and pausing a load through that
// wait would only slow it. Mesa renders in software when told to, or when the machine has no GPU
// render node for it to use; elsewhere (Windows' Direct3D, macOS' Metal, Mesa with a GPU) the
// guess is no. A GPU machine whose X server cannot use it (Xvfb) is guessed wrong, and keeps the
// behaviour of before: no pause.
func softwareGL() bool {
	return mesaSoftware(runtime.GOOS, os.Getenv, func() []string {
		nodes, _ := filepath.Glob("/dev/dri/renderD*")
		return nodes
	})
}

// mesaSoftware is softwareGL on goos, with the environment and the GPU render nodes given.
func mesaSoftware(goos string, getenv func(string) string, renderNodes func() []string) bool {
	if !slices.Contains([]string{"linux", "freebsd", "openbsd", "netbsd", "dragonfly"}, goos) {
		return false
	}
	switch strings.ToLower(getenv("LIBGL_ALWAYS_SOFTWARE")) {
	case "1", "true", "yes":
		return true
	}
	switch strings.ToLower(getenv("GALLIUM_DRIVER")) {
	case "llvmpipe", "softpipe", "swr":
		return true
	}
	return len(renderNodes()) == 0
}
