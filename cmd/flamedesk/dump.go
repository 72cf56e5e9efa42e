package main

import "io"

// runDump is a placeholder until the dump subcommand lands.
func runDump(args []string, stdout, stderr io.Writer) int {
	return usageError(stderr, "dump: not implemented yet")
}
