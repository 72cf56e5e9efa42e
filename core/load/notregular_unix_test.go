//go:build unix

package load

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestNotARegularFileIsRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := File(context.Background(), fifo, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("fifo: %v", err)
		}
	case <-time.After(10 * time.Second):
		// Unblock the open so that the goroutine ends.
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.Close()
		}
		t.Fatal("loading a named pipe blocked")
	}
	if _, err := File(context.Background(), dir, nil); !errors.Is(err, ErrNotRegular) {
		t.Errorf("directory: %v", err)
	}
}
