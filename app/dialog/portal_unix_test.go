//go:build (linux && !android) || freebsd || openbsd

package dialog

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"flamedesk/internal/fixtures"
)

// privateBus starts a dbus-daemon of its own for the test, with no service activation, and points
// DBUS_SESSION_BUS_ADDRESS at it.
func privateBus(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		t.Skip("dbus-daemon is not installed")
	}
	dir := t.TempDir()
	socket := filepath.Join(dir, "bus")
	config := `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=` + socket + `</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`
	confPath := filepath.Join(dir, "bus.conf")
	if err := os.WriteFile(confPath, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	// The daemon prints its address once it accepts connections; the socket file alone appears
	// before that (between bind and listen), and a connection then is refused.
	cmd := exec.Command("dbus-daemon", "--nofork", "--nopidfile", "--print-address", "--config-file="+confPath)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	ready := make(chan error, 1)
	go func() {
		_, err := bufio.NewReader(stdout).ReadString('\n')
		ready <- err
	}()
	select {
	case err := <-ready:
		if err != nil {
			t.Fatalf("dbus-daemon did not start: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("dbus-daemon printed no address")
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+socket)
}

// fakePortal answers FileChooser.OpenFile the way xdg-desktop-portal does: it returns the request
// handle and sends the Response signal on it.
type fakePortal struct {
	conn   *dbus.Conn
	status uint32   // the response status; answer==false sends none
	uris   []string // the "uris" result
	answer bool
	fail   *dbus.Error // returned instead of a handle when set

	mu      sync.Mutex
	parent  string
	title   string
	options map[string]dbus.Variant
	closed  chan dbus.ObjectPath
}

func (p *fakePortal) OpenFile(sender dbus.Sender, parent, title string, options map[string]dbus.Variant) (dbus.ObjectPath, *dbus.Error) {
	p.mu.Lock()
	p.parent, p.title, p.options = parent, title, options
	status, uris := p.status, p.uris
	p.mu.Unlock()
	if p.fail != nil {
		return "", p.fail
	}
	token, _ := options["handle_token"].Value().(string)
	handle := dbus.ObjectPath("/org/freedesktop/portal/desktop/request/" +
		strings.ReplaceAll(strings.TrimPrefix(string(sender), ":"), ".", "_") + "/" + token)
	p.conn.Export(&fakeRequest{path: handle, closed: p.closed}, handle, "org.freedesktop.portal.Request")
	if p.answer {
		// Answer before the method returns: a caller that subscribes late never hears it.
		p.conn.Emit(handle, "org.freedesktop.portal.Request.Response", status,
			map[string]dbus.Variant{"uris": dbus.MakeVariant(uris)})
	}
	return handle, nil
}

func (p *fakePortal) set(status uint32, uris []string) {
	p.mu.Lock()
	p.status, p.uris = status, uris
	p.mu.Unlock()
}

type fakeRequest struct {
	path   dbus.ObjectPath
	closed chan dbus.ObjectPath
}

func (r *fakeRequest) Close() *dbus.Error {
	r.closed <- r.path
	return nil
}

func startFakePortal(t *testing.T, p *fakePortal) *fakePortal {
	t.Helper()
	conn, err := dbus.SessionBusPrivateNoAutoStartup()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := conn.Auth(nil); err != nil {
		t.Fatal(err)
	}
	if err := conn.Hello(); err != nil {
		t.Fatal(err)
	}
	p.conn = conn
	p.closed = make(chan dbus.ObjectPath, 1)
	if err := conn.Export(p, portalObject, "org.freedesktop.portal.FileChooser"); err != nil {
		t.Fatal(err)
	}
	if reply, err := conn.RequestName(portalService, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("cannot own %s: %v %v", portalService, reply, err)
	}
	return p
}

func TestPortalReturnsTheChosenFile(t *testing.T) {
	privateBus(t)
	fixture := fixtures.Path(t, "fixtures", "generated", "gen-trace-small.json.gz")
	// Portals escape spaces but leave '+' alone; make a name with both.
	dir := t.TempDir()
	chosen := filepath.Join(dir, "a+b c.json.gz")
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(chosen, data, 0o644); err != nil {
		t.Fatal(err)
	}
	uri := "file://" + strings.ReplaceAll(chosen, " ", "%20")
	p := startFakePortal(t, &fakePortal{answer: true, status: 0, uris: []string{uri}})
	t.Setenv(EnvBackend, "portal")

	got, err := Open(context.Background(), Options{Title: "Open it", ParentX11: 0x2a00007, Dir: dir})
	if err != nil || got != chosen {
		t.Fatalf("Open = %q, %v; want %q", got, err, chosen)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.parent != "x11:2a00007" || p.title != "Open it" {
		t.Errorf("portal got parent %q and title %q", p.parent, p.title)
	}
	var filters []portalFilter
	if err := dbus.Store([]any{p.options["filters"].Value()}, &filters); err != nil {
		t.Fatalf("filters %v: %v", p.options["filters"], err)
	}
	if len(filters) != 2 || filters[0].Name != "Traces and profiles" || len(filters[0].Rules) != 5 ||
		filters[0].Rules[1] != (portalRule{0, "*.json.gz"}) || filters[1].Rules[0] != (portalRule{0, "*"}) {
		t.Errorf("portal got filters %+v", filters)
	}
	if sig := dbus.SignatureOf(portalFilters(TraceFilters)).String(); sig != "a(sa(us))" {
		t.Errorf("filters have D-Bus signature %s, want a(sa(us))", sig)
	}
	if folder, _ := p.options["current_folder"].Value().([]byte); string(folder) != dir+"\x00" {
		t.Errorf("current_folder = %q, want %q with a NUL", folder, dir)
	}
	if modal, _ := p.options["modal"].Value().(bool); !modal {
		t.Errorf("the dialog should be modal")
	}
}

func TestPortalCancelAndEndedRequests(t *testing.T) {
	privateBus(t)
	p := startFakePortal(t, &fakePortal{answer: true, status: 1})
	t.Setenv(EnvBackend, "portal")
	if _, err := Open(context.Background(), Options{}); !errors.Is(err, ErrCancelled) {
		t.Errorf("status 1: Open = %v, want ErrCancelled", err)
	}
	// GTK's portal answers 2 when the dialog is closed with Escape.
	p.set(2, nil)
	if _, err := Open(context.Background(), Options{}); !errors.Is(err, ErrCancelled) {
		t.Errorf("status 2: Open = %v, want ErrCancelled", err)
	}
	p.set(7, nil)
	if _, err := Open(context.Background(), Options{}); err == nil || errors.Is(err, ErrCancelled) {
		t.Errorf("status 7: Open = %v, want a failure other than cancel", err)
	}
	p.set(0, nil)
	if _, err := Open(context.Background(), Options{}); err == nil {
		t.Errorf("success without uris: Open succeeded")
	}
	p.set(0, []string{"https://example.org/x.json"})
	if _, err := Open(context.Background(), Options{}); err == nil {
		t.Errorf("a non-file URI: Open succeeded")
	}
}

func TestPortalCancelledContextClosesTheRequest(t *testing.T) {
	privateBus(t)
	p := startFakePortal(t, &fakePortal{answer: false})
	t.Setenv(EnvBackend, "portal")
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := Open(ctx, Options{})
		errc <- err
	}()
	// Wait until the portal holds the request, then give up on it.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		p.mu.Lock()
		asked := p.options != nil
		p.mu.Unlock()
		if asked {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the portal was never asked")
		}
	}
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("Open = %v, want context.Canceled", err)
	}
	select {
	case path := <-p.closed:
		if !strings.HasPrefix(string(path), "/org/freedesktop/portal/desktop/request/") {
			t.Errorf("closed %s", path)
		}
	case <-time.After(5 * time.Second):
		t.Errorf("the portal request was not closed")
	}
}

// With no portal on the bus, Open moves on to the next chooser on PATH.
func TestNoPortalFallsBackToZenity(t *testing.T) {
	privateBus(t)
	fixture := fixtures.Path(t, "fixtures", "upstream", "devtools-basic.cpuprofile.gz")
	fakeChooser(t, "zenity", fixture+"\n", 0)
	t.Setenv(EnvBackend, "")
	chain, err := Backends()
	if err != nil || !slices.Equal(chain[:2], []Backend{Portal, Zenity}) {
		t.Fatalf("Backends = %v, %v; want portal then zenity first", chain, err)
	}
	got, err := Open(context.Background(), Options{})
	if err != nil || got != fixture {
		t.Fatalf("Open = %q, %v; want zenity's %q", got, err, fixture)
	}
}

// A portal that refuses the call (no FileChooser backend) hands over too.
func TestPortalErrorFallsBackToZenity(t *testing.T) {
	privateBus(t)
	startFakePortal(t, &fakePortal{fail: &dbus.Error{Name: "org.freedesktop.DBus.Error.UnknownMethod", Body: []any{"no FileChooser"}}})
	fixture := fixtures.Path(t, "fixtures", "generated", "gen-selfprofile-small.json")
	fakeChooser(t, "zenity", fixture+"\n", 0)
	t.Setenv(EnvBackend, "")
	got, err := Open(context.Background(), Options{})
	if err != nil || got != fixture {
		t.Fatalf("Open = %q, %v; want zenity's %q", got, err, fixture)
	}
}

func TestPortalWithoutSessionBus(t *testing.T) {
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	if _, err := openPortal(context.Background(), Options{}); err == nil {
		t.Fatal("openPortal without a session bus succeeded")
	}
}

func TestPortalResultRejectsMalformedBodies(t *testing.T) {
	for _, body := range [][]any{
		nil,
		{uint32(0)},
		{"0", map[string]dbus.Variant{}},
		{uint32(0), "uris"},
		{uint32(0), map[string]dbus.Variant{"uris": dbus.MakeVariant("file:///x")}},
	} {
		if got, err := portalResult(body); err == nil {
			t.Errorf("portalResult(%v) = %q, want an error", body, got)
		}
	}
}

func TestPortalFolderMode(t *testing.T) {
	privateBus(t)
	folder := t.TempDir()
	p := startFakePortal(t, &fakePortal{answer: true, status: 0, uris: []string{"file://" + folder}})
	t.Setenv(EnvBackend, "portal")
	got, err := Open(context.Background(), Options{Folder: true})
	if err != nil || got != folder {
		t.Fatalf("Open(folder) = %q, %v; want %q", got, err, folder)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if dir, ok := p.options["directory"].Value().(bool); !ok || !dir {
		t.Errorf("portal options %v: want directory=true", p.options)
	}
	if _, ok := p.options["filters"]; ok {
		t.Errorf("a folder chooser got file filters %v", p.options["filters"])
	}
	if p.title != "Choose a folder" {
		t.Errorf("portal got title %q", p.title)
	}
	p.options = nil
	p.mu.Unlock()
	if _, err := Open(context.Background(), Options{}); err != nil {
		t.Fatal(err)
	}
	p.mu.Lock()
	if _, ok := p.options["directory"]; ok {
		t.Errorf("a file chooser asked for directory: %v", p.options["directory"])
	}
}
