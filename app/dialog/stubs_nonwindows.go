//go:build !windows

package dialog

import (
	"context"
	"errors"
)

func openWin32(context.Context, Options) (string, error) {
	return "", errors.New("GetOpenFileNameW exists only on Windows")
}
