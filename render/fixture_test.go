package render

import (
	"context"
	"sync"
	"testing"

	"flamedesk/core/integrate"
	"flamedesk/core/load"
	"flamedesk/internal/fixtures"
	"flamedesk/timeline"
)

var loaded struct {
	sync.Mutex
	models map[string]*timeline.Model
}

// loadModel loads a fixture through the real loader and integrator, once per test binary.
func loadModel(tb testing.TB, elems ...string) *timeline.Model {
	tb.Helper()
	path := fixtures.Path(tb, elems...)
	loaded.Lock()
	defer loaded.Unlock()
	if m, ok := loaded.models[path]; ok {
		return m
	}
	tr, err := load.File(context.Background(), path, nil)
	if err != nil {
		tb.Fatalf("loading %s: %v", path, err)
	}
	integrate.Build(tr)
	m := timeline.New(tr)
	if loaded.models == nil {
		loaded.models = map[string]*timeline.Model{}
	}
	loaded.models[path] = m
	return m
}
