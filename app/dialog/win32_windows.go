package dialog

import (
	"context"
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/windows"
)

var (
	comdlg32                 = windows.NewLazySystemDLL("comdlg32.dll")
	procGetOpenFileNameW     = comdlg32.NewProc("GetOpenFileNameW")
	procCommDlgExtendedError = comdlg32.NewProc("CommDlgExtendedError")
)

// openFileNameW is OPENFILENAMEW from commdlg.h; Go's natural alignment gives the same layout on
// 386, amd64 and arm64.
type openFileNameW struct {
	structSize      uint32
	owner           uintptr
	instance        uintptr
	filter          *uint16
	customFilter    *uint16
	maxCustomFilter uint32
	filterIndex     uint32
	file            *uint16
	maxFile         uint32
	fileTitle       *uint16
	maxFileTitle    uint32
	initialDir      *uint16
	title           *uint16
	flags           uint32
	fileOffset      uint16
	fileExtension   uint16
	defExt          *uint16
	custData        uintptr
	hook            uintptr
	templateName    *uint16
	reserved        uintptr
	reservedDword   uint32
	flagsEx         uint32
}

const (
	ofnHideReadOnly  = 0x00000004
	ofnNoChangeDir   = 0x00000008
	ofnPathMustExist = 0x00000800
	ofnFileMustExist = 0x00001000
	ofnExplorer      = 0x00080000
	ofnLongNames     = 0x00200000
	ofnEnableSizing  = 0x00800000

	// Room for long paths (\\?\ prefixed ones go up to 32,767 UTF-16 units).
	win32PathBuffer = 32768
)

// openWin32 shows the common Open dialog. The dialog runs a modal loop on its own OS thread; a
// cancelled ctx returns at once, but the dialog stays up until the user closes it (its answer is
// then dropped), since comdlg32 has no way to close it from outside.
func openWin32(ctx context.Context, opts Options) (string, error) {
	type answer struct {
		path string
		err  error
	}
	done := make(chan answer, 1)
	go func() {
		// GetOpenFileNameW picks files only; folders come from the shell's item dialog.
		show := getOpenFileName
		if opts.Folder {
			show = pickFolder
		}
		path, err := show(opts)
		done <- answer{path, err}
	}()
	select {
	case a := <-done:
		return a.path, a.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func getOpenFileName(opts Options) (string, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	// The Explorer-style dialog hosts shell extensions, which expect a single-threaded apartment.
	if err := windows.CoInitializeEx(0, windows.COINIT_APARTMENTTHREADED|windows.COINIT_DISABLE_OLE1DDE); err == nil {
		defer windows.CoUninitialize()
	}

	file := make([]uint16, win32PathBuffer)
	filter := win32FilterString(opts.Filters)
	ofn := openFileNameW{
		owner:       opts.ParentHWND,
		file:        &file[0],
		maxFile:     uint32(len(file)),
		filterIndex: 1,
		flags:       ofnExplorer | ofnFileMustExist | ofnPathMustExist | ofnHideReadOnly | ofnNoChangeDir | ofnLongNames | ofnEnableSizing,
	}
	ofn.structSize = uint32(unsafe.Sizeof(ofn))
	if len(filter) > 0 {
		ofn.filter = &filter[0]
	}
	var err error
	if ofn.title, err = windows.UTF16PtrFromString(opts.Title); err != nil {
		return "", err
	}
	if opts.Dir != "" {
		if ofn.initialDir, err = windows.UTF16PtrFromString(opts.Dir); err != nil {
			return "", err
		}
	}
	ok, _, _ := procGetOpenFileNameW.Call(uintptr(unsafe.Pointer(&ofn)))
	runtime.KeepAlive(filter)
	runtime.KeepAlive(file)
	if ok == 0 {
		code, _, _ := procCommDlgExtendedError.Call()
		if code == 0 {
			return "", ErrCancelled
		}
		return "", fmt.Errorf("GetOpenFileNameW failed with CommDlgExtendedError 0x%04x", code)
	}
	return windows.UTF16ToString(file), nil
}
