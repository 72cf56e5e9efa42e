//go:build (linux && !android) || freebsd || openbsd

package dialog

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/godbus/dbus/v5"
)

// The portal is driven with godbus directly rather than through github.com/rymdport/portal: that
// library decodes the returned URIs with url.QueryUnescape (so "a+b.json" comes back as
// "a b.json"), listens for the answer only after the request was sent, and cannot be cancelled.

const (
	portalService    = "org.freedesktop.portal.Desktop"
	portalObject     = dbus.ObjectPath("/org/freedesktop/portal/desktop")
	portalOpenFile   = "org.freedesktop.portal.FileChooser.OpenFile"
	requestInterface = "org.freedesktop.portal.Request"
	requestResponse  = requestInterface + ".Response"
	requestClose     = requestInterface + ".Close"
)

// Response codes of org.freedesktop.portal.Request.Response.
const (
	portalSuccess   = 0
	portalCancelled = 1
	portalEnded     = 2 // "the user interaction was ended in some other way"
)

var portalTokens atomic.Uint64

// portalRule and portalFilter have the D-Bus signature a(sa(us)) of the FileChooser's filters.
type portalRule struct {
	Kind    uint32 // 0: glob pattern, 1: MIME type
	Pattern string
}

type portalFilter struct {
	Name  string
	Rules []portalRule
}

func openPortal(ctx context.Context, opts Options) (string, error) {
	// Never autolaunch a session bus: a desktop without one has no portal either.
	conn, err := dbus.SessionBusPrivateNoAutoStartup()
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if err := conn.Auth(nil); err != nil {
		return "", err
	}
	if err := conn.Hello(); err != nil {
		return "", err
	}

	// Subscribe before asking, at the request path the portal will use for our token, so a
	// response that comes back at once cannot be missed.
	token := "flamedesk" + strconv.Itoa(os.Getpid()) + "_" + strconv.FormatUint(portalTokens.Add(1), 10)
	names := conn.Names()
	if len(names) == 0 {
		return "", errors.New("session bus gave us no unique name")
	}
	expected := requestPath(names[0], token)
	signals := make(chan *dbus.Signal, 8)
	conn.Signal(signals)
	if err := conn.AddMatchSignalContext(ctx, dbus.WithMatchInterface(requestInterface),
		dbus.WithMatchMember("Response"), dbus.WithMatchObjectPath(expected)); err != nil {
		return "", err
	}

	options := map[string]dbus.Variant{
		"handle_token": dbus.MakeVariant(token),
		"modal":        dbus.MakeVariant(true),
		"multiple":     dbus.MakeVariant(false),
	}
	if opts.Folder {
		// The portal's "directory" option (version 3) makes OpenFile choose folders.
		options["directory"] = dbus.MakeVariant(true)
	}
	if filters := portalFilters(opts.Filters); len(filters) > 0 {
		options["filters"] = dbus.MakeVariant(filters)
		options["current_filter"] = dbus.MakeVariant(filters[0])
	}
	if opts.Dir != "" {
		// current_folder is a byte string with its terminating NUL.
		options["current_folder"] = dbus.MakeVariant(append([]byte(opts.Dir), 0))
	}
	var handle dbus.ObjectPath
	call := conn.Object(portalService, portalObject).CallWithContext(ctx, portalOpenFile, 0,
		portalParent(opts.ParentX11), opts.Title, options)
	if call.Err != nil {
		if ctx.Err() != nil {
			// Given up on while the portal was creating the request: it may already be on
			// screen, at the path our token names.
			conn.Object(portalService, expected).Call(requestClose, 0)
			return "", ctx.Err()
		}
		return "", fmt.Errorf("FileChooser.OpenFile: %w", call.Err)
	}
	if err := call.Store(&handle); err != nil {
		return "", err
	}
	if handle != expected {
		// Portals older than version 0.9 choose their own path; follow it.
		if err := conn.AddMatchSignalContext(ctx, dbus.WithMatchInterface(requestInterface),
			dbus.WithMatchMember("Response"), dbus.WithMatchObjectPath(handle)); err != nil {
			return "", err
		}
	}

	for {
		select {
		case <-ctx.Done():
			// Take the dialog down with us; the portal would otherwise leave it on screen.
			conn.Object(portalService, handle).Call(requestClose, 0)
			return "", ctx.Err()
		case sig, ok := <-signals:
			if !ok {
				return "", errors.New("session bus connection closed before the portal answered")
			}
			if sig.Name != requestResponse || sig.Path != handle {
				continue
			}
			return portalResult(sig.Body)
		}
	}
}

// requestPath is where the portal puts the Request object for a caller's unique bus name and
// handle token: /org/freedesktop/portal/desktop/request/SENDER/TOKEN, SENDER without its ':' and
// with '.' turned into '_'.
func requestPath(uniqueName, token string) dbus.ObjectPath {
	sender := strings.ReplaceAll(strings.TrimPrefix(uniqueName, ":"), ".", "_")
	return portalObject + "/request/" + dbus.ObjectPath(sender) + "/" + dbus.ObjectPath(token)
}

// portalParent is the portal's parent_window string: "x11:" and the window id in hex.
func portalParent(xid uint64) string {
	if xid == 0 {
		return ""
	}
	return "x11:" + strconv.FormatUint(xid, 16)
}

func portalFilters(filters []Filter) []portalFilter {
	out := make([]portalFilter, 0, len(filters))
	for _, f := range filters {
		pf := portalFilter{Name: f.Name}
		for _, p := range f.Patterns {
			pf.Rules = append(pf.Rules, portalRule{Kind: 0, Pattern: p})
		}
		out = append(out, pf)
	}
	return out
}

// portalResult reads the body of a Response signal: a status and a dictionary whose "uris" holds
// the chosen files.
func portalResult(body []any) (string, error) {
	if len(body) != 2 {
		return "", fmt.Errorf("portal response has %d values, want 2", len(body))
	}
	status, ok := body[0].(uint32)
	if !ok {
		return "", fmt.Errorf("portal response status is %T, want uint32", body[0])
	}
	switch status {
	case portalSuccess:
	case portalCancelled, portalEnded:
		// xdg-desktop-portal-gtk answers 2 when the dialog is closed with Escape or its close
		// button, so 2 is a cancel too: falling back to another chooser would pop up a second
		// dialog the user just dismissed. A backend that cannot show a window fails the call.
		return "", ErrCancelled
	default:
		return "", fmt.Errorf("portal ended the request with an unknown status %d", status)
	}
	results, ok := body[1].(map[string]dbus.Variant)
	if !ok {
		return "", fmt.Errorf("portal results are %T, want a dictionary", body[1])
	}
	uris, ok := results["uris"].Value().([]string)
	if !ok || len(uris) == 0 {
		return "", errors.New("portal answered without a file")
	}
	return PathFromURI(uris[0])
}
