//go:build windowtest

// Package wintest drives the real flamedesk binary in a real window under Xvfb with xdotool, and
// checks what a user would see in screenshots. Run it with `make window-test`.
package wintest

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

const (
	screenW = 1600
	screenH = 1000
)

// lockHeld reports whether an X display's lock file names a live process. A lock left behind by
// a killed server does not count, and Xvfb itself takes over such a lock.
func lockHeld(lock string) bool {
	b, err := os.ReadFile(lock)
	if err != nil {
		return false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return true
	}
	return syscall.Kill(pid, 0) == nil
}

// display is one private Xvfb server.
type display struct {
	name string
	cmd  *exec.Cmd
}

// isolateHome points HOME and the XDG folders at empty scratch folders for this test and every
// process it starts, so that no test reads or writes the user's real settings, cache or recent
// list. A test that wants particular settings sets XDG_CONFIG_HOME again after this.
func isolateHome(t *testing.T) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"} {
		dir := filepath.Join(home, strings.ToLower(strings.TrimSuffix(strings.TrimPrefix(v, "XDG_"), "_HOME")))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		t.Setenv(v, dir)
	}
}

// startXvfb starts an Xvfb on the first free display number and stops it when the test ends. The
// test runs with a scratch HOME (isolateHome).
func startXvfb(t *testing.T) *display {
	t.Helper()
	isolateHome(t)
	for n := 90; n < 140; n++ {
		lock := fmt.Sprintf("/tmp/.X%d-lock", n)
		if lockHeld(lock) {
			continue
		}
		name := fmt.Sprintf(":%d", n)
		// -noreset: without it the server resets when its last client leaves, so the readiness
		// probe below closing its connection made the app's connection fail now and then.
		cmd := exec.Command("Xvfb", name, "-screen", "0", fmt.Sprintf("%dx%dx24", screenW, screenH), "-nolisten", "tcp", "-noreset")
		if err := cmd.Start(); err != nil {
			t.Fatalf("start Xvfb: %v", err)
		}
		// The server is ready when a client can talk to it, not when its socket appears.
		for i := 0; i < 100; i++ {
			probe := exec.Command("xdpyinfo")
			probe.Env = append(os.Environ(), "DISPLAY="+name)
			if probe.Run() == nil {
				d := &display{name: name, cmd: cmd}
				// SIGTERM, so that Xvfb removes its lock file and the display number is free again.
				t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() })
				return d
			}
			time.Sleep(50 * time.Millisecond)
		}
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	t.Fatal("no free X display")
	return nil
}

func (d *display) env() []string {
	return append(os.Environ(), "DISPLAY="+d.name, "XDG_RUNTIME_DIR="+os.TempDir(), "WAYLAND_DISPLAY=")
}

// run runs a command on this display and returns its trimmed output.
func (d *display) run(t *testing.T, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = d.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// xdo runs xdotool.
func (d *display) xdo(t *testing.T, args ...string) string { return d.run(t, "xdotool", args...) }

// app is the flamedesk process under test.
type app struct {
	cmd    *exec.Cmd
	stderr *bytes.Buffer
	exited chan struct{}
	window string
}

func binary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("FLAMEDESK_BIN")
	if bin == "" {
		t.Fatal("FLAMEDESK_BIN is not set; run the window tests with `make window-test`")
	}
	return bin
}

// startApp starts flamedesk with args and waits for a window whose title contains want.
func (d *display) startApp(t *testing.T, want string, args ...string) *app {
	t.Helper()
	a := &app{cmd: exec.Command(binary(t), args...), stderr: new(bytes.Buffer), exited: make(chan struct{})}
	a.cmd.Env = d.env()
	a.cmd.Stderr = a.stderr
	if err := a.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = a.cmd.Wait(); close(a.exited) }()
	t.Cleanup(func() {
		_ = a.cmd.Process.Kill()
		<-a.exited
		if t.Failed() {
			t.Logf("flamedesk stderr:\n%s", a.stderr.String())
		}
	})
	a.window = d.waitWindow(t, a, want, 60*time.Second)
	return a
}

// waitWindow polls for a window whose name contains want.
func (d *display) waitWindow(t *testing.T, a *app, want string, timeout time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if !a.alive() {
			t.Fatalf("flamedesk exited before showing %q: %s", want, a.stderr.String())
		}
		// xdotool's regular expressions do not match the title's em dash, so windows are found by
		// the plain prefix and their full titles compared here.
		cmd := exec.Command("xdotool", "search", "--name", "^flamedesk")
		cmd.Env = d.env()
		if out, err := cmd.Output(); err == nil {
			for _, id := range strings.Fields(string(out)) {
				name := exec.Command("xdotool", "getwindowname", id)
				name.Env = d.env()
				if title, err := name.Output(); err == nil && strings.Contains(string(title), want) {
					return id
				}
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("no window named %q after %v", want, timeout)
	return ""
}

// title returns the current window title.
func (d *display) title(t *testing.T, a *app) string { return d.xdo(t, "getwindowname", a.window) }

func (a *app) alive() bool {
	select {
	case <-a.exited:
		return false
	default:
		return true
	}
}

// screenshot grabs the whole screen, saves it under the test's artifacts folder, and decodes it.
func (d *display) screenshot(t *testing.T, name string) image.Image {
	t.Helper()
	dir := os.Getenv("FLAMEDESK_SHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	path := filepath.Join(dir, name+".png")
	d.run(t, "import", "-window", "root", path)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return img
}

// settle gives the app time to redraw after input.
func settle() { time.Sleep(700 * time.Millisecond) }

// waitDrawn waits until the window has presented a frame with a chart in it: on a fresh X server
// the first frame of a GL window can take a few seconds of shader compilation on llvmpipe.
func (d *display) waitDrawn(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		img := d.screenshot(t, "wait-drawn")
		if sat, _ := colourStats(img, img.Bounds()); sat > 5000 {
			settle()
			return
		}
		time.Sleep(300 * time.Millisecond)
	}
	t.Fatal("the window never drew a chart")
}
