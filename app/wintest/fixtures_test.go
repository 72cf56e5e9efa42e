//go:build windowtest

package wintest

import (
	"testing"

	"flamedesk/internal/fixtures"
)

func fixturePath(t *testing.T, elems ...string) string { return fixtures.Path(t, elems...) }
