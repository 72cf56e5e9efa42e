// Package assets holds what flamedesk ships inside its binary: the bundled sample trace, the icons
// and the desktop integration files.
package assets

import _ "embed"

// SampleTrace is a small real Chrome trace (headless Chromium 156, main thread and a worker, MIT),
// opened when flamedesk starts without a file.
//
//go:embed sample-trace.json.gz
var SampleTrace []byte

// SampleTraceName is the display name of SampleTrace.
const SampleTraceName = "sample-trace.json.gz"
