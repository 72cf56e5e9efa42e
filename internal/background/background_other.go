//go:build !linux

package background

// lowerThread does nothing where thread priorities are not set through nice values.
func lowerThread(int) {}
