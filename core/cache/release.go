package cache

import (
	"sync"

	"flamedesk/core"
)

// mappings are the mapped cache files of the traces Load returned, until Release.
var mappings struct {
	sync.Mutex
	of map[*core.Trace][]byte
}

func remember(tr *core.Trace, data []byte) {
	mappings.Lock()
	defer mappings.Unlock()
	if mappings.of == nil {
		mappings.of = make(map[*core.Trace][]byte)
	}
	mappings.of[tr] = data
}

// Release says that tr, which Load returned, is no longer shown: the pages of the cache file its
// columns alias are returned to the system at once rather than counted in the process's memory
// until the system runs short (a reopened 238 MB trace maps ~290 MB). Anything still reading tr
// reads on, the pages coming back from the file. A trace not from Load is left alone.
func Release(tr *core.Trace) {
	mappings.Lock()
	data, ok := mappings.of[tr]
	delete(mappings.of, tr)
	mappings.Unlock()
	if ok {
		pageOut(data)
	}
}
