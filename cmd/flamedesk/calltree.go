package main

import "io"

// runCalltree is a placeholder until the calltree subcommand lands.
func runCalltree(args []string, stdout, stderr io.Writer) int {
	return usageError(stderr, "calltree: not implemented yet")
}
