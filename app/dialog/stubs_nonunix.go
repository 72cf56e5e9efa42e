//go:build !((linux && !android) || freebsd || openbsd)

package dialog

import (
	"context"
	"errors"
)

var errNotOnThisPlatform = errors.New("not available on this platform")

func openPortal(context.Context, Options) (string, error) { return "", errNotOnThisPlatform }

func openBuiltin(context.Context, Options) (string, error) { return "", errNotOnThisPlatform }
