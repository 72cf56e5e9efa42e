package main

import (
	"flag"
	"fmt"
	"io"

	"flamedesk/core"
	"flamedesk/core/sourcemap"
)

// sourceMapsUsage documents the flag that dump, calltree and render share.
const sourceMapsUsage = `  --sourcemaps DIR   also look for source maps in DIR (searched recursively for NAME.js.map and
                     for the files scripts' sourceMappingURLs name); maps embedded in the trace
                     and data: URLs in the script text it carries are always used
`

// addSourceMapsFlag registers --sourcemaps DIR on fs.
func addSourceMapsFlag(fs *flag.FlagSet) *string { return fs.String("sourcemaps", "", "") }

// applySourceMaps maps tr's frames to their original sources (core/sourcemap); what cannot be
// mapped is counted in tr.Warnings, never an error.
func applySourceMaps(tr *core.Trace, dir string) *sourcemap.Set {
	return sourcemap.Apply(tr, sourcemap.Options{Dir: dir})
}

// noteSourceMaps tells stderr when the folder named with --sourcemaps held no map for the trace's
// scripts: a mistyped folder would otherwise pass unnoticed (dump lists it among its warnings).
func noteSourceMaps(stderr io.Writer, set *sourcemap.Set) {
	if note := set.FolderNote(); note != "" {
		fmt.Fprintf(stderr, "flamedesk: %s\n", note)
	}
}
