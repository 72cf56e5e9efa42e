package dialog

// The Windows folder chooser: the shell's Common Item Dialog (IFileOpenDialog) with
// FOS_PICKFOLDERS, driven through its COM vtable with plain syscalls, so that Windows builds
// stay free of cgo.

import (
	"errors"
	"fmt"
	"runtime"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

var (
	ole32                           = windows.NewLazySystemDLL("ole32.dll")
	procCoCreateInstance            = ole32.NewProc("CoCreateInstance")
	shell32                         = windows.NewLazySystemDLL("shell32.dll")
	procSHCreateItemFromParsingName = shell32.NewProc("SHCreateItemFromParsingName")

	clsidFileOpenDialog = windows.GUID{Data1: 0xdc1c5a9c, Data2: 0xe88a, Data3: 0x4dde, Data4: [8]byte{0xa5, 0xa1, 0x60, 0xf8, 0x2a, 0x20, 0xae, 0xf7}}
	iidFileOpenDialog   = windows.GUID{Data1: 0xd57c7288, Data2: 0xd4ad, Data3: 0x4768, Data4: [8]byte{0xbe, 0x02, 0x9d, 0x96, 0x95, 0x32, 0xd9, 0x60}}
	iidShellItem        = windows.GUID{Data1: 0x43826d1e, Data2: 0xe718, Data3: 0x42ee, Data4: [8]byte{0xbc, 0x55, 0xa1, 0xe2, 0x61, 0xc3, 0x7b, 0xfe}}
)

// The slots of the vtables used here: IUnknown's three, IModalWindow's Show, then IFileDialog's
// methods in declaration order (shobjidl_core.h); IShellItem's GetDisplayName.
const (
	vtRelease        = 2
	vtShow           = 3
	vtSetOptions     = 9
	vtGetOptions     = 10
	vtSetFolder      = 12
	vtSetTitle       = 17
	vtGetResult      = 20
	vtGetDisplayName = 5
)

const (
	clsctxInprocServer = 0x1
	// hresultCancelled is HRESULT_FROM_WIN32(ERROR_CANCELLED): the user closed the dialog.
	hresultCancelled    = 0x800704C7
	fosNoChangeDir      = 0x00000008
	fosPickFolders      = 0x00000020
	fosForceFileSystem  = 0x00000040
	fosPathMustExist    = 0x00000800
	sigdnFileSysPath    = 0x80058000
	hresultFailedBitSet = 0x80000000
)

// comObject is a COM interface pointer: a pointer to its vtable.
type comObject struct{ vtbl *[32]uintptr }

// call invokes vtable slot i with the object as its first argument; it returns the HRESULT.
func (o *comObject) call(i int, args ...uintptr) uintptr {
	hr, _, _ := syscall.SyscallN(o.vtbl[i], append([]uintptr{uintptr(unsafe.Pointer(o))}, args...)...)
	return hr
}

func (o *comObject) release() { o.call(vtRelease) }

func failed(hr uintptr) bool { return uint32(hr)&hresultFailedBitSet != 0 }

// pickFolder shows the folder chooser on the calling goroutine's OS thread, which it locks.
func pickFolder(opts Options) (string, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := windows.CoInitializeEx(0, windows.COINIT_APARTMENTTHREADED|windows.COINIT_DISABLE_OLE1DDE); err == nil {
		defer windows.CoUninitialize()
	}
	var dlg *comObject
	hr, _, _ := procCoCreateInstance.Call(uintptr(unsafe.Pointer(&clsidFileOpenDialog)), 0, clsctxInprocServer,
		uintptr(unsafe.Pointer(&iidFileOpenDialog)), uintptr(unsafe.Pointer(&dlg)))
	if failed(hr) || dlg == nil {
		return "", fmt.Errorf("the folder dialog could not be created (HRESULT 0x%08x)", uint32(hr))
	}
	defer dlg.release()

	var options uint32
	if hr := dlg.call(vtGetOptions, uintptr(unsafe.Pointer(&options))); failed(hr) {
		return "", fmt.Errorf("IFileDialog.GetOptions failed (HRESULT 0x%08x)", uint32(hr))
	}
	options |= fosPickFolders | fosForceFileSystem | fosPathMustExist | fosNoChangeDir
	if hr := dlg.call(vtSetOptions, uintptr(options)); failed(hr) {
		return "", fmt.Errorf("IFileDialog.SetOptions failed (HRESULT 0x%08x)", uint32(hr))
	}
	if opts.Title != "" {
		title, err := windows.UTF16PtrFromString(opts.Title)
		if err != nil {
			return "", err
		}
		dlg.call(vtSetTitle, uintptr(unsafe.Pointer(title)))
		runtime.KeepAlive(title)
	}
	if opts.Dir != "" {
		// A start folder that cannot be named is no reason to fail: the dialog starts elsewhere.
		if dir, err := windows.UTF16PtrFromString(opts.Dir); err == nil {
			var item *comObject
			hr, _, _ := procSHCreateItemFromParsingName.Call(uintptr(unsafe.Pointer(dir)), 0,
				uintptr(unsafe.Pointer(&iidShellItem)), uintptr(unsafe.Pointer(&item)))
			runtime.KeepAlive(dir)
			if !failed(hr) && item != nil {
				dlg.call(vtSetFolder, uintptr(unsafe.Pointer(item)))
				item.release()
			}
		}
	}
	hr = dlg.call(vtShow, opts.ParentHWND)
	if hr == hresultCancelled {
		return "", ErrCancelled
	}
	if failed(hr) {
		return "", fmt.Errorf("the folder dialog failed (HRESULT 0x%08x)", uint32(hr))
	}
	var result *comObject
	if hr := dlg.call(vtGetResult, uintptr(unsafe.Pointer(&result))); failed(hr) || result == nil {
		return "", fmt.Errorf("IFileDialog.GetResult failed (HRESULT 0x%08x)", uint32(hr))
	}
	defer result.release()
	var name *uint16
	if hr := result.call(vtGetDisplayName, sigdnFileSysPath, uintptr(unsafe.Pointer(&name))); failed(hr) || name == nil {
		return "", errors.New("the chosen folder has no path on the file system")
	}
	defer windows.CoTaskMemFree(unsafe.Pointer(name))
	return windows.UTF16PtrToString(name), nil
}
