package main

import "io"

// runGUI is a placeholder until the window lands.
func runGUI(args []string, stderr io.Writer) int {
	return usageError(stderr, "the window is not implemented yet")
}
