package load

import (
	"math/rand"
	"strings"
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

// TestKeysOfEveryShape reads events whose keys take the short path (ASCII, no escape, colon right
// after) and every way out of it: an escape, a space before the colon, invalid UTF-8, keys of 7,
// 8, 15, 16 and more bytes.
func TestKeysOfEveryShape(t *testing.T) {
	events := []string{
		`{"ph":"X","name":"plain","pid":1,"tid":1,"ts":1,"dur":1}`,
		`{"ph":"X","na\u006de":"escaped","pid":1,"tid":1,"ts":2,"dur":1}`,
		`{"ph" :"X","name"  :  "spaced","pid":1,"tid":1,"ts":3,"dur":1}`,
		`{"ph":"X","name":"long keys","abcdefg":1,"abcdefgh":2,"abcdefghijklmno":3,"abcdefghijklmnop":4,"abcdefghijklmnopqrstuvwxyz":5,"pid":1,"tid":1,"ts":4,"dur":1}`,
		"{\"ph\":\"X\",\"name\":\"bad key\",\"k\xff\":1,\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":1}",
		`{"ph":"X","name":"unicode key","clé":1,"pid":1,"tid":1,"ts":6,"dur":1}`,
	}
	tr := mustLoad(t, "["+strings.Join(events, ",\n")+"]")
	want := []string{"plain", "escaped", "spaced", "long keys", "bad key", "unicode key"}
	if tr.Events.Len() != len(want) {
		t.Fatalf("%d events, want %d", tr.Events.Len(), len(want))
	}
	for i, w := range want {
		if got := tr.Strings.Get(tr.Events.Name[i]); got != w || tr.Events.Ts[i] != float64(i+1) || tr.Events.Ph[i] != 'X' {
			t.Errorf("event %d: %q %c at %v, want %q X at %d", i, got, tr.Events.Ph[i], tr.Events.Ts[i], w, i+1)
		}
	}
	wantWarning(t, tr, "invalid UTF-8")
}
