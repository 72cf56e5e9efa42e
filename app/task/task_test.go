package task

import (
	"context"
	"errors"
	"testing"
	"time"
)

// wait polls f the way the window does, once per "frame", until a result arrives.
func wait[T any](t *testing.T, f *Future[T], woken chan struct{}) (T, error) {
	t.Helper()
	for {
		select {
		case <-woken:
			if v, err, ok := f.Poll(); ok {
				return v, err
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no result")
		}
	}
}

// A newer run cancels the older one, whose result never arrives even if it finishes later.
func TestNewerRunCancelsOlder(t *testing.T) {
	woken := make(chan struct{}, 10)
	f := Future[string]{Invalidate: func() { woken <- struct{}{} }}
	firstCancelled := make(chan struct{})
	release := make(chan struct{})
	f.Start(func(ctx context.Context) (string, error) {
		<-ctx.Done()
		close(firstCancelled)
		<-release
		return "old", nil
	})
	f.Start(func(context.Context) (string, error) { return "new", nil })
	select {
	case <-firstCancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("starting a second run did not cancel the first")
	}
	if v, err := wait(t, &f, woken); v != "new" || err != nil {
		t.Fatalf("got %q, %v; want the newer run's result", v, err)
	}
	close(release)
	time.Sleep(10 * time.Millisecond)
	<-woken
	if v, _, ok := f.Poll(); ok {
		t.Fatalf("the cancelled run delivered %q", v)
	}
	if f.Busy() {
		t.Fatal("busy after the last run finished")
	}
}

func TestCancelDropsResult(t *testing.T) {
	woken := make(chan struct{}, 10)
	f := Future[int]{Invalidate: func() { woken <- struct{}{} }}
	f.Start(func(ctx context.Context) (int, error) {
		<-ctx.Done()
		return 0, ctx.Err()
	})
	if !f.Busy() || !f.Pending() {
		t.Fatal("not busy while running")
	}
	f.Cancel()
	<-woken
	if _, _, ok := f.Poll(); ok || f.Busy() {
		t.Fatal("a cancelled run delivered a result or stayed busy")
	}
	boom := errors.New("boom")
	f.Start(func(context.Context) (int, error) { return 0, boom })
	if _, err := wait(t, &f, woken); err != boom {
		t.Fatalf("error %v, want boom", err)
	}
}

// A cancelled run is no longer Busy at once, but Running until its work returned: what the window
// waits for before it changes what that work may still read.
func TestCancelledRunIsRunningUntilItReturns(t *testing.T) {
	woken := make(chan struct{}, 10)
	f := Future[int]{Invalidate: func() { woken <- struct{}{} }}
	cancelled, release := make(chan struct{}), make(chan struct{})
	f.Start(func(ctx context.Context) (int, error) {
		<-ctx.Done()
		close(cancelled)
		<-release
		return 0, ctx.Err()
	})
	f.Cancel()
	<-cancelled
	if f.Busy() || !f.Running() {
		t.Fatalf("a cancelled run still at work: busy %v, running %v", f.Busy(), f.Running())
	}
	close(release)
	select {
	case <-woken:
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled run never returned")
	}
	if f.Running() {
		t.Fatal("a run that returned is still running")
	}
}
