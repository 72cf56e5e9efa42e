package load

import (
	"math/rand"
	"testing"
)

// TestDigits16MatchesAByteLoop checks the eight-at-a-time digit parser against the plain loop on
// random runs of digits followed by random bytes (other digits past 16, delimiters, letters,
// bytes with the high bit set, NUL).
func TestDigits16MatchesAByteLoop(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	after := []byte("0123456789,]}:.-eE /\"\xff\xfa\x00\x2f\x3a")
	buf := make([]byte, 16)
	for range 200000 {
		run := r.Intn(17)
		for j := range buf {
			if j < run {
				buf[j] = byte('0' + r.Intn(10))
			} else {
				buf[j] = after[r.Intn(len(after))]
			}
		}
		var want int64
		n := 0
		for n < len(buf) && buf[n] >= '0' && buf[n] <= '9' {
			want = want*10 + int64(buf[n]-'0')
			n++
		}
		if x, m := digits16(buf, 0); m != n || x != want {
			t.Fatalf("%q: %d (%d digits), want %d (%d digits)", buf, x, m, want, n)
		}
	}
}
