// Package winstate is the contract between the window and its tests: with FLAMEDESK_STATE_FILE
// set, the window writes a State as JSON after every frame that changed it, and the window tests
// read it to know where the chart is and what the panels say, since text cannot be read off a
// screenshot.
package winstate

// Env names the environment variable that turns the state file on.
const Env = "FLAMEDESK_STATE_FILE"

// State is what the window shows.
type State struct {
	Title      string   `json:"title"`
	Loading    bool     `json:"loading"`
	Error      string   `json:"error"`
	ViewStart  float64  `json:"viewStart"` // absolute µs at the chart's left edge
	ViewEnd    float64  `json:"viewEnd"`
	ScrollY    float64  `json:"scrollY"`
	ChartX     int      `json:"chartX"` // the chart's top-left in window pixels, ruler included
	ChartY     int      `json:"chartY"`
	ChartW     int      `json:"chartW"`
	ChartH     int      `json:"chartH"`
	RulerH     int      `json:"rulerH"`
	Selected   string   `json:"selected"`
	Details    []string `json:"details"` // "label\tvalue" per line of the details panel
	Matches    int      `json:"matches"`
	MatchIndex int      `json:"matchIndex"`
	Warnings   []string `json:"warnings"`
	TreeRows   []string `json:"treeRows"` // function names of the first call-tree rows
	Crumbs     []string `json:"crumbs"`   // the transform stack's breadcrumbs
	Tracks     []Track  `json:"tracks"`   // the shown tracks, top to bottom
	Timing     string   `json:"timing"`   // "sampled", "refining" or "refined"
	TreeX      int      `json:"treeX"`    // a point inside the call tree's table, window pixels
	TreeY      int      `json:"treeY"`
	TreeSel    string   `json:"treeSel"` // the selected call-tree row
	Marked     int      `json:"marked"`  // entries highlighted in the chart
	// Compare is the second file of a comparison once it is stacked under the first.
	Compare *Compare `json:"compare,omitempty"`
}

// Compare is B's chart of a comparison.
type Compare struct {
	Name      string  `json:"name"`
	Aligned   bool    `json:"aligned"`
	Align     string  `json:"align"`  // how B is lined up, as the strip says
	Offset    float64 `json:"offset"` // µs: B's clock = A's + Offset
	ChartY    int     `json:"chartY"` // B's chart's top in window pixels, ruler included
	ChartH    int     `json:"chartH"`
	RulerH    int     `json:"rulerH"`
	ViewStart float64 `json:"viewStart"` // absolute µs of B's clock at the chart's left edge
	ViewEnd   float64 `json:"viewEnd"`
	Selected  string  `json:"selected"`
}

// Track is where one thread's rows are.
type Track struct {
	Pid   int64   `json:"pid"`
	Tid   int64   `json:"tid"`
	RowsY float64 `json:"rowsY"` // content y of level 0
}
