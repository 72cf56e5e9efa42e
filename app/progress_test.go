package app

import (
	"testing"
	"time"
)

// The loading card is redrawn a second after a load's first frame, then twice a second: frames
// that come sooner for other reasons (a window's first frames, a key) do not bring it closer,
// and the redraws never come more often than progressRedraw.
func TestLoadingCardRedraws(t *testing.T) {
	began := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(ms int) time.Time { return began.Add(time.Duration(ms) * time.Millisecond) }
	for _, c := range []struct{ now, want int }{
		{0, 1000}, {16, 1000}, {700, 1000}, {760, 1260}, {1000, 1500}, {1500, 2000}, {3210, 3710},
	} {
		if got := nextProgressRedraw(began, at(c.now)); !got.Equal(at(c.want)) {
			t.Errorf("after a frame at %d ms: next at %v ms, want %d", c.now, got.Sub(began).Milliseconds(), c.want)
		}
	}
	// Left to its own redraws, the card is redrawn a second after its first frame, then every
	// progressRedraw: 19 times in 10 s.
	now, frames := began, 0
	for now.Before(at(10_000)) {
		next := nextProgressRedraw(began, now)
		if d := next.Sub(now); d < progressRedraw || frames > 0 && d > progressRedraw {
			t.Fatalf("after a frame at %v: the next %v later", now.Sub(began), d)
		}
		now = next
		frames++
	}
	if frames != 19 {
		t.Errorf("%d redraws in 10 s, want 19", frames)
	}
}
