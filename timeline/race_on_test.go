//go:build race

package timeline

// raceEnabled says the tests run under the race detector, which makes the largest fixtures
// take minutes.
const raceEnabled = true
