// Command dialogprobe is a stand-in for flamedesk's window in the dialog's end-to-end test: a Gio
// window titled "flamedesk" that opens the dialog on Ctrl+O (as the real window does) and, once a
// file is chosen, renames itself "flamedesk — NAME" and prints "opened PATH" on stdout. It also sets
// the window icon, so the test can check that too.
package main

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"os"
	"path/filepath"

	"gioui.org/app"
	"gioui.org/io/key"
	"gioui.org/op"
	"gioui.org/op/paint"
	"gioui.org/unit"

	"flamedesk/app/dialog"
	"flamedesk/app/wmicon"
	"flamedesk/assets"
)

func main() {
	go func() {
		if err := run(); err != nil {
			fmt.Fprintln(os.Stderr, "dialogprobe:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}()
	app.Main()
}

type chosen struct {
	path string
	err  error
}

func run() error {
	w := new(app.Window)
	w.Option(app.Title("flamedesk"), app.Size(unit.Dp(800), unit.Dp(500)))
	var ops op.Ops
	var parent uint64
	results := make(chan chosen, 1)
	busy := false
	for {
		switch e := w.Event().(type) {
		case app.DestroyEvent:
			return e.Err
		case app.X11ViewEvent:
			if e.Valid() {
				parent = uint64(e.Window)
				if err := wmicon.SetX11(e.Display, e.Window, assets.WindowIconPNGs...); err != nil {
					fmt.Fprintln(os.Stderr, "dialogprobe: icon:", err)
				}
			}
		case app.FrameEvent:
			gtx := app.NewContext(&ops, e)
			select {
			case r := <-results:
				busy = false
				switch {
				case r.err == nil:
					w.Option(app.Title("flamedesk — " + filepath.Base(r.path)))
					fmt.Println("opened", r.path)
				case errors.Is(r.err, dialog.ErrCancelled):
					fmt.Println("cancelled")
				default:
					fmt.Println("error", r.err)
				}
			default:
			}
			for {
				ev, ok := gtx.Event(key.Filter{Name: "O", Required: key.ModShortcut})
				if !ok {
					break
				}
				if k, ok := ev.(key.Event); ok && k.State == key.Press && !busy {
					busy = true
					opts := dialog.Options{ParentX11: parent}
					go func() {
						p, err := dialog.Open(context.Background(), opts)
						results <- chosen{p, err}
						w.Invalidate()
					}()
				}
			}
			paint.Fill(gtx.Ops, color.NRGBA{R: 0x1e, G: 0x22, B: 0x30, A: 0xff})
			e.Frame(gtx.Ops)
		}
	}
}
