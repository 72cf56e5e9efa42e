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

// Trim hands back the resident pages of every mapped cache file whose trace is still in use,
// except those the process wrote to: pages read since the file was mapped (a search reads every
// name, a call tree a whole thread) stay counted in the process's memory until the system runs
// short, when they are as cheap to read again as to keep. The window calls it once the user
// stopped for a while; what is read next comes back from the page cache.
func Trim() {
	mappings.Lock()
	list := make([][]byte, 0, len(mappings.of))
	for _, data := range mappings.of {
		list = append(list, data)
	}
	mappings.Unlock()
	for _, data := range list {
		trimResident(data)
	}
}
