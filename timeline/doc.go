// Package timeline owns what a frame of the flame chart needs to know about a loaded trace, and
// nothing about how it is painted: the display model (processes and their thread tracks in order,
// each track's tree split into levels by depth, collapse and hide state, vertical layout), the
// viewport (time↔pixel mapping, zoom, pan, clamp, fit, history), the visible-range queries with the
// sub-pixel merge iterator, hit testing, and search.
//
// Everything here is pure Go without Gio, so that the window and the PNG renderer share it, and so
// that it can be tested as data.
//
// # Cost model
//
// A trace can hold millions of entries, but a frame only shows what fits in 1600×1000 pixels. Every
// per-frame operation here is O(log n + visible): tracks are split into levels (one per depth) whose
// entries are in start order with a running maximum of their ends, so a binary search finds the
// first visible entry of a level, and runs of sub-pixel entries are skipped block by block instead
// of being walked one by one (see SpanIter).
//
// # Time
//
// Timestamps are float64 microseconds on the trace's own clock, which can be 10¹² µs and more. A
// float64 near 10¹² has a resolution of about 10⁻⁴ µs, far coarser than a pixel at the deepest
// zoom (1 µs over 1,600 px). The viewport therefore keeps its window relative to a fixed origin
// (the start of the trace) and converts an absolute timestamp by subtracting the origin first,
// which is exact for timestamps within a factor of two of it. Relative times of a 60 s trace
// resolve to 7.5·10⁻⁹ µs, 10⁻⁵ px at the deepest zoom, and nothing is ever accumulated, so
// zooming and panning do not drift.
package timeline
